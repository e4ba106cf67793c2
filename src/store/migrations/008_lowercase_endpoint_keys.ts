import { sql, type Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// Endpoint keys are looked up lower-cased (Pipedream's SDK lower-cases workflow URLs), so keys
// made before that (base64url, mixed case) are lower-cased here, row by row. Two random 128-bit
// keys can't realistically fold to the same text, but the unique index must never fail a start:
// a key whose lower-cased form is taken (by a source or a workflow) is left as it is, and the
// lookup still finds it by its exact text (core/targets.ts).
export function lowercaseEndpointKeys(): Migration {
  return {
    async up(db: Kysely<any>) {
      for (const table of ["sources", "workflows"]) {
        const rows = await db
          .selectFrom(table)
          .select(["id", "endpoint_key"])
          .where("endpoint_key", "is not", null)
          .where(sql<boolean>`endpoint_key <> lower(endpoint_key)`)
          .execute();
        for (const { id, endpoint_key } of rows as { id: string; endpoint_key: string }[]) {
          const lower = endpoint_key.toLowerCase();
          const taken = await Promise.all(
            ["sources", "workflows"].map((t) => db.selectFrom(t).select("id").where("endpoint_key", "=", lower).executeTakeFirst()),
          );
          if (taken.some(Boolean)) continue;
          await db.updateTable(table).set({ endpoint_key: lower }).where("id", "=", id).execute();
        }
      }
    },
  };
}
