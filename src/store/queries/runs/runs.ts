import { sql, type Kysely, type Selectable } from "kysely";
import type { Database, WorkflowRunStepsTable, WorkflowRunsTable } from "../../schema.ts";
import { PARTITIONS, type RunRow, type RunStepRow, type RunStore } from "../../port.ts";
import { pageRows } from "../page.ts";
import { IS_LIVE } from "../commit/runs.ts";
import { deleteSendsOf } from "./run-sends.ts";

// Workflow runs (migration 014), as the API reads them. They are written only by commits
// (commit/runs.ts); they go with their workflow (workflows.ts) or their user (users.ts).

const num = (v: number | null): number | null => (v === null ? null : Number(v));

function toRun(r: Selectable<WorkflowRunsTable>): RunRow {
  return {
    id: r.id,
    workflow_id: r.workflow_id,
    user_id: r.user_id,
    deployment_id: r.deployment_id,
    status: r.status as RunRow["status"],
    cursor: Number(r.cursor),
    trigger_event: r.trigger_event,
    trigger_kind: r.trigger_kind as RunRow["trigger_kind"],
    summary: r.summary,
    response_status: num(r.response_status),
    replay_of: r.replay_of,
    retry_of: r.retry_of ?? null,
    started_by: (r.started_by ?? null) as RunRow["started_by"],
    started_at_ms: Number(r.started_at_ms),
    ended_at_ms: num(r.ended_at_ms),
    due_at_ms: num(r.due_at_ms),
    partition: Number(r.partition),
    wait: r.wait,
  };
}

function toStep(r: Selectable<WorkflowRunStepsTable>): RunStepRow {
  return {
    run_id: r.run_id,
    idx: Number(r.idx),
    cell_id: r.cell_id,
    name: r.name,
    status: r.status as RunStepRow["status"],
    started_at_ms: num(r.started_at_ms),
    ended_at_ms: num(r.ended_at_ms),
    return_value: r.return_value,
    exports: r.exports,
    logs: r.logs,
    error: r.error,
    attempts: Number(r.attempts),
    resume_data: r.resume_data,
  };
}

/**
 * Runs of the partitions given; with all of them (one node) no condition at all, so the live
 * runs' index range is read without filtering each row against 64 values.
 */
function inPartitions<Q extends { where: (...args: any[]) => Q }>(q: Q, partitions: readonly number[]): Q {
  return partitions.length >= PARTITIONS ? q : q.where("partition", "in", partitions);
}

