import { sql, type Kysely, type RawBuilder } from "kysely";
import type { Database } from "../schema.ts";
import type { HeldLease, LeaseStore } from "../port.ts";

// Partition leases (migration 010). Every expiry is measured on the database's clock, so nodes
// whose clocks disagree still agree on whose lease has run out.

function nowMs(kind: "sqlite" | "postgres"): RawBuilder<number> {
  return kind === "postgres"
    ? sql<number>`(extract(epoch from clock_timestamp()) * 1000)::bigint`
    : sql<number>`cast((julianday('now') - 2440587.5) * 86400000 as integer)`;
}

const held = (rows: { id: number; epoch: number }[]): HeldLease[] =>
  rows.map((r) => ({ partition: Number(r.id), epoch: Number(r.epoch) })).sort((a, b) => a.partition - b.partition);

export function leaseQueries(db: Kysely<Database>, kind: "sqlite" | "postgres"): LeaseStore {
  const now = nowMs(kind);
  return {
    async heartbeat(node, address, ttlMs) {
      await db
        .insertInto("cluster_nodes")
        .values({ node_id: node, address, expires_at_ms: sql<number>`${now} + ${ttlMs}` })
        .onConflict((oc) => oc.column("node_id").doUpdateSet({ address, expires_at_ms: sql<number>`${now} + ${ttlMs}` }))
        .execute();
      // nodes long gone are forgotten (a restarted node comes back under a new id)
      await db.deleteFrom("cluster_nodes").where("expires_at_ms", "<", sql<number>`${now} - 3600000`).execute();
      const rows = await db.selectFrom("cluster_nodes").select("node_id").where("expires_at_ms", ">=", now).execute();
      return rows.map((r) => r.node_id);
    },
    async renew(node, partitions, ttlMs) {
      if (partitions.length === 0) return [];
      // the rows are locked in id order first, as the commits' fence check does: no deadlocks
      const lock = kind === "postgres" ? sql`order by id for update` : sql``;
      const result = await sql<{ id: number; epoch: number }>`
        update partition_leases set expires_at_ms = ${now} + ${ttlMs}
         where id in (select id from partition_leases where owner = ${node} and id in (${sql.join(partitions)}) ${lock})
        returning id, epoch`.execute(db);
      return held(result.rows);
    },
    async claim(node, max, ttlMs, ownToo = false) {
      if (max <= 0) return [];
      const own = ownToo ? sql`or owner = ${node}` : sql``;
      // SKIP LOCKED: nodes claiming at the same moment take different partitions instead of
      // queueing on the same rows
      const lock = kind === "postgres" ? sql`for update skip locked` : sql``;
      const result = await sql<{ id: number; epoch: number }>`
        update partition_leases
           set owner = ${node}, epoch = epoch + 1, expires_at_ms = ${now} + ${ttlMs}
         where id in (select id from partition_leases
                       where owner is null or expires_at_ms < ${now} ${own}
                       order by id limit ${max} ${lock})
           and (owner is null or expires_at_ms < ${now} ${own})
        returning id, epoch`.execute(db);
      return held(result.rows);
    },
    async release(node, leases) {
      if (leases.length === 0) return;
      await db
        .updateTable("partition_leases")
        .set({ owner: null, expires_at_ms: 0 })
        .where("owner", "=", node)
        .where((eb) => eb.or(leases.map((l) => eb.and([eb("id", "=", l.partition), eb("epoch", "=", l.epoch)]))))
        .execute();
    },
    async ownerAddress(partition) {
      const row = await db
        .selectFrom("partition_leases as l")
        .innerJoin("cluster_nodes as n", "n.node_id", "l.owner")
        .select("n.address")
        .where("l.id", "=", partition)
        .where("l.expires_at_ms", ">=", now)
        .executeTakeFirst();
      return row?.address ?? undefined;
    },
    async leave(node) {
      await db.deleteFrom("cluster_nodes").where("node_id", "=", node).execute();
    },
  };
}
