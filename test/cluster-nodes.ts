import pg from "pg";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { postgresFor } from "./helpers.ts";
import { startService, stopService, type Started } from "./service-process.ts";
import { partitionOf } from "../src/core/cluster/partition.ts";

// Several real nodes (`npm start` processes) on one fresh PostgreSQL database and the Redis bus,
// for the multi-node tests. Runs only on the PostgreSQL pass with REDIS_URL set.

export function clusterSkip(): string | false {
  if (process.env.TRIBUTARY_TEST_STORE !== "postgres") return "several nodes need PostgreSQL: runs in the postgres pass";
  if (!process.env.REDIS_URL) return "several nodes need Redis: set REDIS_URL (e.g. redis://127.0.0.1:6379)";
  return false;
}

export interface Node {
  id: string;
  url: string;
  proc: Started;
}

export interface Cluster {
  nodes: Node[];
  adminKey: string;
  db: pg.Client;
  /** starts one more node on the same database (with settings of its own, if given) */
  add(id: string, env?: Record<string, string>): Promise<Node>;
  /** kill -9 */
  kill(node: Node): Promise<void>;
  /** the node holding the emitter's partition now (undefined while nobody does) */
  ownerOf(emitterId: string): Promise<Node | undefined>;
  api(node: Node, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

export async function startCluster(size: number, env: Record<string, string> = {}): Promise<Cluster> {
  const postgres = (await postgresFor())!;
  const adminKey = "cluster-admin-" + randomBytes(8).toString("hex");
  const dirs: string[] = [];
  const common = {
    ...postgres.env,
    TRIBUTARY_BUS: "redis",
    REDIS_URL: process.env.REDIS_URL!,
    TRIBUTARY_ADMIN_KEY: adminKey,
    // every node must open the secret props the others sealed
    TRIBUTARY_SECRET_KEY: randomBytes(32).toString("hex"),
    TRIBUTARY_NPM_REGISTRY: "http://127.0.0.1:9/",
    TRIBUTARY_RUNNERS: "1",
    TRIBUTARY_LEASE_TTL_MS: "2000",
    ...env,
  };
  const db = new pg.Client({ connectionString: postgres.env.DATABASE_URL });
  const nodes: Node[] = [];
  const all: Node[] = [];
  const add = async (id: string, own: Record<string, string> = {}): Promise<Node> => {
    const dir = mkdtempSync(join(tmpdir(), "tributary-node-"));
    dirs.push(dir);
    const proc = await startService({ ...common, TRIBUTARY_NODE_ID: id, TRIBUTARY_DATA_DIR: dir, ...own }, 60_000);
    const node = { id, url: proc.url, proc };
    nodes.push(node);
    all.push(node);
    return node;
  };
  // started together: the bootstrap (admin, registry) must still happen once
  await Promise.all(Array.from({ length: size }, (_, i) => add(`node${i + 1}`)));
  await db.connect();
  nodes.sort((a, b) => a.id.localeCompare(b.id));
  return {
    nodes,
    adminKey,
    db,
    add,
    async kill(node) {
      await stopService(node.proc.child, "SIGKILL");
      nodes.splice(nodes.indexOf(node), 1);
    },
    async ownerOf(emitterId) {
      const r = await db.query("select owner from partition_leases where id = $1", [partitionOf(emitterId)]);
      return nodes.find((n) => n.id === r.rows[0]?.owner);
    },
    async api(node, method, path, body) {
      const res = await fetch(node.url + path, {
        method,
        headers: { authorization: `Bearer ${adminKey}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    },
    async close() {
      await Promise.all(nodes.map((n) => stopService(n.proc.child, "SIGTERM")));
      // the nodes' logs, for a failure's post-mortem (test-output/ is ignored by git)
      mkdirSync("test-output", { recursive: true });
      for (const n of all) writeFileSync(join("test-output", `cluster-${size}x-${n.id}.log`), n.proc.output());
      await db.end().catch(() => {});
      await postgres.drop();
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    },
  };
}
