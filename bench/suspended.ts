import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { startService } from "./processes.ts";
import { Api, int, mib, pct, treeRss } from "./util.ts";

// Many runs suspended in $.flow.delay at once on one node (workflows §3 target: 100,000 with the
// service's RSS under 1 GiB, resumed with p99 under 250 ms late). A workflow with an HTTP trigger
// whose first step asks for a delay of `delayMs` and returns the time it asked to be resumed at,
// and whose second step returns when it started. `count` requests go to its endpoint (50 at a
// time); once every run is suspended the service's RSS (with its runners) is read; once every run
// has succeeded the service stops and the steps' rows are read from its SQLite file: lateness =
// second step's start - the asked resume time. The delay is long enough for all runs to be
// suspended together before the first comes due.

const SENDERS = 50;

export interface SuspendedResult {
  count: number;
  acceptMs: number;
  /** RSS of the service and its runners with every run suspended */
  rssBytes: number;
  late: { p50: number; p99: number; max: number };
  resumed: number;
}

export async function benchSuspended(count: number, delayMs: number): Promise<SuspendedResult> {
  const adminKey = "bench-suspended-admin-key";
  const service = await startService(adminKey);
  const api = new Api(service.url, adminKey);
  try {
    const w = (
      await api.call<{ data: { id: string; trigger: { endpoint_url: string } } }>("POST", "/v1/workflows", {
        name: "bench-suspended",
        trigger: { type: "http" },
        steps: [
          { name: "wait", code: `export default { async run({ $ }) { $.flow.delay(${delayMs}); return Date.now() + ${delayMs}; } }` },
          { name: "after", code: `export default { async run() { return Date.now(); } }` },
        ],
      })
    ).data;
    const started = performance.now();
    let next = 0;
    const send = async () => {
      while (next < count) {
        next++;
        const res = await fetch(w.trigger.endpoint_url, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`a request was answered ${res.status}`);
      }
    };
    await Promise.all(Array.from({ length: SENDERS }, send));
    const acceptMs = performance.now() - started;
    const total = (status: string) =>
      api.call<{ page_info: { total_count: number } }>("GET", `/v1/workflows/${w.id}/runs?status=${status}&limit=1`).then((p) => p.page_info.total_count);
    let rssBytes = 0;
    for (const deadline = Date.now() + delayMs; ; ) {
      const suspended = await total("suspended");
      rssBytes = Math.max(rssBytes, treeRss(service.child.pid!).bytes);
      if (suspended >= count) break;
      if (Date.now() > deadline) throw new Error(`only ${suspended} of ${count} runs were suspended before the first came due: make the delay longer`);
      await new Promise((r) => setTimeout(r, 500));
    }
    for (const deadline = Date.now() + delayMs + 600_000; ; ) {
      if ((await total("succeeded")) >= count) break;
      if (Date.now() > deadline) throw new Error("the runs did not all resume within 10 minutes of their delay");
      await new Promise((r) => setTimeout(r, 1000));
    }
    await service.stop();
    const db = new DatabaseSync(join(service.dataDir!, "tributary.db"), { readOnly: true });
    const rows = db
      .prepare(
        `select cast(a.return_value as integer) as due, b.started_at_ms as began
         from workflow_run_steps a join workflow_run_steps b on b.run_id = a.run_id and b.idx = 1
         where a.idx = 0 and b.status = 'succeeded'`,
      )
      .all() as Array<{ due: number; began: number }>;
    db.close();
    const late = rows.map((r) => Number(r.began) - Number(r.due)).sort((a, b) => a - b);
    return { count, acceptMs, rssBytes, late: { p50: pct(late, 50), p99: pct(late, 99), max: late[late.length - 1] ?? NaN }, resumed: rows.length };
  } finally {
    await service.stop();
  }
}

export function describeSuspended(r: SuspendedResult): string {
  return `${int(r.count)} suspended (accepted in ${(r.acceptMs / 1000).toFixed(1)} s), RSS ${mib(r.rssBytes)}; ${int(r.resumed)} resumed, late p50 ${int(r.late.p50)} ms, p99 ${int(r.late.p99)} ms, max ${int(r.late.max)} ms`;
}
