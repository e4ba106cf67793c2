import { authHeaders, keyOf, type Ctx, type Who } from "./api-cases.ts";
import { nastyJson, nastyString, nestedJson, pathSegment, strangeEventId, strangeId, toWellFormed } from "./values.ts";
import { utf8AsLatin1, type Case } from "./wire.ts";

// Requests outside the OpenAPI document: HTTP sources' endpoints (/http/{key}/...), the SSE
// stream, odd paths, and bytes that are barely (or not) HTTP. Plus mutations any request can get:
// odd methods, headers and framing.

// CR, LF and NUL can't be in a header value a client means to send (protocolCase sends those on purpose)
const stripControls = (s: string) => s.replace(/[\r\n]/g, "").split("\u0000").join("");

const METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "TRACE"];
const ODD_METHODS = ["PROPFIND", "M-SEARCH", "FOO", "get", "G E T", "GET\u0000", "X".repeat(300), "", "PURGE", "LINK", "QUERY"];

const CONTENT_TYPES = [
  "application/json",
  "application/json; charset=utf-8",
  "APPLICATION/JSON",
  "application/json; charset=latin1",
  "application/json;",
  "application/json; charset",
  "application/jsonx",
  "application/vnd.api+json",
  "application/json, text/plain",
  "text/plain",
  "text/plain; charset=utf-8",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/octet-stream",
  "*/*",
  "",
  ";",
  "application/json; " + "a=b; ".repeat(500),
  "\u00ff\u00fe",
];

/** One body of many kinds, with a content type that may or may not fit it. */
function anyBody(ctx: Ctx): { type?: string; body: Buffer } {
  const { rng } = ctx;
  const text = rng.weighted<() => string>([
    [4, () => JSON.stringify({ hello: "world", n: rng.int(100) })],
    [3, () => nastyJson(rng)],
    [1, () => nestedJson(rng, rng.pick([255, 256, 257, 1000, 5000, 50_000]))],
    [1, () => "a=1&b=2&a=3&__proto__[x]=1&" + "k=v&".repeat(rng.pick([1, 1000]))],
    [1, () => rng.pick(['{"a":', "{", "[1,2", "\uFEFF{}", "{}\u0000", "nul", "{'a':1}", '{"a":1}{"b":2}', "   "])],
    [1, () => toWellFormed(nastyString(rng))],
    [1, () => "x".repeat(rng.pick([512 * 1024, 512 * 1024 + 1, 1024 * 1024 + 1]))],
  ])();
  const body = rng.chance(0.05) ? Buffer.from([0xff, 0xfe, 0xc0, 0xaf, 0xed, 0xa0, 0x80, 0x00]) : Buffer.from(text, "utf8");
  return { type: rng.chance(0.9) ? rng.pick(CONTENT_TYPES) : undefined, body };
}

export function ingressCase(ctx: Ctx): Case {
  const { rng, world } = ctx;
  const key = rng.weighted<() => string>([
    [8, () => rng.pick([...world.a.endpoints, ...world.b.endpoints])],
    [1, () => strangeId(rng)],
    [1, () => toWellFormed(nastyString(rng))],
  ])();
  const sub = rng.weighted<() => string>([
    [4, () => ""],
    [2, () => "/" + pathSegment(rng, nastyString(rng))],
    [1, () => "/a/b/c/" + "d/".repeat(rng.pick([1, 50, 500]))],
    [1, () => "/" + "x".repeat(rng.pick([101, 1000, 8000]))],
  ])();
  const query = rng.chance(0.3) ? "?" + rng.pick(["a=1", "a=1&a=2", "a[b]=1", "%zz", "__proto__=1", "q=" + encodeURIComponent(toWellFormed(nastyString(rng))), "&&="]) : "";
  const method = rng.chance(0.95) ? rng.pick(METHODS) : rng.pick(["PROPFIND", "FOO", "PURGE"]);
  const headers: Array<[string, string]> = [];
  let body: Buffer | undefined;
  if (method !== "GET" && method !== "HEAD" && rng.chance(0.85)) {
    const b = anyBody(ctx);
    if (b.type !== undefined) headers.push(["Content-Type", b.type]);
    headers.push(["Content-Length", String(b.body.length)]);
    body = b.body;
  }
  if (rng.chance(0.2)) headers.push([rng.pick(["X-Signature", "X-Hub-Signature-256", "User-Agent", "X-Forwarded-For", "Cookie"]), stripControls(utf8AsLatin1(toWellFormed(nastyString(rng))))]);
  return { label: `${method === "HEAD" ? "HEAD" : "ANY"} /http/{key}`, method, target: `/http/${pathSegment(rng, key)}${sub}${query}`, headers, body, head: method === "HEAD" };
}

