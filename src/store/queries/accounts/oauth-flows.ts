import type { Kysely, Selectable } from "kysely";
import type { Database, OAuthFlowsTable } from "../../schema.ts";
import type { OAuthFlowRow, OAuthFlowStore } from "../../port.ts";

const num = (v: number | string | null) => (v === null ? null : Number(v));

function toRow(r: Selectable<OAuthFlowsTable>): OAuthFlowRow {
  return {
    ...r,
    scopes: JSON.parse(r.scopes),
    expires_at_ms: Number(r.expires_at_ms),
    used_at_ms: num(r.used_at_ms),
  };
}

export function oauthFlowQueries(db: Kysely<Database>): OAuthFlowStore {
  return {
    async insert(f) {
      await db
        .insertInto("oauth_flows")
        .values({ ...f, scopes: JSON.stringify(f.scopes) })
        .execute();
    },
    async byId(id) {
      const r = await db.selectFrom("oauth_flows").selectAll().where("id", "=", id).executeTakeFirst();
      return r ? toRow(r) : undefined;
    },
    async pending(stateHash, now) {
      const r = await db
        .selectFrom("oauth_flows")
        .selectAll()
        .where("state_hash", "=", stateHash)
        .where("used_at_ms", "is", null)
        .where("expires_at_ms", ">", now)
        .executeTakeFirst();
      return r ? toRow(r) : undefined;
    },
    // one conditional UPDATE: of two callbacks with the same state, exactly one gets the row
    async use(stateHash, now) {
      const r = await db
        .updateTable("oauth_flows")
        .set({ used_at_ms: now })
        .where("state_hash", "=", stateHash)
        .where("used_at_ms", "is", null)
        .where("expires_at_ms", ">", now)
        .returningAll()
        .executeTakeFirst();
      return r ? toRow(r) : undefined;
    },
    async finish(id, result) {
      await db
        .updateTable("oauth_flows")
        .set("account_id" in result ? { result_account_id: result.account_id } : { error: result.error })
        .where("id", "=", id)
        .execute();
    },
    async prune(before) {
      await db.deleteFrom("oauth_flows").where("expires_at_ms", "<", before).execute();
    },
  };
}
