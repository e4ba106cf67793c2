import type { ExpressionBuilder, Kysely, Selectable } from "kysely";
import type { Database, UsersTable } from "../schema.ts";
import type { UserRow, UserStore } from "../port.ts";
import { pageRows } from "./page.ts";
import { deleteUserDataStores } from "./data-stores.ts";
import { deleteUserRuns } from "./runs/runs.ts";

function toRow(r: Selectable<UsersTable>): UserRow {
  return {
    id: r.id,
    username: r.username,
    email: r.email,
    admin: r.admin === 1,
    daily_invocations_quota: Number(r.daily_invocations_quota),
    daily_compute_time_quota: Number(r.daily_compute_time_quota),
    invocations_used: Number(r.invocations_used),
    compute_time_used: Number(r.compute_time_used),
    usage_day: r.usage_day,
    created_at: Number(r.created_at),
  };
}

export function userQueries(db: Kysely<Database>): UserStore {
  const one = async (col: "id" | "username" | "api_key_hash", value: string) => {
    const r = await db.selectFrom("users").selectAll().where(col, "=", value).executeTakeFirst();
    return r ? toRow(r) : undefined;
  };
  return {
    async count() {
      const r = await db.selectFrom("users").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
      return Number(r.n);
    },
    async insert(u, apiKeyHash) {
      await db
        .insertInto("users")
        .values({
          id: u.id,
          username: u.username,
          email: u.email,
          admin: u.admin ? 1 : 0,
          api_key_hash: apiKeyHash,
          daily_invocations_quota: u.daily_invocations_quota,
          daily_compute_time_quota: u.daily_compute_time_quota,
          usage_day: u.usage_day,
          invocations_used: u.invocations_used,
          compute_time_used: u.compute_time_used,
          created_at: u.created_at,
          updated_at: u.created_at,
        })
        .execute();
    },
    // one statement: of reservations racing on several nodes, only those under the quota land
    async reserveInvocation(id, day) {
      const today = (eb: ExpressionBuilder<Database, "users">) =>
        eb.case().when("reserved_day", "=", day).then(eb.ref("invocations_reserved")).else(0).end();
      const r = await db
        .updateTable("users")
        .set((eb) => ({ invocations_reserved: eb(today(eb), "+", 1), reserved_day: day }))
        .where("id", "=", id)
        .where("daily_invocations_quota", ">", 0)
        .where((eb) => eb(today(eb), "<", eb.ref("daily_invocations_quota")))
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    async releaseInvocation(id, day) {
      await db
        .updateTable("users")
        .set((eb) => ({ invocations_reserved: eb("invocations_reserved", "-", 1) }))
        .where("id", "=", id)
        .where("reserved_day", "=", day)
        .where("invocations_reserved", ">", 0)
        .execute();
    },
    byId: (id) => one("id", id),
    byUsername: (username) => one("username", username),
    byKeyHash: (hash) => one("api_key_hash", hash),
    async setKeyHash(id, hash) {
      await db
        .updateTable("users")
        .set({ api_key_hash: hash, updated_at: Math.floor(Date.now() / 1000) })
        .where("id", "=", id)
        .execute();
    },
    async list(page) {
      const p = await pageRows<Selectable<UsersTable>>(db, "users", undefined, page);
      return p && { items: p.items.map(toRow), total: p.total };
    },
    // Everything the user owns goes with them; callers run this inside a transaction.
    async delete(id) {
      const sources = await db.selectFrom("sources").select("id").where("user_id", "=", id).execute();
      const workflows = await db.selectFrom("workflows").select("id").where("user_id", "=", id).execute();
      const webhooks = await db.selectFrom("webhooks").select("id").where("user_id", "=", id).execute();
      for (const { id: sourceId } of [...sources, ...workflows]) {
        for (const table of ["inbox", "timers"] as const) await db.deleteFrom(table).where("source_id", "=", sourceId).execute();
      }
      for (const { id: workflowId } of workflows) await db.deleteFrom("workflow_deployments").where("workflow_id", "=", workflowId).execute();
      for (const table of ["events", "stream_counts", "emitter_state", "auto_subscriptions", "subscriptions", "sources", "components", "workflows", "webhooks", "accounts", "env_vars", "deliveries", "webhook_deliveries"] as const) {
        await db.deleteFrom(table).where("user_id", "=", id).execute();
      }
      await deleteUserDataStores(db, id);
      await deleteUserRuns(db, id);
      const r = await db.deleteFrom("users").where("id", "=", id).executeTakeFirst();
      if (Number(r.numDeletedRows) === 0) return undefined;
      return [...sources, ...workflows, ...webhooks].map((row) => row.id);
    },
  };
}