export function sseCase(ctx: Ctx): Case {
  const { rng, world } = ctx;
  const who = rng.weighted<Who>([[6, "a"], [2, "b"], [1, "admin"], [1, "none"], [1, "bad"]]);
  const id = rng.weighted<() => string>([
    [6, () => rng.pick([world.a.sources.http, world.a.sources.props, world.a.sources.custom])],
    [1, () => world.a.workflowId],
    [2, () => strangeId(rng)],
  ])();
  const q: string[] = [];
  const headers: Array<[string, string]> = [];
  if (rng.chance(0.3)) q.push(`access_token=${encodeURIComponent(keyOf(ctx, who) ?? toWellFormed(nastyString(rng)))}`);
  else headers.push(...authHeaders(ctx, who));
  if (rng.chance(0.3)) q.push(`event_name=${encodeURIComponent(rng.pick(["$errors", "$logs", "default", "", toWellFormed(nastyString(rng))]))}`);
  if (rng.chance(0.3)) headers.push(["Last-Event-ID", rng.pick([...world.a.eventIds, stripControls(strangeEventId(rng))])]);
  const method = rng.chance(0.9) ? "GET" : rng.pick(["HEAD", "POST", "DELETE"]);
  return { label: `${method} /sources/{id}/sse`, method, target: `/sources/${pathSegment(rng, id)}/sse${q.length ? "?" + q.join("&") : ""}`, headers, head: method === "HEAD" };
}

export function miscCase(ctx: Ctx): Case {
  const { rng } = ctx;
  const target = rng.pick([
    "/",
    "/healthz",
    "/healthz?x=1",
    "/v1",
    "/v1/",
    "/v1/openapi.json",
    "/v1/openapi.json?include=x",
    "/nope",
    "/v1/nope",
    "//v1//users//me",
    "/v1/users/me/../me",
    "/v1/%2e%2e/healthz",
    "/%",
    "/%zz",
    "/v1/sources/%00",
    "/v1/users/me?",
    "/v1/users/me#frag",
    "/v1/users/me;a=b",
    "/V1/USERS/ME",
    "/http",
    "/http/",
    "/sources//sse",
    "/sources/x/sse/extra",
    "/" + "a/".repeat(2000),
    "/v1/components/" + "x".repeat(101),
    "/v1/sources/" + encodeURIComponent("\u202Eevil"),
    "/" + utf8AsLatin1("\u00e9\u202e\uD83D\uDE00"),
  ]);
  const method = rng.chance(0.8) ? rng.pick(METHODS) : rng.pick(ODD_METHODS);
  const who = rng.pick<Who>(["a", "none", "bad"]);
  return { label: "misc", method, target, headers: authHeaders(ctx, who), head: method === "HEAD" };
}

