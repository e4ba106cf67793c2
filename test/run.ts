import { spawnSync } from "node:child_process";

// `npm test`: the whole suite on the embedded store, then again on PostgreSQL when
// DATABASE_URL is set (one suite, both stores:
// docs/architecture.md, "Reliability rules"). Says so when PostgreSQL is skipped.
// --test-force-exit: a file whose tests have all finished ends even if a stray handle (say, a
// pipe held by an orphaned grandchild process) would keep it alive; a hang would stall CI.
const args = ["--test", "--test-force-exit", "--test-concurrency=2", "test/**/*.test.ts", "src/**/*.test.ts"];

function run(label: string, env: NodeJS.ProcessEnv): number {
  process.stdout.write(`\n# ${label}\n`);
  const r = spawnSync(process.execPath, args, { stdio: "inherit", env });
  return r.status ?? 1;
}

let failed = run("store: sqlite (embedded)", { ...process.env, TRIBUTARY_TEST_STORE: "sqlite" });
if (process.env.DATABASE_URL) {
  failed ||= run("store: postgres (DATABASE_URL)", { ...process.env, TRIBUTARY_TEST_STORE: "postgres" });
} else {
  process.stdout.write("\n# store: postgres SKIPPED: set DATABASE_URL (e.g. postgres://127.0.0.1:5432/test) to run it\n");
}
process.exit(failed);
