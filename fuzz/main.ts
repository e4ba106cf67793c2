import { remoteService, startService, type Target } from "./service.ts";
import { inFlight, runFuzz } from "./run.ts";
import { reproduction } from "./report.ts";

// `npm run fuzz [-- --requests=N --seed=S --concurrency=C --url=http://host:port --key=ADMIN_KEY]`
// Drives every operation of /v1/openapi.json, /http/* and the SSE route with malformed and boundary
// requests; prints counts by status and every 5xx or non-envelope error body with a reproduction;
// exits 1 if there is any. Without --url it starts the service itself on a temp data dir.

function args(argv: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const a of argv) {
    const m = /^--([a-z-]+)=(.*)$/.exec(a);
    if (!m) throw new Error(`unknown argument ${a} (use --requests=N --seed=S --concurrency=C --url=... --key=...)`);
    out[m[1]] = m[2];
  }
  return out;
}

function positiveInt(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a non-negative integer, got "${raw}"`);
  return n;
}

async function main(): Promise<number> {
  const a = args(process.argv.slice(2));
  const requests = positiveInt("requests", a.requests, 100_000);
  const seed = positiveInt("seed", a.seed, Date.now() % 1_000_000);
  const concurrency = positiveInt("concurrency", a.concurrency, 16);
  if (a.url && !a.key) throw new Error("--url needs --key=<an admin API key>");
  const target: Target = a.url ? remoteService(a.url, a.key) : await startService();
  process.stdout.write(`fuzzing ${a.url ?? `an in-process service on port ${target.port}`} with ${requests} requests, seed ${seed}\n`);

  // a service that dies under a request takes this process with it (in-process): say which ones
  process.on("uncaughtException", (err) => {
    process.stdout.write(`\nTHE PROCESS FAILED: ${err.stack ?? err}\nrequests in flight:\n`);
    for (const [index, c] of inFlight) process.stdout.write(reproduction({ index, kinds: [], status: "crash", c, r: { received: Buffer.alloc(0) } }) + "\n");
    process.exit(2);
  });

  const { report, ms, healthy } = await runFuzz(target, {
    requests,
    seed,
    concurrency,
    progress: (n) => process.stderr.write(`\r${n}/${requests}`),
  });
  process.stderr.write("\n");
  process.stdout.write(report.render({ seed, ms, logFile: target.logFile }) + "\n");
  if (!healthy) process.stdout.write("GET /healthz did not answer 200 after the run\n");
  await target.close(report.failures > 0);
  return report.failures > 0 || !healthy ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`fuzz failed: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(2);
  },
);
