import { test } from "node:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "../../store/store.ts";
import { CommitQueue } from "./commit-queue.ts";

// The commit queue on a real (SQLite) store.

test("draining at a stop ends even when the store can't take the last usage", { timeout: 20_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "tributary-commit-queue-"));
  const store = await openStore({ kind: "sqlite", dataDir: dir });
  try {
    const queue = new CommitQueue(store);
    // a run's usage, counted once a second at most: the first commit writes it...
    await queue.add({ usage: [{ user_id: "u_nobody", day: "2026-11-27", invocations: 1, compute_ms: 5 }] });
    // ...the next waits in memory for a later commit, or for the drain at the stop
    await queue.add({ usage: [{ user_id: "u_nobody", day: "2026-11-27", invocations: 1, compute_ms: 5 }] });
    // the store goes away as the service stops: every write fails (before: the drain retried for ever)
    await store.close();
    await queue.drain();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
