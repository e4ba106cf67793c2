import { sql, type Kysely } from "kysely";
import type { Migration } from "kysely/migration";
import type { Dialect } from "../migrations.ts";

// Data stores (Pipedream's `ds_` ids): a user's named key-value stores, shared by the API now and
// by components' `data_store` props later. Values are JSON text, not sealed (Pipedream doesn't
// seal them either).
//
// `record_count` is the number of record rows the store holds, expired ones not yet removed
// included; it is kept exact in the transaction of every write, so the live count is it minus
// the store's expired rows (a range of the expiry index) and never a count of the whole store.
//
// Keys sort by their UTF-8 bytes on both databases (SQLite's BINARY; PostgreSQL's "C" collation
// instead of the database's locale), so a page and a prefix (a key range) mean the same thing on
// each. Expiry is indexed only where there is one: most records never expire.
export function dataStoresSchema(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("data_stores")
        .addColumn("seq", dialect === "sqlite" ? "integer" : "serial", (c) =>
          dialect === "sqlite" ? c.primaryKey().autoIncrement() : c.primaryKey(),
        )
        .addColumn("id", "text", (c) => c.notNull().unique())
        .addColumn("user_id", "text", (c) => c.notNull())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("record_count", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("updated_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("data_stores_user_seq").on("data_stores").columns(["user_id", "seq"]).execute();

      await db.schema
        .createTable("data_store_records")
        .addColumn("store_id", "text", (c) => c.notNull())
        .addColumn("key", "text", (c) => (dialect === "postgres" ? c.notNull().modifyEnd(sql`collate "C"`) : c.notNull()))
        .addColumn("value", "text", (c) => c.notNull())
        .addColumn("expires_at_ms", "bigint")
        .addPrimaryKeyConstraint("data_store_records_pk", ["store_id", "key"])
        .execute();
      // the periodic sweep's scan (every store), and a store's own expired rows (lazy removal, counts)
      await db.schema
        .createIndex("data_store_records_expiry")
        .on("data_store_records")
        .column("expires_at_ms")
        .where("expires_at_ms", "is not", null)
        .execute();
      await db.schema
        .createIndex("data_store_records_store_expiry")
        .on("data_store_records")
        .columns(["store_id", "expires_at_ms"])
        .where("expires_at_ms", "is not", null)
        .execute();
    },
  };
}
