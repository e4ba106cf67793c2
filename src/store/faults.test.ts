import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Sqlite from "better-sqlite3";
import pg from "pg";
import { describeFault, isStorageUnavailable, refusedText, storageFault, storageUnavailable } from "./faults.ts";
import { AppError } from "../lib/errors.ts";

// The classification, on errors the real drivers throw (no hand-made error objects): what must
// become 503 storage_unavailable, and what must stay an ordinary error.

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error("expected a throw");
}

async function rejected(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error("expected a rejection");
}

test("SQLite: read-only, busy and not-a-database are faults; constraint and syntax errors are not", () => {
  const dir = mkdtempSync(join(tmpdir(), "tributary-faults-"));
  try {
    const path = join(dir, "t.db");
    const db = new Sqlite(path);
    db.pragma("journal_mode = WAL");
    db.exec("create table t (id integer primary key)");
    db.exec("insert into t values (1)");

    assert.equal(storageFault(thrown(() => db.exec("insert into t values (1)"))), undefined, "a constraint");
    assert.equal(storageFault(thrown(() => db.exec("selec 1"))), undefined, "a syntax error");
    assert.equal(storageFault(thrown(() => db.exec("select * from nope"))), undefined, "a missing table");

    const readonly = new Sqlite(path, { readonly: true });
    const ro = thrown(() => readonly.exec("insert into t values (2)"));
    assert.equal(storageFault(ro), "read_only", String(ro));
    readonly.close();

    // another connection holds the write lock and this one doesn't wait (busy_timeout 0): what
    // the service sees once its 5 s busy_timeout has run out
    const other = new Sqlite(path);
    other.pragma("busy_timeout = 0");
    db.exec("begin immediate");
    const busy = thrown(() => other.exec("insert into t values (3)"));
    assert.equal(storageFault(busy), "busy", String(busy));
    db.exec("rollback");
    other.close();
    db.close();

    const garbage = join(dir, "garbage.db");
    writeFileSync(garbage, "this is not a database".repeat(100));
    const bad = new Sqlite(garbage);
    const notadb = thrown(() => bad.exec("select * from sqlite_master"));
    bad.close();
    assert.equal(storageFault(notadb), "failed", String(notadb));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("PostgreSQL: a refused connection is a fault", async () => {
  // a port that was just free: nothing listens there
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));

  const client = new pg.Client({ connectionString: `postgres://nobody@127.0.0.1:${port}/none` });
  const err = await rejected(client.connect());
  assert.equal(storageFault(err), "unreachable", String(err));
  assert.match(describeFault(err), /the database server cannot be reached \(ECONNREFUSED\)/);
});

test("PostgreSQL: a terminated session is a fault; syntax and constraint errors are not", async (t) => {
  const url = process.env.DATABASE_URL;
  if (!url) {
    t.skip("set DATABASE_URL (e.g. postgres://root@127.0.0.1:5432/test) to run it");
    return;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  client.on("error", () => {}); // the terminated session also reports here
  try {
    assert.equal(storageFault(await rejected(client.query("selec 1"))), undefined, "a syntax error");
    await client.query("create temporary table t (id integer primary key)");
    await client.query("insert into t values (1)");
    const dup = await rejected(client.query("insert into t values (1)"));
    assert.equal((dup as { code?: string }).code, "23505");
    assert.equal(storageFault(dup), undefined, "a unique violation");
    assert.equal(refusedText(dup), undefined);

    // text with NUL, which PostgreSQL can't store: the request's fault (400), not the store's
    const nul = await rejected(client.query("select $1::text", ["a\u0000b"]));
    assert.equal(storageFault(nul), undefined);
    assert.equal(refusedText(nul)?.code, "invalid_request");

    // the server ends this session, as an admin or a shutdown would: 57P01
    const ended = await rejected(client.query("select pg_terminate_backend(pg_backend_pid())"));
    assert.equal(storageFault(ended), "unreachable", String(ended));
    // and the client is unusable from then on
    const after = await rejected(client.query("select 1"));
    assert.equal(storageFault(after), "unreachable", String(after));
  } finally {
    await client.end().catch(() => {});
  }
});

test("a fault becomes storage_unavailable with Retry-After and the driver's error as its cause", () => {
  const dir = mkdtempSync(join(tmpdir(), "tributary-faults-"));
  try {
    const path = join(dir, "t.db");
    const db = new Sqlite(path);
    db.exec("create table t (id integer)");
    db.close();
    const readonly = new Sqlite(path, { readonly: true });
    const cause = thrown(() => readonly.exec("insert into t values (1)"));
    readonly.close();
    const err = storageUnavailable(storageFault(cause)!, cause);
    assert.ok(err instanceof AppError && isStorageUnavailable(err));
    assert.equal(err.status, 503);
    assert.ok(err.retryAfterSeconds! > 0);
    assert.equal(err.cause, cause);
    assert.doesNotMatch(err.message, /sqlite|insert|\//i, "no driver text, SQL or path for the client");
    assert.match(describeFault(err), /read-only \(SQLITE_READONLY\)/, "the operator's text names the code");
    // an AppError is never a fault again (it was translated already)
    assert.equal(storageFault(err), undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
