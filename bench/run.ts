import { benchApi } from "./api.ts";
import { benchCliDev } from "./cli-dev.ts";
import { benchCluster } from "./cluster.ts";
import { benchDeliveries } from "./deliveries.ts";
import { benchEnv } from "./env.ts";
import { benchIngest } from "./ingest.ts";
import { benchIoAb } from "./io-ab.ts";
import { benchIoBreakdown } from "./io-breakdown.ts";
import { benchOverload } from "./overload.ts";
import { benchPackages } from "./packages.ts";
import { benchPeers } from "./peers.ts";
import { benchReads } from "./reads.ts";
import { benchSockets } from "./sockets.ts";
import { benchOAuth } from "./oauth.ts";
import { benchSse } from "./sse.ts";
import { benchTimers } from "./timers.ts";
import { benchWorkflows } from "./workflows.ts";

// `npm run bench [-- --seconds=N] [-- --only=api,ingest,sse,timers,deliveries,packages,cli-dev,reads,overload,fanout,peers,workflows,io-breakdown,io-ab,sockets,oauth,env]`:
// every figure beside a bare node:http server measured in the same run, so the ratios survive a noisy machine. Each bench
// starts its own service (fresh data dir) and stops it. Without --seconds the API, ingest and
// live-latency benches load for 10 s each, the timers bench measures a 30 s window, the
// subscription-delivery bench loads for 20 s and the packages bench loads each component for 10 s.
// Flags: timers `--sources=N --interval=S` (1,000 sources, 1 s); fanout `--listeners=N --rate=R
// --latency-rate=L` (100 listeners; 150 events/s for capacity, 50 for latency); reads loads each
// stream for 10 s, overload offers twice the measured capacity for 30 s (`--rate=R`: R requests/s
// instead), peers loads each server for 10 s, workflows loads Tributary and Restate for 10 s per
// load in 3 interleaved rounds (Restate installed from npm into a temp folder, or SKIPPED;
// `--restate-fsync=off`: Restate without its log's fsync, as ours commits).
// BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR" (or --trace-gc, ...) starts the service process with
// those Node flags, and shows its stdout.
const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
const given = arg("seconds");
const seconds = (fallback: number) => (given ? Number(given) : fallback);
if (given && !(Number(given) > 0)) throw new Error(`--seconds must be a positive number, got "${given}"`);
const num = (name: string, fallback: number) => (arg(name) === undefined ? fallback : Number(arg(name)));

const benches: Record<string, () => Promise<void>> = {
  api: () => benchApi(seconds(10)),
  ingest: () => benchIngest(seconds(10)),
  sse: () => benchSse(seconds(10)),
  timers: () => benchTimers(seconds(30), { sources: num("sources", 1000), interval: num("interval", 1) }),
  deliveries: () => benchDeliveries(seconds(20)),
  // capacity: more offered than the target, so deliveries/s measures what the service sustains;
  // latency: a rate within that capacity, where the p99 target applies
  fanout: async () => {
    const listeners = num("listeners", 100);
    const common = { listeners, drainMs: 60_000 };
    await benchDeliveries(seconds(20), { ...common, rate: num("rate", 150), title: "Fan-out capacity", minDeliveriesPerSecond: 10_000, p99TargetMs: null });
    await benchDeliveries(seconds(20), { ...common, rate: num("latency-rate", 50), title: "Fan-out latency (within capacity)", p99TargetMs: 20 });
  },
  reads: () => benchReads(seconds(10)),
  overload: () => benchOverload(seconds(30), arg("rate") === undefined ? undefined : num("rate", 0)),
  peers: () => benchPeers(seconds(10)),
  // --suspended=N runs in $.flow.delay (default 100,000; 0 skips that part), --delay=S seconds
  workflows: () => benchWorkflows(seconds(10), { restateFsync: arg("restate-fsync"), suspended: num("suspended", 100_000), delaySeconds: num("delay", 90) }),
  // where an I/O-bound workflow run's CPU and wall time go; --connections=N (default 50)
  "io-breakdown": () => benchIoBreakdown(seconds(10), num("connections", 50)),
  // this checkout against --against=REF, --rounds=N rounds of fresh services (io-ab.ts)
  "io-ab": () => benchIoAb(arg("against"), num("rounds", 4), seconds(5)),
  packages: () => benchPackages(seconds(10)),
  // five saves under `tributary dev`; not a load test, so --seconds doesn't apply
  "cli-dev": () => benchCliDev(),
  // a TCP round trip through the runner's sockets vs a direct one; a fixed number of trips, so --seconds doesn't apply
  sockets: () => benchSockets(),
  // requests whose invocation refreshes an OAuth token vs the others; a fixed number of requests
  oauth: () => benchOAuth(),
  // one user at the env vars limit floods run-now while another's requests are timed; --seconds per phase (4 phases)
  env: () => benchEnv(seconds(10)),
  // several nodes on PostgreSQL + Redis (skipped when they aren't reachable); --nodes=N (default 3)
  cluster: () => benchCluster(seconds(10), Number(arg("nodes") ?? 3)),
};
const only = (arg("only") ?? Object.keys(benches).join(",")).split(",").filter(Boolean);
const unknown = only.filter((n) => !(n in benches));
if (unknown.length) throw new Error(`unknown bench ${unknown.join(", ")}; choose from ${Object.keys(benches).join(", ")}`);

let failed = 0;
for (const name of only) {
  try {
    await benches[name]();
  } catch (err) {
    failed++;
    console.error(`\n## ${name}: FAILED\n${(err as Error).stack ?? err}`);
  }
}
process.exitCode = failed ? 1 : 0;
