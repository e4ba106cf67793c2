import type { RawResult } from "./raw-http.ts";
import type { Case } from "./wire.ts";

// What counts as a finding: any 5xx; any 4xx/5xx whose body is not exactly the envelope
// {"error": {"code", "message", "details"?}} as JSON with Content-Type application/json;
// charset=utf-8; a reply to HEAD with a body; bytes past the end of a reply; a reply that isn't
// HTTP; no reply in time. A connection closed without a reply is counted, not a finding (CONNECT
// to nowhere, an HTTP/2 preface, a connection past the cap: there is nobody to answer).

export type Kind = "5xx" | "non-envelope" | "head-body" | "extra-bytes" | "malformed-reply" | "timeout";

export interface Verdict {
  /** "200", "404", ... or "closed"/"reset"/"timeout"/"malformed" */
  status: string;
  kinds: Kind[];
  /** why the body is not the envelope */
  why?: string;
}

const CODE = /^[a-z][a-z0-9_]*$/;

/** Why `text` is not exactly the envelope, or undefined when it is. */
export function envelopeProblem(text: string, contentType: string | undefined): string | undefined {
  if (!/^application\/json; charset=utf-8$/i.test(contentType ?? "")) return `content-type is ${JSON.stringify(contentType ?? null)}`;
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    return "body is not JSON";
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) return "body is not an object";
  const top = Object.keys(body);
  if (top.length !== 1 || top[0] !== "error") return `top-level keys are ${JSON.stringify(top)}`;
  const e = body.error;
  if (typeof e !== "object" || e === null || Array.isArray(e)) return "error is not an object";
  const extra = Object.keys(e).filter((k) => !["code", "message", "details"].includes(k));
  if (extra.length) return `error has keys ${JSON.stringify(extra)}`;
  if (typeof e.code !== "string" || !CODE.test(e.code)) return "error.code is not a snake_case string";
  if (typeof e.message !== "string" || e.message === "") return "error.message is not a string";
  if (e.details !== undefined) {
    if (!Array.isArray(e.details) || e.details.length === 0) return "error.details is not a non-empty array";
    if (e.details.length > 21) return `error.details has ${e.details.length} entries`;
    for (const d of e.details) {
      if (typeof d !== "object" || d === null || typeof d.field !== "string" || typeof d.message !== "string" || Object.keys(d).length !== 2) {
        return "a details entry is not {field, message}";
      }
    }
  }
  return undefined;
}

export function judge(c: Case, r: RawResult): Verdict {
  if (!r.reply) {
    const status = r.failure ?? "closed";
    if (status === "timeout") return { status, kinds: ["timeout"] };
    if (status === "malformed") return { status, kinds: ["malformed-reply"] };
    return { status, kinds: [] };
  }
  const { reply } = r;
  const kinds: Kind[] = [];
  let why: string | undefined;
  if (reply.status >= 500) kinds.push("5xx");
  if (c.head) {
    if (reply.body.length > 0 || reply.extra.length > 0) kinds.push("head-body");
  } else {
    if (reply.extra.length > 0 && !c.pipelined) kinds.push("extra-bytes");
    if (reply.status >= 400) {
      why = envelopeProblem(reply.body.toString("utf8"), reply.headers["content-type"]);
      if (why) kinds.push("non-envelope");
    }
  }
  return { status: String(reply.status), kinds, why };
}
