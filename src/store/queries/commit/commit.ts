import type { Kysely } from "kysely";
import type { Database } from "../../schema.ts";
import { FencedError, type CommitBatch, type DeliveryRow, type EventRow } from "../../port.ts";
import { atMost } from "../event-keys.ts";
import { pendingWebhookDelivery } from "../webhook-deliveries.ts";
import { chunks, deleteWhereIn, insertRows, type Dialect } from "../raw-rows.ts";
import { writeRuns } from "./runs.ts";
import { writeDataStores } from "./data-stores.ts";

const EVENT_COLUMNS = ["emitter_id", "user_id", "event_name", "ms", "n", "emit_id", "indexed_at_ms", "payload", "size", "meta"] as const satisfies readonly (keyof EventRow)[];
const DELIVERY_COLUMNS = [
  "id",
  "user_id",
  "emitter_id",
  "listener_id",
  "event_name",
  "event_id",
  "payload",
  "hops",
  "attempts",
  "next_at_ms",
  "created_at_ms",
] as const satisfies readonly (keyof DeliveryRow)[];

const eventColumns = (e: EventRow) => ({
  emitter_id: e.emitter_id,
  user_id: e.user_id,
  event_name: e.event_name,
  ms: e.ms,
  n: e.n,
  emit_id: e.emit_id,
  indexed_at_ms: e.indexed_at_ms,
  payload: e.payload,
  size: e.size,
  meta: JSON.stringify(e.meta),
});

/** Writes one group of invocation results; the caller runs it inside one transaction. */
export async function commitBatch(trx: Kysely<Database>, batch: CommitBatch, dialect: Dialect): Promise<void> {
  if (batch.fence) await checkFence(trx, batch.fence);
  const counts = new Map<string, StreamDelta>();
  for (const part of chunks(batch.events)) {
    await insertRows(trx, dialect, "events", EVENT_COLUMNS, part.map(eventColumns));
  }
  for (const e of batch.events) streamDelta(counts, e.emitter_id, e.event_name, e.user_id, 1);
  for (const part of chunks(batch.deliveries)) {
    await insertRows(trx, dialect, "deliveries", DELIVERY_COLUMNS, part);
  }
  // a webhook's delivery history starts with the delivery (GET /v1/webhooks/{id}/deliveries)
  for (const part of chunks(batch.deliveries.filter((d) => d.listener_id.startsWith("wh_")))) {
    await trx.insertInto("webhook_deliveries").values(part.map(pendingWebhookDelivery)).execute();
  }
  for (const part of chunks(batch.deliveriesDone)) {
    const deleted = await deleteWhereIn(trx, dialect, "deliveries", "id", part);
    if (batch.fence) stillThere(deleted, part.length, "deliveries");
  }
  // one multi-row upsert per chunk: a statement per emitter cost more than the rest of a batch
  for (const part of chunks(batch.states)) {
    await trx
      .insertInto("emitter_state")
      .values(
        part.map((s) => ({
          emitter_id: s.emitter_id,
          user_id: s.user_id,
          db: JSON.stringify(s.db),
          dedupe: JSON.stringify(s.dedupe),
          last_ms: s.last_ms,
          last_n: s.last_n,
        })),
      )
      .onConflict((oc) =>
        oc.column("emitter_id").doUpdateSet((eb) => ({
          db: eb.ref("excluded.db"),
          dedupe: eb.ref("excluded.dedupe"),
          last_ms: eb.ref("excluded.last_ms"),
          last_n: eb.ref("excluded.last_n"),
        })),
      )
      .execute();
  }
  for (const part of chunks(batch.inboxDone)) {
    const deleted = await deleteWhereIn(trx, dialect, "inbox", "seq", part);
    if (batch.fence) stillThere(deleted, part.length, "accepted runs");
  }
  for (const t of batch.timers) {
    await trx
      .insertInto("timers")
      .values(t)
      .onConflict((oc) => oc.column("source_id").doUpdateSet({ next_due_ms: t.next_due_ms }))
      .execute();
  }
  for (const u of batch.usage) {
    await trx
      .updateTable("users")
      .set((eb) => ({
        invocations_used: eb
          .case()
          .when("usage_day", "=", u.day)
          .then(eb("invocations_used", "+", u.invocations))
          .else(u.invocations)
          .end(),
        compute_time_used: eb
          .case()
          .when("usage_day", "=", u.day)
          .then(eb("compute_time_used", "+", u.compute_ms))
          .else(u.compute_ms)
          .end(),
        usage_day: u.day,
      }))
      .where("id", "=", u.user_id)
      .execute();
  }
  for (const t of batch.trims) {
    const boundary = await trx
      .selectFrom("events")
      .select(["ms", "n"])
      .where("emitter_id", "=", t.emitter_id)
      .where("event_name", "=", t.event_name)
      .orderBy("ms", "desc")
      .orderBy("n", "desc")
      .limit(1)
      .offset(t.keep)
      .executeTakeFirst();
    if (!boundary) continue;
    const k = { ms: Number(boundary.ms), n: Number(boundary.n) };
    const trimmed = await trx
      .deleteFrom("events")
      .where("emitter_id", "=", t.emitter_id)
      .where("event_name", "=", t.event_name)
      .where((eb) => atMost(eb, k))
      .executeTakeFirst();
    streamDelta(counts, t.emitter_id, t.event_name, undefined, -Number(trimmed.numDeletedRows));
  }
  await writeRuns(trx, batch, dialect);
  await writeDataStores(trx, batch);
  await addToStreamCounts(trx, counts);
}

