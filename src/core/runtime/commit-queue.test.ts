import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "../../store/store.ts";
import { CommitQueue } from "./commit-queue.ts";
import type { EmitterStateRow, RunRow, RunStepRow } from "../../store/port.ts";
import { DependentPartError } from "./poison.ts";

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

test("workflow runs go with their group, the last write of a run wins, and a refused part fails alone", { timeout: 20_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "tributary-commit-queue-"));
  const store = await openStore({ kind: "sqlite", dataDir: dir });
  try {
    const queue = new CommitQueue(store);
    const run = (id: string, status: RunRow["status"], cursor: number): RunRow => ({
      id, workflow_id: "p_q", user_id: "u_q", deployment_id: "d_q", status, cursor, trigger_event: "{}", trigger_kind: "EMIT",
      summary: null, response_status: null, replay_of: null, retry_of: null, started_at_ms: 1, ended_at_ms: status === "running" ? null : 2, due_at_ms: null,
      partition: 0, wait: null,
    });
    const step = (runId: string, idx: number, cellId: string | null): RunStepRow => ({
      run_id: runId, idx, cell_id: cellId as string, name: `s${idx}`, status: "succeeded", started_at_ms: 1, ended_at_ms: 2,
      return_value: String(idx), exports: null, logs: null, error: null, attempts: 1, resume_data: null,
    });
    // added in one tick: one group, two step ends of one run in it
    const first = queue.add({ runs: [run("r_a", "running", 1)], runSteps: [step("r_a", 0, "c_0")] });
    const second = queue.add({ runs: [run("r_a", "succeeded", 2)], runSteps: [step("r_a", 1, "c_1")], runTrims: [{ workflow_id: "p_q", keep: 5 }] });
    await Promise.all([first, second]);
    assert.equal((await store.runs.byId("r_a"))?.status, "succeeded");
    assert.deepEqual((await store.runs.steps("r_a")).map((s) => s.cell_id), ["c_0", "c_1"]);

    // a part the store refuses (a step without its cell id) fails; the group is retried part by part
    const good = queue.add({ runs: [run("r_b", "succeeded", 1)], runSteps: [step("r_b", 0, "c_b")] });
    const bad = queue.add({ runs: [run("r_c", "succeeded", 1)], runSteps: [step("r_c", 0, null)] });
    await good;
    await assert.rejects(bad);
    assert.equal((await store.runs.byId("r_b"))?.status, "succeeded");
    assert.equal(await store.runs.byId("r_c"), undefined);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a refused part fails the later parts of its emitter too: their state was made on top of it", { timeout: 20_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "tributary-commit-queue-"));
  const store = await openStore({ kind: "sqlite", dataDir: dir });
  try {
    const queue = new CommitQueue(store);
    const state = (ids: string[], n: number): EmitterStateRow => ({ emitter_id: "dc_e", user_id: "u_q", db: { seen: ids.length }, dedupe: { ids }, last_ms: 1, last_n: n });
    const badStep: RunStepRow = {
      run_id: "r_x", idx: 0, cell_id: null as unknown as string, name: "s0", status: "succeeded", started_at_ms: 1, ended_at_ms: 2,
      return_value: null, exports: null, logs: null, error: null, attempts: 1, resume_data: null,
    };
    // one group: the emitter's first result is refused (a row the store won't take), its second
    // carries the state the first left (its dedupe memory remembers the first's event), another
    // emitter's result is independent of both
    const basis = { emitter: "dc_e", epoch: 7 };
    const first = queue.add({ states: [state(["a"], 0)], runSteps: [badStep] }, { basis });
    const second = queue.add({ states: [state(["a", "b"], 1)] }, { basis });
    const other = queue.add({ states: [{ ...state(["z"], 0), emitter_id: "dc_other" }] }, { basis: { emitter: "dc_other", epoch: 7 } });
    await assert.rejects(first);
    // before: the second committed, so a's id was remembered without a's event, and a's retry was dropped as a duplicate
    await assert.rejects(second, (e) => e instanceof DependentPartError);
    await other;
    assert.equal(await store.events.state("dc_e"), undefined);
    assert.deepEqual((await store.events.state("dc_other"))?.dedupe, { ids: ["z"] });
    // a result of the same state that reaches the queue later (an invocation still under way, or
    // one queued for the next group) fails too; one computed on the state read again commits
    await assert.rejects(queue.add({ states: [state(["a", "b", "c"], 2)] }, { basis }), (e) => e instanceof DependentPartError);
    await queue.add({ states: [state(["a"], 0)] }, { basis: { emitter: "dc_e", epoch: 8 } });
    assert.deepEqual((await store.events.state("dc_e"))?.dedupe, { ids: ["a"] });
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
