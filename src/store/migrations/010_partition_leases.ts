import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";
import { PARTITIONS } from "../port.ts";

// Several nodes (docs/several-nodes.md): emitters are hashed into a fixed number of partitions,
// and a node runs an emitter's durable work only while it holds its partition's lease. The epoch
// goes up on every takeover; a commit of durable work checks owner and epoch in its transaction
// (fencing), so a node that lost a lease while paused can't write. Rows are made once, here: the
// partition count can never change without moving every emitter, so it is fixed.

export function partitionLeasesSchema(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("partition_leases")
        .addColumn("id", "integer", (c) => c.primaryKey())
        .addColumn("owner", "text")
        .addColumn("epoch", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("expires_at_ms", "bigint", (c) => c.notNull().defaultTo(0))
        .execute();
      const rows = Array.from({ length: PARTITIONS }, (_, id) => ({ id, owner: null, epoch: 0, expires_at_ms: 0 }));
      await db.insertInto("partition_leases").values(rows).execute();
      // the nodes alive now (a heartbeat with an expiry): a node's fair share of partitions is
      // PARTITIONS / live nodes, and its address is where the others reach it
      await db.schema
        .createTable("cluster_nodes")
        .addColumn("node_id", "text", (c) => c.primaryKey())
        .addColumn("address", "text")
        .addColumn("expires_at_ms", "bigint", (c) => c.notNull())
        .execute();
    },
  };
}