// ---- stream_counts (migration 011): each stream's event count, kept in the writing transaction ----

interface StreamDelta {
  emitter_id: string;
  event_name: string;
  /** undefined when only a trim touched the stream in this batch */
  user_id: string | undefined;
  delta: number;
}

function streamDelta(counts: Map<string, StreamDelta>, emitterId: string, eventName: string, userId: string | undefined, delta: number): void {
  const key = `${emitterId}\u0000${eventName}`;
  const d = counts.get(key);
  if (d) {
    d.delta += delta;
    d.user_id ??= userId;
  } else {
    counts.set(key, { emitter_id: emitterId, event_name: eventName, user_id: userId, delta });
  }
}

/**
 * Adds each stream's net change (events inserted minus events trimmed) to its count: one
 * multi-row upsert per chunk, in key order so that concurrent writers lock the rows in the same
 * order. Called last in a transaction, after every events row it touches.
 */
async function addToStreamCounts(trx: Kysely<Database>, counts: Map<string, StreamDelta>): Promise<void> {
  if (counts.size === 0) return;
  const all = [...counts.values()]
    .filter((d) => d.delta !== 0)
    .sort((a, b) => (a.emitter_id < b.emitter_id ? -1 : a.emitter_id > b.emitter_id ? 1 : a.event_name < b.event_name ? -1 : a.event_name > b.event_name ? 1 : 0));
  const upserts = all.filter((d) => d.user_id !== undefined);
  for (const part of chunks(upserts)) {
    await trx
      .insertInto("stream_counts")
      .values(part.map((d) => ({ emitter_id: d.emitter_id, event_name: d.event_name, user_id: d.user_id!, total: d.delta })))
      .onConflict((oc) => oc.columns(["emitter_id", "event_name"]).doUpdateSet((eb) => ({ total: eb("stream_counts.total", "+", eb.ref("excluded.total")) })))
      .execute();
  }
  for (const d of all.filter((d) => d.user_id === undefined)) await subtractFromStreamCount(trx, d.emitter_id, d.event_name, -d.delta);
}

/** the stream lost `removed` events (a trim, a deleted range) */
export async function subtractFromStreamCount(trx: Kysely<Database>, emitterId: string, eventName: string, removed: number): Promise<void> {
  if (removed === 0) return;
  await trx
    .updateTable("stream_counts")
    .set((eb) => ({ total: eb("total", "-", removed) }))
    .where("emitter_id", "=", emitterId)
    .where("event_name", "=", eventName)
    .execute();
}

// Several nodes: work consumed by this commit that is gone already was done by another node
// (the fence makes that all but impossible; this makes it certain): nothing is written twice.
function stillThere(deleted: number, expected: number, what: string): void {
  if (deleted !== expected) throw new FencedError([], `${expected - deleted} of these ${what} were finished by another node already`);
}

// Fencing (several nodes): the leases the batch was written under must still be this node's,
// with the same epoch. FOR SHARE holds them until the transaction ends, so a takeover (an UPDATE
// of the row) waits for this commit, and a commit after a takeover sees the new owner.
async function checkFence(trx: Kysely<Database>, fence: NonNullable<CommitBatch["fence"]>): Promise<void> {
  const wanted = new Map<number, Set<number>>();
  for (const [p, e] of fence.leases) {
    let epochs = wanted.get(p);
    if (!epochs) wanted.set(p, (epochs = new Set()));
    epochs.add(e);
  }
  if (wanted.size === 0) return;
  const rows = await trx
    .selectFrom("partition_leases")
    .select(["id", "epoch"])
    .where("owner", "=", fence.node)
    .where("id", "in", [...wanted.keys()])
    // in id order, as every statement that locks several lease rows does: no deadlocks
    .orderBy("id")
    .forShare()
    .execute();
  const now = new Map(rows.map((r) => [Number(r.id), Number(r.epoch)]));
  const lost = [...wanted].filter(([p, epochs]) => epochs.size > 1 || !epochs.has(now.get(p) ?? -1)).map(([p]) => p);
  if (lost.length > 0) throw new FencedError(lost);
}
