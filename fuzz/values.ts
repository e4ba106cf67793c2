import type { Rng } from "./prng.ts";

// Malformed and boundary values: the raw material of every generated request.

export const NASTY_STRINGS: readonly string[] = [
  "",
  " ",
  "a",
  "\t\n",
  "\u0000",
  "a\u0000b",
  "\uD800", // lone high surrogate
  "\uDFFF", // lone low surrogate
  "x\uD83D", // emoji cut in half
  "\uD83D\uDE00",
  "\u202Eevil\u202C", // right-to-left override
  "\u05E9\u05DC\u05D5\u05DD", // Hebrew
  "\u0645\u0631\u062D\u0628\u0627", // Arabic
  "\uFEFFbom",
  "e\u0301\u0301\u0301",
  "\u2028\u2029",
  "\u0001\u001f\u007f",
  "\uFFFF\uFFFE",
  "%",
  "%zz",
  "%00",
  "%E0%A4%A",
  "%C0%AF",
  "%ED%A0%80",
  "../../../../etc/passwd",
  "..",
  ".",
  "/",
  "//",
  "\\",
  '"',
  "'",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  "${jndi:ldap://x}",
  "{{7*7}}",
  "null",
  "undefined",
  "true",
  "0",
  "-1",
  "1e309",
  "NaN",
  "Infinity",
  "9007199254740993",
  "*",
  "dc_*",
  "p_*",
  ",,,",
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "$errors",
  "$logs",
  "default",
  "http",
  "timer",
  "none",
];

/** A string of `n` characters drawn from a small alphabet (or one character repeated). */
export function longString(rng: Rng, n: number): string {
  const unit = rng.pick(["a", "\u00e9", "\uD83D\uDE00", "%", "x/", "\u0000", "\\u0000"]);
  return unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
}

export function nastyString(rng: Rng): string {
  return rng.weighted<() => string>([
    [6, () => rng.pick(NASTY_STRINGS)],
    [2, () => longString(rng, rng.pick([63, 64, 65, 100, 101, 200, 201, 255, 256, 257, 1000, 2049, 10_000]))],
    [1, () => rng.pick(NASTY_STRINGS) + rng.pick(NASTY_STRINGS)],
  ])();
}

/** JSON text nested `depth` levels (arrays or objects). */
export function nestedJson(rng: Rng, depth: number): string {
  return rng.chance(0.5) ? "[".repeat(depth) + "]".repeat(depth) : '{"a":'.repeat(depth) + "1" + "}".repeat(depth);
}

/** A JSON value of a wrong type or boundary size, as JSON text (some can't be built as values). */
export function nastyJson(rng: Rng): string {
  return rng.weighted<() => string>([
    [4, () => rng.pick(["null", "true", "false", "0", "-0", "-1", "1.5", "1e308", "-1e308", "1e999", "9007199254740993", '""', "[]", "{}", "[null]", "[[]]", '{"":""}']),],
    [3, () => JSON.stringify(nastyString(rng))],
    [1, () => rng.pick(['"\\ud800"', '"\\udfff"', '"\\u0000"', '"a\\nb"'])],
    [1, () => nestedJson(rng, rng.pick([255, 256, 257, 300, 5000]))],
    [1, () => JSON.stringify(Object.fromEntries(Array.from({ length: rng.pick([100, 1000, 10_001]) }, (_, i) => [`k${i}`, i])))],
    [1, () => JSON.stringify(Array.from({ length: rng.pick([51, 1000, 100_000]) }, () => null))],
    [1, () => JSON.stringify(longString(rng, rng.pick([10_000, 300_000])))],
    [1, () => JSON.stringify([null, 1, "x", [], {}, true])],
  ])();
}

/** Ids: well-formed but unknown, of the wrong kind, malformed, or nasty strings. */
export function strangeId(rng: Rng): string {
  return rng.weighted<() => string>([
    [3, () => rng.pick(["dc_AAAAAAAAAAAA", "p_AAAAAAAAAAAA", "wh_AAAAAAAAAAAA", "u_AAAAAAAAAAAA", "sc_AAAAAAAAAAAA", "c_AAAAAAAAAAAA"])],
    [2, () => rng.pick(["dc_", "dc", "DC_AAAAAAAAAAAA", "dc_AAAAAAAAAAAA ", " dc_AAAAAAAAAAAA", "dc_AAAAAAAAAAAA\u0000", "dc_" + "A".repeat(97), "dc_" + "A".repeat(200)])],
    [3, () => nastyString(rng)],
  ])();
}

/** Cursors: garbage, base64 of nothing useful, of an id of another kind. */
export function strangeCursor(rng: Rng): string {
  const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64url");
  return rng.weighted<() => string>([
    [2, () => b64(rng.pick(["dc_AAAAAAAAAAAA", "u_AAAAAAAAAAAA", "x", "", "dc_" + "A".repeat(30), "' OR 1=1 --", "\u0000"]))],
    [1, () => rng.pick(["====", "!!!", "a b", "%zz", "AAAA", "-_-_", "0"])],
    [2, () => nastyString(rng)],
  ])();
}

/** Event ids (`<ms>-<seq>`) malformed or at the edges. */
export function strangeEventId(rng: Rng): string {
  return rng.pick([
    "0-0",
    "1-1",
    "-1-0",
    "99999999999999999999-0",
    "1700000000000-99999999999999999999",
    "1700000000000",
    "1700000000000-",
    "-",
    "abc-def",
    "1.5-2",
    "1e3-1",
    "0x10-0",
    " 1-1",
    "9007199254740993-1",
    nastyString(rng),
  ]);
}

/** Percent-encodes a path segment, or not, or badly. */
export function pathSegment(rng: Rng, value: string): string {
  return rng.weighted<() => string>([
    [6, () => encodeURIComponent(toWellFormed(value))],
    [1, () => value], // raw: spaces, unicode, slashes... as they are
    [1, () => rng.pick(["%", "%zz", "%E0%A4%A", "%C0%AF", "%ED%A0%80", "%00", "%2F", "%252F", "%u0041"]) + encodeURIComponent(toWellFormed(value))],
  ])();
}

/** encodeURIComponent throws on lone surrogates; they go out as their UTF-8-of-replacement. */
export function toWellFormed(s: string): string {
  return s.toWellFormed();
}
