import { sql, type Kysely } from "kysely";
import type { Dialect } from "./raw-rows.ts";
import type { Database } from "../schema.ts";
import type { ErrorSummaryRow } from "../port.ts";

// How each of a user's emitters is failing, for lists and pages that show it: its stored $errors
// count (stream_counts, kept by every write) and its newest $errors event's `error` member (a
// workflow's event also holds its trigger event, up to a MiB, which is not read out). One round
// trip: one indexed newest-row lookup per emitter with errors, put together with UNION ALL.

export async function errorSummaries(db: Kysely<Database>, dialect: Dialect, userId: string, emitterIds: string[]): Promise<ErrorSummaryRow[]> {
  if (emitterIds.length === 0) return [];
  const counts = await db
    .selectFrom("stream_counts")
    .select(["emitter_id", "total"])
    .where("user_id", "=", userId)
    .where("event_name", "=", "$errors")
    .where("emitter_id", "in", emitterIds)
    .where("total", ">", 0)
    .execute();
  if (counts.length === 0) return [];
  const errorOf = dialect === "postgres" ? sql<string | null>`(payload::jsonb -> 'error')::text` : sql<string | null>`json_extract(payload, '$.error')`;
  const newest = (id: string) =>
    db
      .selectFrom((eb) =>
        eb
          .selectFrom("events")
          .select(["emitter_id", "ms", errorOf.as("error")])
          .where("emitter_id", "=", id)
          .where("event_name", "=", "$errors")
          .orderBy("ms", "desc")
          .orderBy("n", "desc")
          .limit(1)
          .as("e"),
      )
      .selectAll();
  let q = newest(counts[0]!.emitter_id);
  for (const c of counts.slice(1)) q = q.unionAll(newest(c.emitter_id));
  const last = new Map((await q.execute()).map((r) => [r.emitter_id, r]));
  return counts.flatMap((c) => {
    const l = last.get(c.emitter_id);
    return l ? [{ emitter_id: c.emitter_id, total: Number(c.total), last_ms: Number(l.ms), last_error: l.error ?? "null" }] : [];
  });
}
