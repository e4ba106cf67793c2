import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Sqlite from "better-sqlite3";
import { BACKSTOP_PAGES, startCheckpointer } from "./sqlite-checkpointer.ts";
import { SQLITE_PRAGMAS } from "./sqlite.ts";

// Checkpoints run on a worker thread: commits made on the service's connection (which alone would
// not checkpoint until BACKSTOP_PAGES) reach the database file without that connection copying
// them, and closing leaves one complete database file (no WAL to replay).

async function until(what: string, ok: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

test("commits reach the database file through the worker, and close leaves no WAL", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "trb-ckpt-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, "db.sqlite");
  const db = new Sqlite(path);
  for (const p of SQLITE_PRAGMAS) db.pragma(p);
  assert.equal(db.pragma("wal_autocheckpoint", { simple: true }), BACKSTOP_PAGES);
  const checkpointer = startCheckpointer(path);
  db.exec("create table t (id integer primary key, body text not null)");
  const insert = db.prepare("insert into t (body) values (?)");
  const body = "x".repeat(2000);
  // ~4 MiB in 100 commits: about 1,000 pages, far below the backstop
  for (let i = 0; i < 100; i++) db.transaction(() => { for (let j = 0; j < 20; j++) insert.run(body); })();
  const mainFile = () => statSync(path).size;
  await until("the database file holds the rows", () => mainFile() > 4_000_000);

  // the service's connection goes on writing while the worker copies
  for (let i = 0; i < 20; i++) insert.run(body);
  checkpointer.stop();
  db.close();
  assert.equal(existsSync(`${path}-wal`), false, "the last connection to close checkpoints and removes the WAL");
  const reopened = new Sqlite(path, { readonly: true });
  assert.equal((reopened.prepare("select count(*) as n from t").get() as { n: number }).n, 2020);
  reopened.close();
});

test("stopping twice, or a worker that could not open the file, does not hang or throw", () => {
  const dir = mkdtempSync(join(tmpdir(), "trb-ckpt-"));
  try {
    const c = startCheckpointer(join(dir, "missing", "db.sqlite"));
    c.stop();
    c.stop();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
