import type { RawResult } from "./raw-http.ts";
import type { Kind, Verdict } from "./check.ts";
import { toBytes, type Case } from "./wire.ts";

// Counts by status, and every finding with what it takes to reproduce it: the request as sent
// (method, target, headers, the start of the body) and the start of the reply. Findings with the
// same kind, generator and status are grouped; each group shows its first few.

export interface Finding {
  index: number;
  kinds: Kind[];
  status: string;
  why?: string;
  c: Case;
  r: RawResult;
}

const SHOWN_PER_GROUP = 3;
const MAX_GROUPS = 200;

export class Report {
  readonly counts = new Map<string, number>();
  readonly findings: Finding[] = [];
  total = 0;

  add(index: number, c: Case, r: RawResult, v: Verdict): void {
    this.total++;
    this.counts.set(v.status, (this.counts.get(v.status) ?? 0) + 1);
    if (v.kinds.length) this.findings.push({ index, kinds: v.kinds, status: v.status, why: v.why, c, r });
  }

  count(kind: Kind): number {
    return this.findings.filter((f) => f.kinds.includes(kind)).length;
  }

  /** 5xx and non-envelope bodies (HEAD bodies, extra bytes, malformed replies and hangs included). */
  get failures(): number {
    return this.findings.length;
  }

  render(opts: { seed: number; ms: number; logFile?: string }): string {
    const lines: string[] = [];
    const statuses = [...this.counts.entries()].sort(([a], [b]) => a.localeCompare(b));
    lines.push(`fuzz: ${this.total} requests in ${(opts.ms / 1000).toFixed(1)} s (seed ${opts.seed})`);
    lines.push(`by status: ${statuses.map(([s, n]) => `${s}: ${n}`).join(", ")}`);
    const kinds: Kind[] = ["5xx", "non-envelope", "head-body", "extra-bytes", "malformed-reply", "timeout"];
    lines.push(`findings: ${this.findings.length} (${kinds.map((k) => `${k}: ${this.count(k)}`).join(", ")})`);
    const groups = new Map<string, Finding[]>();
    for (const f of this.findings) {
      const key = `${f.kinds.join("+")} | ${f.status} | ${f.c.label} | ${f.why ?? ""}`;
      const g = groups.get(key) ?? [];
      g.push(f);
      groups.set(key, g);
    }
    let shown = 0;
    for (const [key, list] of groups) {
      if (shown++ >= MAX_GROUPS) {
        lines.push(`... and ${groups.size - MAX_GROUPS} more groups`);
        break;
      }
      lines.push("", `== ${key} (${list.length})`);
      for (const f of list.slice(0, SHOWN_PER_GROUP)) lines.push(reproduction(f));
    }
    if (this.findings.length && opts.logFile) lines.push("", `the service's log (the errors behind 5xx): ${opts.logFile}`);
    return lines.join("\n");
  }
}

/** At most `n` characters of `s`, escaped so control characters and unicode show. */
function excerpt(s: string, n: number): string {
  const cut = s.length > n ? `${s.slice(0, n)}... (${s.length} chars)` : s;
  return JSON.stringify(cut);
}

export function reproduction(f: Finding): string {
  const { c, r } = f;
  const out: string[] = [`-- #${f.index}${f.why ? ` (${f.why})` : ""}`];
  if (c.raw) {
    out.push(`   raw request: ${excerpt(c.raw.toString("latin1"), 600)}`);
  } else {
    out.push(`   ${excerpt(c.method, 60)} ${excerpt(c.target, 400)} ${c.version ?? "HTTP/1.1"}`);
    for (const [n, v] of c.headers) out.push(`   ${excerpt(n, 60)}: ${excerpt(v, 200)}`);
    if (c.body) out.push(`   body (${c.body.length} bytes): ${excerpt(c.body.toString("utf8"), 400)}`);
    out.push(`   as bytes (base64, first 2 KB): ${toBytes(c).subarray(0, 2048).toString("base64")}`);
  }
  if (c.endAfterWrite) out.push("   (the client half-closed after writing)");
  out.push(`   reply: ${excerpt(r.received.toString("latin1"), 600)}`);
  return out.join("\n");
}
