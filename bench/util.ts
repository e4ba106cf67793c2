import { readFileSync, readdirSync } from "node:fs";

// Small pieces shared by the runtime benches: a JSON client for the service's API, percentiles,
// the resident memory / CPU time of a process tree, and the PASS/MISS tables.

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class Api {
  readonly url: string;
  readonly key: string;
  constructor(url: string, key: string) {
    this.url = url;
    this.key = key;
  }

  async call<T = any>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.key}` };
    if (body !== undefined) headers["content-type"] = "application/json";
    const res = await fetch(`${this.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} failed: ${res.status} ${text.slice(0, 500)}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** the source's stored event count (page_info.total_count of its default stream) */
  async eventCount(sourceId: string): Promise<number> {
    const page = await this.call<{ page_info: { total_count: number } }>("GET", `/v1/sources/${sourceId}/event_summaries?limit=1`);
    return page.page_info.total_count;
  }

  /** every retained event of the source, newest first, following the `after` cursor (older) */
  async allEvents(sourceId: string, stopBeforeMs = 0): Promise<EventItem[]> {
    const out: EventItem[] = [];
    for (let after = ""; ; ) {
      const q = `limit=100&expand=event${after ? `&after=${after}` : ""}`;
      const page = await this.call<{ page_info: { end_cursor: string }; data: EventItem[] }>(
        "GET",
        `/v1/sources/${sourceId}/event_summaries?${q}`,
      );
      out.push(...page.data);
      const last = page.data[page.data.length - 1];
      if (page.data.length < 100 || !page.page_info.end_cursor || (last && last.indexed_at_ms < stopBeforeMs)) return out;
      after = page.page_info.end_cursor;
    }
  }

  /** a counter or gauge of GET /metrics (summed over its labels); NaN when it isn't there */
  async metric(name: string): Promise<number> {
    const res = await fetch(`${this.url}/metrics`);
    if (!res.ok) return NaN;
    const lines = (await res.text()).split("\n").filter((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
    return lines.length ? lines.reduce((n, l) => n + Number(l.slice(l.lastIndexOf(" ") + 1)), 0) : NaN;
  }

  async invocationsUsed(): Promise<number> {
    const me = await this.call<{ data: { daily_invocations_used: number } }>("GET", "/v1/users/me");
    return me.data.daily_invocations_used;
  }
}

export interface EventItem {
  id: string;
  indexed_at_ms: number;
  event: any;
  metadata: { emit_id: string; name: string; emitter_id: string; ts: number };
}

/**
 * Polls `count` until it reaches `expected` or stops growing for `quietMs`; returns the last
 * count and when it last grew (the drain end), so a slow tail is measured rather than cut off.
 */
export async function waitForCount(
  count: () => Promise<number>,
  opts: { expected?: number; quietMs?: number; timeoutMs?: number; everyMs?: number } = {},
): Promise<{ count: number; lastGrowthAt: number }> {
  const quietMs = opts.quietMs ?? 3000;
  const deadline = Date.now() + (opts.timeoutMs ?? 120_000);
  let last = -1;
  let lastGrowthAt = Date.now();
  for (;;) {
    const n = await count();
    if (n !== last) {
      last = n;
      lastGrowthAt = Date.now();
    }
    if (opts.expected !== undefined && n >= opts.expected) return { count: n, lastGrowthAt };
    if (Date.now() - lastGrowthAt >= quietMs || Date.now() > deadline) return { count: n, lastGrowthAt };
    await sleep(opts.everyMs ?? 250);
  }
}

/** nearest-rank percentile of an ascending-sorted array */
export function pct(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

export const ms = (n: number) => (Number.isFinite(n) ? `${n.toFixed(1)} ms` : "n/a");
export const int = (n: number) => Math.round(n).toLocaleString("en-US");

// ---- process tree: resident memory and CPU time, from /proc (Linux only) ----

function childrenOf(pid: number): number[] {
  const out: number[] = [];
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const text = readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8").trim();
      if (text) out.push(...text.split(/\s+/).map(Number));
    }
  } catch {
    // the process is gone, or /proc isn't there
  }
  return out;
}

/** the pid and all its descendants */
export function processTree(pid: number): number[] {
  const all = [pid];
  for (let i = 0; i < all.length; i++) all.push(...childrenOf(all[i]));
  return all;
}

function rssBytes(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** summed VmRSS of the process and its descendants (shared pages count once per process) */
export function treeRss(pid: number): { bytes: number; processes: number; each: number[] } {
  const each = processTree(pid).map(rssBytes);
  return { bytes: each.reduce((s, b) => s + b, 0), processes: each.length, each };
}

/** user+system CPU seconds used so far by the process and its live descendants */
export function treeCpuSeconds(pid: number): number {
  let ticks = 0;
  for (const p of processTree(pid)) {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15)
    } catch {
      // exited in between
    }
  }
  return ticks / 100; // USER_HZ is 100 on Linux
}

export const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

// ---- output ----

export interface Check {
  metric: string;
  value: string;
  target?: string;
  /** undefined: informational row, no verdict */
  pass?: boolean;
}

export function table(title: string, rows: Check[]): void {
  const w0 = Math.max(6, ...rows.map((r) => r.metric.length));
  const w1 = Math.max(5, ...rows.map((r) => r.value.length));
  const w2 = Math.max(6, ...rows.map((r) => (r.target ?? "").length));
  const line = (a: string, b: string, c: string, d: string) => `| ${a.padEnd(w0)} | ${b.padStart(w1)} | ${c.padEnd(w2)} | ${d.padEnd(4)} |`;
  console.log(`\n## ${title}\n`);
  console.log(line("metric", "value", "target", ""));
  console.log(`|${"-".repeat(w0 + 2)}|${"-".repeat(w1 + 2)}|${"-".repeat(w2 + 2)}|------|`);
  for (const r of rows) console.log(line(r.metric, r.value, r.target ?? "", r.pass === undefined ? "" : r.pass ? "PASS" : "MISS"));
}
