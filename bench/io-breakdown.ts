import { readdirSync, readFileSync } from "node:fs";
import autocannon from "autocannon";
import { startService } from "./processes.ts";
import { Api, int, processTree, table, type Check } from "./util.ts";
import { API_DELAY_MS, IO_STEPS, ioSteps, startSlowApi } from "./workflows-io.ts";

// Where an I/O-bound run's time and CPU go (`npm run bench -- --only=io-breakdown`): the workflows
// bench's I/O variant (3 steps each awaiting a local API that answers after 20 ms) under a closed
// loop of --connections (50), and then
// - CPU ms per completed run of each process of the service's tree and of their busiest threads
//   (/proc, Linux only): the service, each runner, and this process (the load and the API);
// - where a run's wall time goes, from the newest runs' own records: from the run's start to its
//   first step, each step beyond the API's 20 ms (the runner fetching, entering the isolate, the
//   API's own lateness), the gaps between steps (the reply, the commit, the next step's dispatch),
//   and from the last step to the run's end.
// A diagnostic with no targets: the workflows bench holds the I/O targets.

interface RunRecord {
  status: string;
  started_at_ms: number;
  ended_at_ms: number | null;
  steps: Array<{ started_at_ms: number | null; ended_at_ms: number | null }>;
}

/** user+system CPU seconds of each thread of `pid`, by "name (tid)" */
function threadSeconds(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const raw = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      const name = raw.slice(raw.indexOf("(") + 1, raw.lastIndexOf(")"));
      const fields = raw.slice(raw.lastIndexOf(")") + 2).split(" ");
      out.set(`${name} (${tid})`, (Number(fields[11]) + Number(fields[12])) / 100);
    }
  } catch {
    // gone meanwhile, or no /proc
  }
  return out;
}

/** what a process of the service's tree is: the service, a runner (forked with --allow-addons), or its program's name */
function labelOf(pid: number, service: number): string {
  if (pid === service) return "service";
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    if (args.includes("--allow-addons")) return `runner ${pid}`;
    return `${(args[0] ?? "").split("/").pop()} ${pid}`;
  } catch {
    return `process ${pid}`;
  }
}

const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)] ?? NaN;
const p90 = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length * 0.9)] ?? NaN;

export async function benchIoBreakdown(seconds: number, connections: number): Promise<void> {
  const adminKey = "bench-breakdown-" + Date.now();
  const ioApi = await startSlowApi(API_DELAY_MS);
  const service = await startService(adminKey, { TRIBUTARY_FETCH_ALLOW: `127.0.0.1:${ioApi.port}` });
  try {
    const api = new Api(service.url, adminKey);
    const w = (
      await api.call<{ data: { id: string; trigger: { endpoint_url: string } } }>("POST", "/v1/workflows", {
        name: "bench-io-breakdown",
        trigger: { type: "http", custom_response: true },
        steps: ioSteps(ioApi.url),
      })
    ).data;
    const endpoint = new URL(w.trigger.endpoint_url);
    const load = async (secs: number) => {
      let good = 0;
      const r = await autocannon({
        url: endpoint.origin,
        connections,
        duration: secs,
        requests: [{ method: "POST", path: endpoint.pathname, headers: { "content-type": "application/json" }, body: '{"n":7}', onResponse: (status: number) => void (status === 200 && good++) }],
      });
      return { good, seconds: r.duration, p50: r.latency.p50 };
    };
    await load(3); // warm: runners started, contexts made, code optimized
    const pids = processTree(service.child.pid!);
    const before = new Map(pids.map((p) => [p, threadSeconds(p)]));
    const self0 = process.cpuUsage();
    const measured = await load(seconds);
    const self = process.cpuUsage(self0);
    const perRun = (cpuSeconds: number) => `${((cpuSeconds * 1000) / Math.max(1, measured.good)).toFixed(3)} ms`;
    const rows: Check[] = [
      { metric: `completed runs/s (${connections} conn, ${seconds} s)`, value: `${int(measured.good / measured.seconds)}; p50 ${measured.p50} ms (the API alone: ${IO_STEPS * API_DELAY_MS} ms)` },
    ];
    const labels = new Map(pids.map((pid) => [pid, labelOf(pid, service.child.pid!)]));
    pids.forEach((pid) => {
      const after = threadSeconds(pid);
      const was = before.get(pid) ?? new Map<string, number>();
      const threads = [...after].map(([name, s]) => [name, s - (was.get(name) ?? 0)] as const).filter(([, s]) => s > 0);
      const total = threads.reduce((n, [, s]) => n + s, 0);
      const busiest = threads.sort((a, b) => b[1] - a[1]).slice(0, 3).map(([name, s]) => `${name.replace(/ \(\d+\)$/, "")} ${perRun(s)}`);
      rows.push({ metric: `CPU per run: ${labels.get(pid)}`, value: `${perRun(total)}${busiest.length > 0 ? ` (${busiest.join(", ")})` : ""}` });
    });
    rows.push({ metric: "CPU per run: this process (load generator and the API)", value: perRun((self.user + self.system) / 1e6) });

    // where a run's time goes, from the newest succeeded runs' own records
    const list = await api.call<{ data: Array<{ id: string }> }>("GET", `/v1/workflows/${w.id}/runs?status=succeeded&limit=100`);
    const parts = new Map<string, number[]>();
    const add = (what: string, ms: number) => parts.set(what, [...(parts.get(what) ?? []), ms]);
    for (const { id } of list.data) {
      const run = (await api.call<{ data: RunRecord }>("GET", `/v1/runs/${id}`)).data;
      const steps = run.steps;
      if (run.ended_at_ms === null || steps.some((s) => s.started_at_ms === null || s.ended_at_ms === null)) continue;
      add("run start -> first step", steps[0]!.started_at_ms! - run.started_at_ms);
      steps.forEach((s, i) => {
        add(`step ${i + 1} beyond the API's ${API_DELAY_MS} ms`, s.ended_at_ms! - s.started_at_ms! - API_DELAY_MS);
        if (i > 0) add(`gap step ${i} -> step ${i + 1}`, s.started_at_ms! - steps[i - 1]!.ended_at_ms!);
      });
      add("last step -> run end", run.ended_at_ms - steps[steps.length - 1]!.ended_at_ms!);
      add("whole run", run.ended_at_ms - run.started_at_ms);
    }
    for (const [what, ms] of parts) rows.push({ metric: `wall: ${what}`, value: `median ${median(ms)} ms, p90 ${p90(ms)} ms (${ms.length} runs)` });
    table("Where an I/O-bound run's time and CPU go (3 steps, each awaiting a 20 ms API)", rows);
  } finally {
    await service.stop();
    await ioApi.stop();
  }
}
