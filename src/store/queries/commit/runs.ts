import { sql, type Kysely } from "kysely";
import type { Database } from "../../schema.ts";
import type { CommitBatch, RunRow, RunStepRow } from "../../port.ts";
import { chunks, insertRows, type Dialect } from "../raw-rows.ts";
import { insertSends } from "../runs/run-sends.ts";

// The workflow-run part of a commit (migration 014): each step's end writes its run and its step
// in the transaction of its events, so these statements are on the hot path of workflows. Both are
// multi-row upserts made once per shape (raw-rows.ts); retention runs after them, so a run that
// ended in this batch already counts as ended.

const RUN_COLUMNS = [
  "id",
  "workflow_id",
  "user_id",
  "deployment_id",
  "status",
  "cursor",
  "trigger_event",
  "trigger_kind",
  "summary",
  "response_status",
  "replay_of",
  "retry_of",
  "started_by",
  "started_at_ms",
  "ended_at_ms",
  "due_at_ms",
  "partition",
  "wait",
] as const satisfies readonly (keyof RunRow)[];

const STEP_COLUMNS = [
  "run_id",
  "idx",
  "cell_id",
  "name",
  "status",
  "started_at_ms",
  "ended_at_ms",
  "return_value",
  "exports",
  "logs",
  "error",
  "attempts",
  "resume_data",
] as const satisfies readonly (keyof RunStepRow)[];

/** `excluded` is the row the INSERT proposed, on SQLite and PostgreSQL alike */
const setFromExcluded = (columns: readonly string[]) => columns.map((c) => `"${c}" = excluded."${c}"`).join(", ");

// A run never changes hands: an update can't move it to another workflow or user, nor change how it
// started (written with its first row; a row built without it must not erase it). A cancelled run
// stays cancelled: a step that was running when it was cancelled still commits what it did, but
// not the run's state.
const RUN_UPSERT = `on conflict ("id") do update set ${setFromExcluded(RUN_COLUMNS.filter((c) => c !== "id" && c !== "workflow_id" && c !== "user_id" && c !== "started_by"))} where "workflow_runs"."status" <> 'cancelled'`;
const STEP_UPSERT = `on conflict ("run_id", "idx") do update set ${setFromExcluded(STEP_COLUMNS.filter((c) => c !== "run_id" && c !== "idx"))}`;

// The runs retention never removes are live (running, suspended): they are not over. The conditions of the partial indexes on workflow_runs (migrations 014 and 017), written as SQL
// literals: SQLite uses a partial index only when the query's WHERE implies the index's, and a
// bound parameter implies nothing (`status in (?, ?)` made every scan of due runs read the whole
// table: 7 ms with 30,000 runs, dozens of times a second while runs resume).
export const IS_LIVE = sql<boolean>`"status" in ('running', 'suspended')`;
export const IS_ENDED = sql<boolean>`"status" not in ('running', 'suspended')`;

/**
 * One row per key, the last one given winning, at the position of the first: PostgreSQL refuses
 * an upsert that would update the same row twice ("cannot affect row a second time"), and two
 * steps of one run may end in one group.
 */
function lastPerKey<T>(rows: readonly T[], key: (row: T) => string): readonly T[] {
  if (rows.length < 2) return rows;
  const byKey = new Map<string, T>();
  for (const r of rows) byKey.set(key(r), r);
  return byKey.size === rows.length ? rows : [...byKey.values()];
}

/** Writes the batch's runs, their steps, and the retention of the workflows named in runTrims. */
export async function writeRuns(trx: Kysely<Database>, batch: CommitBatch, dialect: Dialect): Promise<void> {
  for (const part of chunks(lastPerKey(batch.runs, (r) => r.id))) {
    await insertRows(trx, dialect, "workflow_runs", RUN_COLUMNS, part, RUN_UPSERT);
  }
  for (const part of chunks(lastPerKey(batch.runSteps, (s) => `${s.run_id}\u0000${s.idx}`))) {
    await insertRows(trx, dialect, "workflow_run_steps", STEP_COLUMNS, part, STEP_UPSERT);
  }
  await insertSends(trx, dialect, batch.sends);
  for (const t of batch.runTrims) await trimRuns(trx, t.workflow_id, t.keep);
}

/** Keeps the workflow's newest `keep` ended runs (and every live one); the rest go with their steps. */
async function trimRuns(trx: Kysely<Database>, workflowId: string, keep: number): Promise<void> {
  const boundary = await trx
    .selectFrom("workflow_runs")
    .select("seq")
    .where("workflow_id", "=", workflowId)
    .where(IS_ENDED)
    .orderBy("seq", "desc")
    .limit(1)
    .offset(Math.max(0, keep))
    .executeTakeFirst();
  if (!boundary) return;
  const seq = Number(boundary.seq);
  const gone = trx
    .selectFrom("workflow_runs")
    .select("id")
    .where("workflow_id", "=", workflowId)
    .where("seq", "<=", seq)
    .where(IS_ENDED);
  await trx.deleteFrom("workflow_run_steps").where("run_id", "in", gone).execute();
  // sends still trying outlive their run; the sender removes them once done (run-sends.ts)
  await trx.deleteFrom("run_sends").where("run_id", "in", gone).where("status", "<>", "pending").execute();
  await trx
    .deleteFrom("workflow_runs")
    .where("workflow_id", "=", workflowId)
    .where("seq", "<=", seq)
    .where(IS_ENDED)
    .execute();
}
