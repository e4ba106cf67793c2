import autocannon from "autocannon";

export interface LoadResult {
  /** 2xx answers per second (non-2xx are counted apart, not as throughput) */
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** responses with a 2xx status, and the load's real duration in seconds */
  ok: number;
  durationS: number;
}

export async function load(opts: {
  url: string;
  connections?: number;
  seconds?: number;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
}): Promise<LoadResult> {
  const r = await autocannon({
    url: opts.url,
    connections: opts.connections ?? 50,
    duration: opts.seconds ?? 10,
    method: opts.method ?? "GET",
    headers: opts.headers,
    body: opts.body,
  });
  return {
    // answers that did the work: a 429 is not throughput
    rps: r["2xx"] / r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    ok: r["2xx"],
    durationS: r.duration,
  };
}

export function row(name: string, r: LoadResult, bare?: LoadResult): string {
  const ratio = bare ? (r.rps / bare.rps).toFixed(2) : "1.00";
  return `${name.padEnd(38)} ${Math.round(r.rps).toString().padStart(8)} req/s  p50 ${String(r.p50).padStart(4)} ms  p99 ${String(r.p99).padStart(4)} ms  ratio ${ratio}  errors ${r.errors}  non-2xx ${r.non2xx}`;
}
