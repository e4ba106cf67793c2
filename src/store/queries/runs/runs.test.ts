import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "../../store.ts";
import type { RunRow, Store } from "../../port.ts";
import { postgresFor } from "../../../../test/helpers.ts";

// The scan for runs a stopped node left running (RunWaker) reads, page after page, past the runs
// this node drives itself: they look the same in the store (running, no due time). On the store the
// suite runs against (TRIBUTARY_TEST_STORE).

async function withStore(fn: (store: Store) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "tributary-runs-"));
  const pg = await postgresFor();
  const store = await openStore(pg ? { kind: "postgres", dataDir: dir, databaseUrl: pg.env.DATABASE_URL! } : { kind: "sqlite", dataDir: dir });
  try {
    await fn(store);
  } finally {
    await store.close();
    await pg?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function run(i: number, over: Partial<RunRow> = {}): RunRow {
  return {
    id: `r_test${String(i).padStart(6, "0")}`,
    workflow_id: "p_w",
    user_id: "u_1",
    deployment_id: "d_1",
    status: "running",
    cursor: 0,
    trigger_event: "{}",
    trigger_kind: "HTTP",
    summary: null,
    response_status: null,
    replay_of: null,
    retry_of: null,
    started_at_ms: 1_000 + i,
    ended_at_ms: null,
    due_at_ms: null,
    partition: i % 4,
    wait: null,
    ...over,
  };
}

test("orphans(): pages in id order reach every running run without a due time, and only those", async () => {
  await withStore(async (store) => {
    const left = Array.from({ length: 1_100 }, (_, i) => run(i));
    const others = [
      run(5_000, { status: "suspended", due_at_ms: 10, wait: "{}" }),
      run(5_001, { due_at_ms: 50 }),
      run(5_002, { status: "succeeded", ended_at_ms: 9 }),
      run(5_003, { partition: 9 }),
    ];
    for (const r of [...left, ...others]) await store.runs.create(r, []);

    const seen: string[] = [];
    let after: string | undefined;
    for (let pages = 0; ; pages++) {
      assert.ok(pages < 10, "the pages end");
      const page = await store.runs.orphans([0, 1, 2, 3], 512, after);
      seen.push(...page.map((r) => r.id));
      if (page.length < 512) break;
      after = page.at(-1)!.id;
    }
    assert.equal(new Set(seen).size, seen.length, "no run on two pages");
    assert.deepEqual(seen.sort(), left.map((r) => r.id).sort());
    assert.deepEqual(await store.runs.orphans([], 512), []);
  });
});
