import type { Kysely, Selectable } from "kysely";
import type { Database, OAuthAppsTable } from "../../schema.ts";
import type { OAuthAppRow, OAuthAppStore } from "../../port.ts";

function toRow(r: Selectable<OAuthAppsTable>): OAuthAppRow {
  return {
    id: r.id,
    app: r.app,
    client_id: r.client_id,
    client_secret: r.client_secret,
    authorize_url: r.authorize_url,
    token_url: r.token_url,
    scopes: JSON.parse(r.scopes),
    pkce: Number(r.pkce) === 1,
    token_auth: r.token_auth === "body" ? "body" : "basic",
    authorize_params: JSON.parse(r.authorize_params),
    created_at: Number(r.created_at),
    updated_at: Number(r.updated_at),
  };
}

function toColumns(a: OAuthAppRow) {
  return {
    app: a.app,
    client_id: a.client_id,
    client_secret: a.client_secret,
    authorize_url: a.authorize_url,
    token_url: a.token_url,
    scopes: JSON.stringify(a.scopes),
    pkce: a.pkce ? 1 : 0,
    token_auth: a.token_auth,
    authorize_params: JSON.stringify(a.authorize_params),
    created_at: a.created_at,
    updated_at: a.updated_at,
  };
}

export function oauthAppQueries(db: Kysely<Database>): OAuthAppStore {
  return {
    async insert(a) {
      await db
        .insertInto("oauth_apps")
        .values({ id: a.id, ...toColumns(a) })
        .execute();
    },
    async update(a) {
      await db.updateTable("oauth_apps").set(toColumns(a)).where("id", "=", a.id).execute();
    },
    async byId(id) {
      const r = await db.selectFrom("oauth_apps").selectAll().where("id", "=", id).executeTakeFirst();
      return r ? toRow(r) : undefined;
    },
    async byApp(app) {
      const r = await db.selectFrom("oauth_apps").selectAll().where("app", "=", app).executeTakeFirst();
      return r ? toRow(r) : undefined;
    },
    async list() {
      const rows = await db.selectFrom("oauth_apps").selectAll().orderBy("app").execute();
      return rows.map(toRow);
    },
    async delete(id) {
      const r = await db.deleteFrom("oauth_apps").where("id", "=", id).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
  };
}