/** Bytes that are barely HTTP, or not at all. */
export function protocolCase(ctx: Ctx): Case {
  const { rng, world } = ctx;
  const auth = `Authorization: Bearer ${world.a.key}\r\n`;
  const json = '{"component_code": "x"}';
  const raw = rng.pick<() => string>([
    () => `GET /v1/users/me HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(rng.pick([16_000, 20_000, 70_000]))}\r\n\r\n`,
    () => `GET /v1/users/me HTTP/1.1\r\nHost: x\r\n${Array.from({ length: rng.pick([100, 2100]) }, (_, i) => `X-H${i}: v\r\n`).join("")}\r\n`,
    () => `GET /v1/sources/${"a".repeat(rng.pick([8000, 20_000]))} HTTP/1.1\r\nHost: x\r\n\r\n`,
    () => `GET /v1/users/me?${"q=1&".repeat(rng.pick([1000, 5000]))} HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n`,
    () => "GET /healthz HTTP/1.0\r\n\r\n",
    () => "GET /healthz\r\n\r\n",
    () => "GET /healthz HTTP/2.0\r\nHost: x\r\n\r\n",
    () => "GET /healthz HTTP/1.1\nHost: x\nConnection: close\n\n",
    () => "GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n", // no Host
    () => "GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n",
    () => "GET http://fuzz.test/healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    () => "OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    () => "GET  /healthz  HTTP/1.1\r\nHost: x\r\n\r\n",
    () => "GET /heal thz HTTP/1.1\r\nHost: x\r\n\r\n",
    () => `GET /v1/users/me HTTP/1.1\r\nHost: x\r\n${auth}X-Folded: a\r\n b\r\nConnection: close\r\n\r\n`,
    () => "GET /v1/users/me HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n",
    () => "GET /v1/users/me HTTP/1.1\r\nHost: x\r\n: empty\r\n\r\n",
    () => "GET /v1/users/me HTTP/1.1\r\nHost: x\r\nX-Nul: a\u0000b\r\n\r\n",
    () => "GET /v1/users/me HTTP/1.1\r\nHost: x\r\nX-CR: a\rb\r\n\r\n",
    () => `GET /v1/users/me HTTP/1.1\r\nHost: x\r\n${auth}X-High: \u00ff\u00fe\u0080\r\nConnection: close\r\n\r\n`,
    () => `POST /v1/components HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!`,
    () => `POST /v1/components HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: -1\r\n\r\n${json}`,
    () => `POST /v1/components HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: abc\r\n\r\n${json}`,
    () => `POST /v1/components HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 99999999999999999999\r\n\r\n${json}`,
    () => `POST /v1/components HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 2000000\r\n\r\n${json}`,
    () => `POST /v1/components HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 3\r\nConnection: close\r\n\r\n${json}`,
    () => `POST /v1/components HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n${json.length.toString(16)}\r\n${json}\r\n0\r\n\r\n`,
    () => `POST /v1/components HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n${json}\r\n0\r\n\r\n`,
    () => `POST /v1/components HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n5\r\nhello\r\n0\r\n\r\n`,
    () => `POST /v1/components HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n`,
    () => `POST /v1/components HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nTransfer-Encoding: identity\r\nContent-Length: 2\r\n\r\n{}`,
    () => `POST /v1/components HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2;${"e".repeat(20_000)}\r\n{}\r\n0\r\n\r\n`,
    () => `POST /v1/components HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: ${json.length}\r\nConnection: close\r\n\r\n${json}`,
    () => `POST /v1/components HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: ${json.length}\r\nConnection: close\r\n\r\n${json}`,
    () => `GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\nConnection: close\r\n\r\n`,
    () => `GET /v1/users/me HTTP/1.1\r\nHost: x\r\n${auth}Connection: Upgrade\r\nUpgrade: websocket\r\n\r\n`,
    () => "CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n",
    () => "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
    () => "\u0016\u0003\u0001\u0000\u00a5\u0001\u0000\u0000\u00a1\u0003\u0003", // a TLS ClientHello's start
    () => "\r\n\r\n",
    () => "GET",
    () => "\u0000".repeat(100),
    () => `${"G".repeat(100)} / HTTP/1.1\r\n\r\n`,
    () => `HEAD /v1/users/me HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`,
    () => "HEAD /nope HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    () => "HEAD /v1/users/me HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    () => `HEAD /v1/sources/${"z".repeat(300)} HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n`,
    () => "HEAD /v1/sources/%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    () => "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /nope HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", // pipelined
  ])();
  // After an incomplete request the client hangs up its side, else the server would wait for the
  // rest (and rightly so). Not after complete ones: Node ends a connection whose client half-closed
  // without answering a request still being handled, and that is not what's tested here.
  const incomplete = (!raw.includes("\r\n\r\n") && !raw.includes("\n\n")) || raw.trim() === "" || raw.includes("Content-Length: 2000000");
  const head = raw.startsWith("HEAD ");
  const headEnd = raw.indexOf("\r\n\r\n");
  const pipelined = headEnd >= 0 && raw.indexOf(" HTTP/1.1", headEnd) > 0;
  return {
    label: `raw ${raw.slice(0, 24).replace(/[^\x20-\x7e]/g, "?")}`,
    method: raw.split(" ")[0],
    target: "",
    headers: [],
    raw: Buffer.from(raw, "latin1"),
    head,
    endAfterWrite: incomplete,
    pipelined,
  };
}

