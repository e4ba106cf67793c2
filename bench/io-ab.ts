import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import autocannon from "autocannon";
import { startService, type Running } from "./processes.ts";
import { Api, int, table, treeCpuSeconds, type Check } from "./util.ts";
import { API_DELAY_MS, IO_STEPS, ioSteps, startSlowApi, type SlowApi } from "./workflows-io.ts";

// `npm run bench -- --only=io-ab --against=REF [--rounds=4] [--seconds=5]`: the workflows bench's
// I/O variant (3 steps each awaiting a local API that answers after 20 ms, 50 connections) on
// this checkout and on the commit REF, side by side in the same run. On a shared 2-core machine
// two runs of the same code differ by ±20% from minute to minute, and a process can be a few per
// cent faster or slower than its twin for its whole life: so each round starts both services
// fresh, and loads them in turn (ABBA), twice each. What it prints is the ratio of this checkout
// to REF per load pair and its median, which survive the machine's drift where one-off figures
// don't. A tool for changes on the runs' path, with no targets. REF is checked out as a git
// worktree in a temp folder with this checkout's node_modules (hard links): a REF whose
// dependencies differ needs its own `npm install` there.

const REPO = resolve(import.meta.dirname, "..");
const CONNECTIONS = 50;
const WARM_SECONDS = 3;

interface Side {
  label: string;
  root: string;
  service: Running;
  endpoint: URL;
}

interface Load {
  runsPerSecond: number;
  cpuMsPerRun: number;
  p50: number;
}

/** REF as a worktree of its own, with this checkout's packages hard-linked (copied where links can't be made) */
function checkout(ref: string): { root: string; remove: () => void } {
  const root = mkdtempSync(join(tmpdir(), "tributary-ab-"));
  execFileSync("git", ["-C", REPO, "worktree", "add", "--detach", "--force", root, ref], { stdio: "ignore" });
  const modules = join(REPO, "node_modules");
  mkdirSync(join(root, "node_modules"), { recursive: true });
  // not .cache: the runner's bundles are built per checkout, and the worktree may live under it
  for (const entry of readdirSync(modules).filter((e) => e !== ".cache")) {
    const from = join(modules, entry);
    const to = join(root, "node_modules", entry);
    try {
      execFileSync("cp", ["-al", from, to], { stdio: "ignore" });
    } catch {
      execFileSync("cp", ["-a", from, to]);
    }
  }
  return {
    root,
    remove: () => {
      execFileSync("git", ["-C", REPO, "worktree", "remove", "--force", root], { stdio: "ignore" });
      rmSync(root, { recursive: true, force: true });
    },
  };
}

async function startSide(label: string, root: string, api: SlowApi): Promise<Side> {
  const adminKey = `bench-ab-${Date.now()}`;
  const service = await startService(adminKey, { TRIBUTARY_FETCH_ALLOW: `127.0.0.1:${api.port}` }, root);
  const created = await new Api(service.url, adminKey).call<{ data: { trigger: { endpoint_url: string } } }>("POST", "/v1/workflows", {
    name: "bench-io-ab",
    trigger: { type: "http", custom_response: true },
    steps: ioSteps(api.url),
  });
  return { label, root, service, endpoint: new URL(created.data.trigger.endpoint_url) };
}

async function load(side: Side, seconds: number): Promise<Load> {
  let good = 0;
  const cpu0 = treeCpuSeconds(side.service.child.pid!);
  const r = await autocannon({
    url: side.endpoint.origin,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [{ method: "POST", path: side.endpoint.pathname, headers: { "content-type": "application/json" }, body: '{"n":7}', onResponse: (status: number) => void (status === 200 && good++) }],
  });
  const cpu = treeCpuSeconds(side.service.child.pid!) - cpu0;
  return { runsPerSecond: good / r.duration, cpuMsPerRun: (cpu * 1000) / Math.max(1, good), p50: r.latency.p50 };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

export async function benchIoAb(against: string | undefined, rounds: number, seconds: number): Promise<void> {
  // a comparison with nothing to compare to (a plain `npm run bench` runs every bench)
  if (!against) return void console.log("\n## io-ab: SKIPPED (give --against=REF: the commit, branch or tag to compare this checkout with)");
  const sha = execFileSync("git", ["-C", REPO, "rev-parse", "--short", `${against}^{commit}`], { encoding: "utf8" }).trim();
  const ref = checkout(sha);
  const api = await startSlowApi(API_DELAY_MS);
  const loads: Load[][] = [[], []];
  try {
    for (let round = 0; round < rounds; round++) {
      process.stderr.write(`  (round ${round + 1} of ${rounds})\n`);
      const sides = [await startSide(`${against} (${sha})`, ref.root, api), await startSide("this checkout", REPO, api)];
      try {
        // A B B A, then B A A B: neither goes first every time
        const order = round % 2 === 0 ? [0, 1, 1, 0] : [1, 0, 0, 1];
        for (const k of [0, 1]) await load(sides[k]!, WARM_SECONDS);
        for (const k of order) loads[k]!.push(await load(sides[k]!, seconds));
      } finally {
        await Promise.all(sides.map((s) => s.service.stop()));
      }
    }
  } finally {
    await api.stop();
    ref.remove();
  }
  const [theirs, ours] = loads as [Load[], Load[]];
  const ratios = ours.map((o, i) => o.runsPerSecond / theirs[i]!.runsPerSecond);
  const row = (label: string, l: Load[]): Check[] => [
    { metric: `${label}: completed runs/s, median (each load)`, value: `${int(median(l.map((x) => x.runsPerSecond)))} (${l.map((x) => int(x.runsPerSecond)).join(" / ")})` },
    { metric: `${label}: CPU ms per run (service and runners), median`, value: median(l.map((x) => x.cpuMsPerRun)).toFixed(3) },
    { metric: `${label}: p50 latency, median`, value: `${median(l.map((x) => x.p50))} ms` },
  ];
  table(`I/O runs A/B: this checkout against ${against} (${IO_STEPS} steps each awaiting a ${API_DELAY_MS} ms API, ${CONNECTIONS} conn, ${rounds} rounds of 2 x ${seconds} s each)`, [
    ...row(`${against} (${sha})`, theirs),
    ...row("this checkout", ours),
    { metric: "this checkout : REF, runs/s, median of the loads' ratios", value: `${median(ratios).toFixed(3)} (${ratios.map((r) => r.toFixed(2)).join(" / ")})` },
  ]);
}
