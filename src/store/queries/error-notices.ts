import type { Kysely } from "kysely";
import type { Database } from "../schema.ts";
import type { ErrorNoticeStore } from "../port.ts";

// One statement claims an emitter's next error email: the row is written when there is none, or
// moved to `now` when the last email is at least `gapMs` old; otherwise nothing changes and
// nothing is returned. Nodes racing for the same emitter: one gets the row back.
export function errorNoticeQueries(db: Kysely<Database>): ErrorNoticeStore {
  return {
    async claim(emitterId, now, gapMs) {
      const row = await db
        .insertInto("error_notices")
        .values({ emitter_id: emitterId, last_sent_ms: now })
        .onConflict((oc) =>
          oc
            .column("emitter_id")
            .doUpdateSet({ last_sent_ms: (eb) => eb.ref("excluded.last_sent_ms") })
            .where("error_notices.last_sent_ms", "<=", now - gapMs),
        )
        .returning("emitter_id")
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}