/** Changes one thing about an ordinary request: method, one header, the framing. */
export function mutate(ctx: Ctx, c: Case): Case {
  const { rng } = ctx;
  const m: Case = { ...c, headers: [...c.headers], label: c.label };
  const kind = rng.pick(["method", "content-type", "content-length", "header", "duplicate", "huge-header", "unicode-header", "expect", "version"]);
  const setHeader = (name: string, value: string) => {
    m.headers = m.headers.filter(([n]) => n.toLowerCase() !== name.toLowerCase());
    m.headers.push([name, value]);
  };
  switch (kind) {
    case "method":
      m.method = rng.chance(0.7) ? rng.pick(METHODS) : rng.pick(ODD_METHODS);
      m.head = m.method === "HEAD";
      break;
    case "content-type":
      setHeader("Content-Type", rng.pick(CONTENT_TYPES));
      break;
    case "content-length": {
      const n = m.body?.length ?? 0;
      const v = rng.pick([String(n + 1), String(Math.max(0, n - 1)), "0", "abc", "-1", `${n}, ${n}`, ` ${n}`, `+${n}`, "1e3"]);
      setHeader("Content-Length", v);
      // a length longer than the body makes the server wait for the rest: hang up instead
      m.endAfterWrite = v === String(n + 1);
      break;
    }
    case "header":
      m.headers.push([rng.pick(["X-Fuzz", "Accept", "Accept-Encoding", "Range", "If-None-Match", "Cookie", "X-Forwarded-For", "Origin", "Referer", "User-Agent"]), utf8AsLatin1(toWellFormed(nastyString(rng))).replace(/[\r\n]/g, "")]);
      break;
    case "duplicate": {
      const h = m.headers.find(([n]) => /^(content-type|authorization)$/i.test(n));
      if (h) m.headers.push([h[0], rng.chance(0.5) ? h[1] : "text/plain"]);
      break;
    }
    case "huge-header":
      m.headers.push(["X-Huge", "h".repeat(rng.pick([8000, 17_000, 60_000]))]);
      break;
    case "unicode-header":
      m.headers.push([rng.pick(["X-\u00e9", "X Space", "X-Tab\t", "X-Colon:"]), "v"]);
      break;
    case "expect":
      setHeader("Expect", rng.pick(["100-continue", "200-ok", ""]));
      break;
    case "version":
      m.version = rng.pick(["HTTP/1.0", "HTTP/1.2", "HTTP/2", "HTTP/0.9", "http/1.1", "HTTP/1.1x"]);
      break;
  }
  m.label = `${c.label} +${kind}`;
  return m;
}