export function runQueries(db: Kysely<Database>): RunStore {
  return {
    async byId(id) {
      const r = await db.selectFrom("workflow_runs").selectAll().where("id", "=", id).executeTakeFirst();
      return r ? toRun(r) : undefined;
    },
    async steps(runId) {
      const rows = await db.selectFrom("workflow_run_steps").selectAll().where("run_id", "=", runId).orderBy("idx").execute();
      return rows.map(toStep);
    },
    async list(workflowId, page, status) {
      const where: Record<string, string> = { workflow_id: workflowId };
      if (status !== undefined) where.status = status;
      const p = await pageRows<Selectable<WorkflowRunsTable>>(db, "workflow_runs", undefined, page, where);
      return p && { items: p.items.map(toRun), total: p.total };
    },
    async matching(workflowId, filter, limit) {
      const where = db
        .selectFrom("workflow_runs")
        .where("workflow_id", "=", workflowId)
        .where("status", "=", filter.status)
        .$call((q) => (filter.since === undefined ? q : q.where("started_at_ms", ">=", filter.since)))
        .$call((q) => (filter.until === undefined ? q : q.where("started_at_ms", "<=", filter.until)));
      const [rows, count] = await Promise.all([
        where.selectAll().orderBy("seq", "desc").limit(limit).execute(),
        where.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirst(),
      ]);
      return { runs: rows.map(toRun), matched: Number(count?.n ?? 0) };
    },
    async create(run, steps) {
      await db.transaction().execute(async (trx) => {
        await trx.insertInto("workflow_runs").values(run).execute();
        if (steps.length > 0) await trx.insertInto("workflow_run_steps").values(steps).execute();
      });
    },
    // The scans below say `status in ('running', 'suspended')`, the partial index's condition
    // (migration 014), so they read only live runs however many have ended.
    async due(partitions, now, limit) {
      if (partitions.length === 0) return [];
      // one read per status, each an ordered range of the partial index (status, due_at_ms):
      // `status in (...)` ordered by due_at_ms made SQLite sort every due row in a temp b-tree,
      // which with tens of thousands due at once cost more than the runs it found
      const read = (status: "running" | "suspended") =>
        db
          .selectFrom("workflow_runs")
          .selectAll()
          .where(IS_LIVE)
          .where("status", "=", status)
          .where("due_at_ms", "<=", now)
          .$call((q) => inPartitions(q, partitions))
          .orderBy("due_at_ms")
          .limit(limit)
          .execute();
      const [running, suspended] = await Promise.all([read("running"), read("suspended")]);
      return [...running, ...suspended]
        .sort((a, b) => Number(a.due_at_ms) - Number(b.due_at_ms))
        .slice(0, limit)
        .map(toRun);
    },
    async orphans(partitions, limit, afterId) {
      if (partitions.length === 0) return [];
      const rows = await db
        .selectFrom("workflow_runs")
        .selectAll()
        .where(IS_LIVE)
        .where("status", "=", "running")
        .where("due_at_ms", "is", null)
        .$call((q) => inPartitions(q, partitions))
        .$call((q) => (afterId === undefined ? q : q.where("id", ">", afterId)))
        .orderBy("id")
        .limit(limit)
        .execute();
      return rows.map(toRun);
    },
    async nextDue(partitions, after) {
      if (partitions.length === 0) return undefined;
      // per status, as due(): each the first entry of an index range
      const read = async (status: "running" | "suspended") => {
        const r = await inPartitions(
          db.selectFrom("workflow_runs").select("due_at_ms").where(IS_LIVE).where("status", "=", status).where("due_at_ms", ">", after),
          partitions,
        )
          .orderBy("due_at_ms")
          .limit(1)
          .executeTakeFirst();
        return r ? Number(r.due_at_ms) : undefined;
      };
      const found = (await Promise.all([read("running"), read("suspended")])).filter((d) => d !== undefined);
      return found.length > 0 ? Math.min(...found) : undefined;
    },
    async cancel(id, from, now, stepsAtEnd) {
      return db.transaction().execute(async (trx) => {
        const r = await trx
          .updateTable("workflow_runs")
          .set({ status: "cancelled", ended_at_ms: now, due_at_ms: null, wait: null })
          .where("id", "=", id)
          .where(IS_LIVE)
          .where("status", "=", from.status)
          .where((eb) => (from.wait === null ? eb("wait", "is", null) : eb("wait", "=", from.wait)))
          .where((eb) => (from.due_at_ms === null ? eb("due_at_ms", "is", null) : eb("due_at_ms", "=", from.due_at_ms)))
          .executeTakeFirst();
        if (Number(r.numUpdatedRows) === 0) return false;
        for (const [before, after] of Object.entries(stepsAtEnd)) {
          await trx.updateTable("workflow_run_steps").set({ status: after }).where("run_id", "=", id).where("status", "=", before).execute();
        }
        return true;
      });
    },
    async queued(of, now, limit) {
      if ("partitions" in of && of.partitions.length === 0) return [];
      let q = db
        .selectFrom("workflow_runs")
        .selectAll()
        .where(IS_LIVE)
        .where("wait_kind", "=", sql.lit("queued"))
        .where((eb) => eb.or([eb("due_at_ms", "is", null), eb("due_at_ms", "<=", now)]));
      q = "workflowId" in of ? q.where("workflow_id", "=", of.workflowId) : inPartitions(q, of.partitions);
      return (await q.orderBy("seq").limit(limit).execute()).map(toRun);
    },
    async postpone(id, from, dueAtMs) {
      const r = await db
        .updateTable("workflow_runs")
        .set({ due_at_ms: dueAtMs })
        .where("id", "=", id)
        .where("status", "=", from.status as RunRow["status"])
        .where("wait", "=", from.wait)
        .where((eb) => (from.due_at_ms === null ? eb("due_at_ms", "is", null) : eb("due_at_ms", "=", from.due_at_ms)))
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    async claim(id, status, wait, now) {
      const r = await db
        .updateTable("workflow_runs")
        .set({ status: "running", due_at_ms: null })
        .where("id", "=", id)
        .where("status", "=", status)
        .where((eb) => (wait === null ? eb("wait", "is", null) : eb("wait", "=", wait)))
        .where((eb) => eb.or([eb("due_at_ms", "is", null), eb("due_at_ms", "<=", now)]))
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    async claimMany(runs, now) {
      if (runs.length === 0) return new Set();
      const rows = await db
        .updateTable("workflow_runs")
        .set({ status: "running", due_at_ms: null })
        .where((eb) =>
          eb.and([
            eb.or(runs.map((r) => eb.and([eb("id", "=", r.id), eb("status", "=", r.status), r.wait === null ? eb("wait", "is", null) : eb("wait", "=", r.wait)]))),
            eb.or([eb("due_at_ms", "is", null), eb("due_at_ms", "<=", now)]),
          ]),
        )
        .returning("id")
        .execute();
      return new Set(rows.map((r) => r.id));
    },
    async stepsOf(runIds) {
      const out = new Map<string, RunStepRow[]>(runIds.map((id) => [id, []]));
      if (runIds.length === 0) return out;
      const rows = await db.selectFrom("workflow_run_steps").selectAll().where("run_id", "in", runIds).orderBy("run_id").orderBy("idx").execute();
      for (const r of rows) out.get(r.run_id)?.push(toStep(r));
      return out;
    },
    async resume(id, wait, change, now) {
      return db.transaction().execute(async (trx) => {
        const r = await trx
          .updateTable("workflow_runs")
          .set({ due_at_ms: now, wait: change.wait })
          .where("id", "=", id)
          .where("status", "=", "suspended")
          .where("wait", "=", wait)
          .executeTakeFirst();
        if (Number(r.numUpdatedRows) === 0) return false;
        if (change.resumeData) {
          await trx
            .updateTable("workflow_run_steps")
            .set({ resume_data: change.resumeData.json })
            .where("run_id", "=", id)
            .where("idx", "=", change.resumeData.idx)
            .execute();
        }
        return true;
      });
    },
  };
}

/** Deletes the runs (and steps) of a workflow that is being deleted; run it in its transaction. */
export async function deleteWorkflowRuns(db: Kysely<Database>, workflowId: string): Promise<void> {
  await deleteSendsOf(db, { workflowId });
  const runs = db.selectFrom("workflow_runs").select("id").where("workflow_id", "=", workflowId);
  await db.deleteFrom("workflow_run_steps").where("run_id", "in", runs).execute();
  await db.deleteFrom("workflow_runs").where("workflow_id", "=", workflowId).execute();
}

/** Deletes every run (and step) of a user who is being deleted; run it in their transaction. */
export async function deleteUserRuns(db: Kysely<Database>, userId: string): Promise<void> {
  await deleteSendsOf(db, { userId });
  const runs = db.selectFrom("workflow_runs").select("id").where("user_id", "=", userId);
  await db.deleteFrom("workflow_run_steps").where("run_id", "in", runs).execute();
  await db.deleteFrom("workflow_runs").where("user_id", "=", userId).execute();
}
