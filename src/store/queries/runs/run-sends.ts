import { sql, type Kysely, type Selectable } from "kysely";
import type { Database, RunSendsTable } from "../../schema.ts";
import { PARTITIONS, type RunSendRow, type RunSendStore } from "../../port.ts";
import { insertRows, type Dialect } from "../raw-rows.ts";

// Sends queued by workflow steps (migration 016): inserted by the step's commit, then claimed,
// tried and recorded by the node that holds the workflow's partition (core/workflows/run-sender.ts).

const num = (v: number | null): number | null => (v === null ? null : Number(v));

function toSend(r: Selectable<RunSendsTable>): RunSendRow {
  return { ...toSummary(r), request: r.request };
}

function toSummary(r: Omit<Selectable<RunSendsTable>, "request">): Omit<RunSendRow, "request"> {
  return {
    id: r.id,
    run_id: r.run_id,
    step_idx: Number(r.step_idx),
    position: Number(r.position),
    user_id: r.user_id,
    partition: Number(r.partition),
    kind: r.kind as RunSendRow["kind"],
    label: r.label,
    status: r.status as RunSendRow["status"],
    attempts: Number(r.attempts),
    next_at_ms: Number(r.next_at_ms),
    last_status: num(r.last_status),
    last_error: r.last_error,
    created_at_ms: Number(r.created_at_ms),
    done_at_ms: num(r.done_at_ms),
  };
}

const COLUMNS = [
  "id",
  "run_id",
  "step_idx",
  "position",
  "user_id",
  "partition",
  "kind",
  "request",
  "label",
  "status",
  "attempts",
  "next_at_ms",
  "last_status",
  "last_error",
  "created_at_ms",
  "done_at_ms",
] as const satisfies readonly (keyof RunSendRow)[];

/** rows per INSERT: 16 columns each stay well under SQLite's 32,766 bound parameters */
const ROWS_PER_INSERT = 500;

/** The commit's part: the sends its steps queued. */
export async function insertSends(trx: Kysely<Database>, dialect: Dialect, rows: readonly RunSendRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    await insertRows(trx, dialect, "run_sends", COLUMNS, rows.slice(i, i + ROWS_PER_INSERT), 'on conflict ("id") do nothing');
  }
}

export function runSendQueries(db: Kysely<Database>): RunSendStore {
  return {
    async forRun(runId, limit) {
      const rows = await db
        .selectFrom("run_sends")
        .select(["id", "run_id", "step_idx", "position", "user_id", "partition", "kind", "label", "status", "attempts", "next_at_ms", "last_status", "last_error", "created_at_ms", "done_at_ms"])
        .where("run_id", "=", runId)
        .orderBy("step_idx")
        .orderBy("position")
        .limit(limit)
        .execute();
      return rows.map(toSummary);
    },
    async due(partitions, kinds, now, limit) {
      if (partitions.length === 0 || kinds.length === 0 || limit <= 0) return [];
      const rows = await db
        .selectFrom("run_sends")
        .selectAll()
        // a literal, so the partial index of pending sends is used (a bound value implies nothing)
        .where(sql<boolean>`"status" = 'pending'`)
        .where("next_at_ms", "<=", now)
        .$call((q) => (partitions.length >= PARTITIONS ? q : q.where("partition", "in", partitions)))
        .where("kind", "in", kinds)
        .orderBy("next_at_ms")
        .limit(limit)
        .execute();
      return rows.map(toSend);
    },
    async claim(id, nextAt, until) {
      const r = await db
        .updateTable("run_sends")
        .set((eb) => ({ next_at_ms: until, attempts: eb("attempts", "+", 1) }))
        .where("id", "=", id)
        .where("status", "=", "pending")
        .where("next_at_ms", "=", nextAt)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    async record(row) {
      const { id, ...change } = row;
      await db.updateTable("run_sends").set(change).where("id", "=", id).execute();
      // a send that outlived its run (retention removed it while the send was still trying)
      if (row.status !== "pending") {
        await db
          .deleteFrom("run_sends")
          .where("id", "=", id)
          .where(({ not, exists, selectFrom }) => not(exists(selectFrom("workflow_runs").select("id").whereRef("workflow_runs.id", "=", "run_sends.run_id"))))
          .execute();
      }
    },
  };
}

/** The sends of runs being deleted (their workflow's or user's deletion): run it in that transaction. */
export async function deleteSendsOf(db: Kysely<Database>, runs: { workflowId: string } | { userId: string }): Promise<void> {
  if ("userId" in runs) {
    await db.deleteFrom("run_sends").where("user_id", "=", runs.userId).execute();
    return;
  }
  const ids = db.selectFrom("workflow_runs").select("id").where("workflow_id", "=", runs.workflowId);
  await db.deleteFrom("run_sends").where("run_id", "in", ids).execute();
}
