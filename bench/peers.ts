import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSink, MAIN_CONNECTIONS, paddedBody } from "./ingest.ts";
import { load, type LoadResult } from "./load.ts";
import { freePort, startBare, startService, type Running } from "./processes.ts";
import { Api, int, table, waitForCount, type Check } from "./util.ts";

// Peers (issue): Node-RED's http-in -> http-response flow beside ours, under the same load
// generator (autocannon, 50 connections, 200 B JSON POSTs, --seconds each), with bare node:http
// in the same run. Node-RED is installed from the npm registry into a temp folder the first time
// (`npm install --prefix <tmp>/tributary-bench-node-red node-red@4`) and reused after; none of its
// code is in this repository. Its flow stores nothing: it parses the body and answers it back.
// Ours is durable ingest: each 200 means the request is in the store, and its run's event is
// stored after (events stored / load time is printed too). Targets: ours >= 0.3x bare node:http
// and >= 1.5x Node-RED's http-in. Without the registry (no network) the bench says so and skips.

const NODE_RED_DIR = join(tmpdir(), "tributary-bench-node-red");
const RED = join(NODE_RED_DIR, "node_modules", "node-red", "red.js");

function installNodeRed(): string | undefined {
  if (existsSync(RED)) return undefined;
  mkdirSync(NODE_RED_DIR, { recursive: true });
  console.log(`  (installing node-red@4 into ${NODE_RED_DIR}, once)`);
  const r = spawnSync("npm", ["install", "--prefix", NODE_RED_DIR, "--no-audit", "--no-fund", "--omit=dev", "node-red@4"], {
    encoding: "utf8",
    timeout: 300_000,
  });
  if (r.status !== 0 || !existsSync(RED)) return `${r.error?.message ?? ""}${r.stderr ?? ""}`.trim().split("\n").slice(-5).join("\n") || `npm exited ${r.status}`;
  return undefined;
}

const FLOW = [
  { id: "bench_tab", type: "tab", label: "bench" },
  { id: "bench_in", type: "http in", z: "bench_tab", name: "", url: "/in", method: "post", upload: false, swaggerDoc: "", wires: [["bench_out"]] },
  { id: "bench_out", type: "http response", z: "bench_tab", name: "", statusCode: "200", headers: {}, wires: [] },
];

async function startNodeRed(): Promise<Running> {
  const port = await freePort();
  const userDir = mkdtempSync(join(tmpdir(), "tributary-bench-node-red-user-"));
  writeFileSync(join(userDir, "flows.json"), JSON.stringify(FLOW));
  // no editor or admin API (nothing to serve but the flow), warnings only
  writeFileSync(
    join(userDir, "settings.js"),
    `module.exports = { flowFile: "flows.json", httpAdminRoot: false, credentialSecret: false, logging: { console: { level: "warn" } } };\n`,
  );
  const child = spawn(process.execPath, [RED, "--port", String(port), "--userDir", userDir, "--settings", join(userDir, "settings.js")], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  const url = `http://127.0.0.1:${port}/in`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`node-red exited with ${child.exitCode}`);
    try {
      const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
      await res.text();
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error("node-red's flow did not answer within 60 s");
    await new Promise((r) => setTimeout(r, 200));
  }
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    }).finally(() => rmSync(userDir, { recursive: true, force: true }));
  return { url, child, stop };
}

export async function benchPeers(seconds: number): Promise<void> {
  const failed = installNodeRed();
  if (failed) {
    console.log(`\n## Peers: skipped, node-red could not be installed from the npm registry (no network?)\n\n${failed}`);
    return;
  }
  const body = paddedBody({ kind: "peers", source: "autocannon" }, 200);
  const headers = { "content-type": "application/json" };
  const post = (url: string) => load({ url, connections: MAIN_CONNECTIONS, seconds, method: "POST", headers, body });

  const bare = await startBare();
  let baseline: LoadResult;
  try {
    baseline = await post(bare.url);
  } finally {
    await bare.stop();
  }

  const red = await startNodeRed();
  let nodeRed: LoadResult;
  try {
    await load({ url: red.url, connections: MAIN_CONNECTIONS, seconds: 1, method: "POST", headers, body }); // warm-up
    nodeRed = await post(red.url);
  } finally {
    await red.stop();
  }

  const adminKey = "bench-admin-key-" + Date.now();
  const service = await startService(adminKey, { TRIBUTARY_EVENT_RETENTION: "1000000" });
  let ours: LoadResult;
  let stored: number;
  try {
    const api = new Api(service.url, adminKey);
    const sink = await createSink(api, "peers");
    for (let i = 0; i < 20; i++) await (await fetch(sink.endpoint, { method: "POST", headers, body })).text();
    await waitForCount(() => api.eventCount(sink.id), { expected: 20, quietMs: 5000, timeoutMs: 30_000 });
    ours = await post(sink.endpoint);
    stored = (await waitForCount(async () => (await api.eventCount(sink.id)) - 20, { expected: ours.ok, quietMs: 10_000, timeoutMs: 600_000 })).count;
  } finally {
    await service.stop();
  }

  const lost = Math.max(0, ours.ok - stored);
  const rows: Check[] = [
    { metric: `bare node:http POST 200 B (${MAIN_CONNECTIONS} conn)`, value: `${int(baseline.rps)} req/s, p99 ${baseline.p99} ms` },
    { metric: "Node-RED 4 http-in -> http-response (stores nothing)", value: `${int(nodeRed.rps)} req/s, p99 ${nodeRed.p99} ms` },
    { metric: "Node-RED errors, non-2xx", value: `${nodeRed.errors}, ${nodeRed.non2xx}` },
    { metric: "Tributary POST /http/{key} (durable: stored before 200)", value: `${int(ours.rps)} req/s, p99 ${ours.p99} ms` },
    { metric: "Tributary errors, non-2xx", value: `${ours.errors}, ${ours.non2xx}`, target: "0, 0", pass: ours.errors + ours.non2xx === 0 },
    { metric: "Tributary events stored / load time", value: `${int(stored / ours.durationS)} events/s` },
    { metric: "Tributary accepted but not stored (lost)", value: int(lost), target: "0", pass: lost === 0 },
    { metric: "Node-RED : bare req/s", value: (nodeRed.rps / baseline.rps).toFixed(2) },
    { metric: "Tributary : bare req/s", value: (ours.rps / baseline.rps).toFixed(2), target: ">= 0.3", pass: ours.rps / baseline.rps >= 0.3 },
    { metric: "Tributary : Node-RED req/s", value: (ours.rps / nodeRed.rps).toFixed(2), target: ">= 1.5", pass: ours.rps / nodeRed.rps >= 1.5 },
    { metric: "p99: Tributary : Node-RED", value: `${(ours.p99 / Math.max(1, nodeRed.p99)).toFixed(2)}x` },
  ];
  table(`Peers: the same ${MAIN_CONNECTIONS}-connection POST load on bare node:http, Node-RED's http-in flow (stores nothing) and Tributary's durable ingest (${seconds} s each)`, rows);
}
