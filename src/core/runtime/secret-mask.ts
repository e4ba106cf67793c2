import type { InvocationError, InvokeResult, LogLine } from "../../runtime/protocol.ts";

// What a run shows people (its logs, errors, summary, $logs and $errors, and its values as the
// run API shows them) has the secrets it used replaced with `[redacted:NAME]`
// (docs/security.md, "Secrets in what a run shows"): secret env vars, secret props and connected
// accounts' auth. Each value is looked for as written and in the forms code commonly turns it
// into before printing it: JSON-escaped, URL-encoded and base64. All of a run's forms go into one
// alternation, so a text is searched once however many secrets there are; a run with none has
// no mask at all and costs nothing.

/** A secret a run used, with the name its redaction shows. */
export interface NamedSecret {
  name: string;
  value: string;
}

/**
 * Values shorter than this are not masked: a short value (`true`, `admin`, a port) also occurs as
 * an ordinary word or number, and masking every occurrence would garble logs while hiding little.
 */
export const MIN_SECRET_LENGTH = 6;

/** masks kept, keyed by their secrets (a user's env and a workflow's props change rarely) */
const MAX_MASKS = 1000;

export class SecretMask {
  readonly #search: RegExp;
  /** each form looked for -> its redaction */
  readonly #redactions: Map<string, string>;

  constructor(redactions: Map<string, string>) {
    this.#redactions = redactions;
    // the longest form first: where two start at the same place, the whole of the longer goes
    const forms = [...redactions.keys()].sort((a, b) => b.length - a.length);
    this.#search = new RegExp(forms.map(escapeRegExp).join("|"), "g");
  }

  /** `text` with every secret form in it replaced */
  text(text: string): string {
    return text.replace(this.#search, (form) => this.#redactions.get(form)!);
  }

  /**
   * JSON text with the secrets in its values replaced (still the JSON of the same shape); the
   * same text when it holds none. Replaced in the parsed value's strings, not in the text, so a
   * value that straddles JSON's syntax can't break it.
   */
  json(json: string): string {
    if (!this.#hits(json)) return json;
    return JSON.stringify(this.#value(JSON.parse(json)));
  }

  /**
   * What of an invocation's result people read (logs, errors, the steps' summaries) with the
   * secrets replaced. Return values, exports, emits and the db are left as they are: the steps
   * after read them (the run API masks the values it shows: runs.ts).
   */
  result(r: InvokeResult): InvokeResult {
    const out: InvokeResult = { ...r, logs: r.logs.map((l) => this.#line(l)), emitErrors: r.emitErrors.map((e) => this.#error(e)) };
    if (r.error) out.error = this.#error(r.error);
    if (r.steps) out.steps = r.steps.map((s) => (s.summary === undefined ? s : { ...s, summary: this.text(s.summary) }));
    return out;
  }

  #hits(text: string): boolean {
    this.#search.lastIndex = 0;
    return this.#search.test(text);
  }

  #line(l: LogLine): LogLine {
    const msg = this.text(l.msg);
    return msg === l.msg ? l : { ...l, msg };
  }

  #error(e: InvocationError): InvocationError {
    return { ...e, name: this.text(e.name), message: this.text(e.message), stack: this.text(e.stack) };
  }

  #value(v: unknown): unknown {
    if (typeof v === "string") return this.text(v);
    if (Array.isArray(v)) return v.map((x) => this.#value(x));
    if (v === null || typeof v !== "object") return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[this.text(k)] = this.#value(x);
    return out;
  }
}

/** The masks of the secret sets runs used, built once per set (a run with no secrets gets none). */
export class SecretMasks {
  readonly #masks = new Map<string, SecretMask>();

  /** the mask of these secrets, or undefined when none is long enough to be masked */
  of(...lists: ReadonlyArray<readonly NamedSecret[]>): SecretMask | undefined {
    let key = "";
    for (const list of lists) for (const s of list) if (s.value.length >= MIN_SECRET_LENGTH) key += `${s.name}\0${s.value}\0`;
    if (key === "") return undefined;
    let mask = this.#masks.get(key);
    if (!mask) {
      mask = new SecretMask(redactionsOf(lists.flat()));
      if (this.#masks.size >= MAX_MASKS) this.#masks.delete(this.#masks.keys().next().value!);
      this.#masks.set(key, mask);
    }
    return mask;
  }
}

/** every form of every secret long enough -> `[redacted:NAME]` (the first name given wins) */
function redactionsOf(secrets: readonly NamedSecret[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const { name, value } of secrets) {
    if (value.length < MIN_SECRET_LENGTH) continue;
    const redaction = `[redacted:${name}]`;
    // each line of a multi-line value (a PEM key) too: a log line may hold one of them
    const raws = value.includes("\n") ? [value, ...value.split(/\r?\n/).filter((l) => l.trim().length >= MIN_SECRET_LENGTH)] : [value];
    for (const raw of raws) for (const form of formsOf(raw)) if (form.length >= MIN_SECRET_LENGTH && !out.has(form)) out.set(form, redaction);
  }
  return out;
}

/** how a value commonly appears once code has printed it */
export function formsOf(value: string): string[] {
  const escaped = JSON.stringify(value).slice(1, -1);
  const forms = [value, escaped, JSON.stringify(escaped).slice(1, -1), encodeURIComponent(value), new URLSearchParams({ v: value }).toString().slice(2)];
  const bytes = Buffer.from(value, "utf8");
  forms.push(bytes.toString("base64"), bytes.toString("base64url"));
  // inside a longer base64 text (`user:token` in a Basic header) the value starts 0, 1 or 2
  // bytes into a 3-byte group: the characters only its own bytes decide, for each
  for (let shift = 0; shift < 3; shift++) {
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString("base64");
    const from = Math.ceil((shift * 8) / 6);
    const to = Math.floor(((shift + bytes.length) * 8) / 6);
    const core = encoded.slice(from, to);
    forms.push(core, core.replaceAll("+", "-").replaceAll("/", "_"));
  }
  return [...new Set(forms)];
}

function escapeRegExp(s: string): string {
  return s.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");
}
