import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// A component that imports npm packages, Node modules or files of its own is stored with the
// bundle made of them at save (what the runner loads), its hash, and the package versions in it.
export function componentBundles(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable("components").addColumn("bundle", "text").execute();
      await db.schema.alterTable("components").addColumn("bundle_hash", "text").execute();
      await db.schema.alterTable("components").addColumn("packages", "text").execute();
    },
  };
}
