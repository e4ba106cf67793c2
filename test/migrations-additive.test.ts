import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { basename, relative } from "node:path";
import Sqlite from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import { migrate } from "../src/store/migrations.ts";
import {
  breakingChanges, destructiveOperations, MARKER_EXAMPLE, migrationFileNames, registeredMigrations, schemaOf, type Schema,
} from "./migration-checks.ts";

// Nodes are upgraded one at a time (docs/several-nodes.md, "Rolling upgrades"): the first node of
// a new version migrates the shared database while nodes of the previous version still run on it.
// That is safe only while every migration is additive (new tables, new nullable or defaulted
// columns, new indexes). A migration that drops, renames or retypes a table or column must say
// so, with a `// breaking:` comment naming the release and why, because that release needs a
// stop-the-world upgrade. Checked twice: in each migration's source, and in the schema each one
// leaves on SQLite, which catches such a change however it is written.

const ROOT = `${import.meta.dirname}/..`;
const HOW_TO_MARK = `if the release really needs a stop-the-world upgrade, say so in the migration with\n  ${MARKER_EXAMPLE}\nand in the release notes (docs/several-nodes.md, "Rolling upgrades")`;

function sqliteMemory(): { file: Sqlite.Database; db: Kysely<any> } {
  const file = new Sqlite(":memory:");
  return { file, db: new Kysely<any>({ dialect: new SqliteDialect({ database: file }) }) };
}

/** a schema as plain data, for deepEqual */
const plain = (schema: Schema) => Object.fromEntries([...schema].map(([t, cols]) => [t, Object.fromEntries(cols)]));

describe("migrations stay additive, so nodes of two versions can share one database", () => {
  it("src/store/migrations.ts registers every file of src/store/migrations/, each under its file's name", async () => {
    const registered = await registeredMigrations();
    assert.deepEqual(registered.map((m) => basename(m.path)), migrationFileNames(), "files of src/store/migrations/ the service doesn't apply, or applies twice");
    for (const m of registered) assert.equal(`${m.name}.ts`, basename(m.path), `${m.name} is registered from ${basename(m.path)}`);
  });

  it("no migration's code drops, renames or retypes a table or column unless it says which release may", async () => {
    const problems: string[] = [];
    for (const m of await registeredMigrations()) {
      if (m.breaking) continue;
      for (const op of destructiveOperations(m.source)) problems.push(`${m.name} (${relative(ROOT, m.path)}) ${op}`);
    }
    assert.ok(problems.length === 0, `migrations a node of the previous version can't run beside:\n  ${problems.join("\n  ")}\n${HOW_TO_MARK}`);
  });

  it("applied one at a time on SQLite, each keeps every earlier table and column as it was", async () => {
    const { file, db } = sqliteMemory();
    const problems: string[] = [];
    try {
      for (const m of await registeredMigrations()) {
        const before = schemaOf(file);
        await m.make("sqlite").up(db);
        if (m.breaking) continue;
        for (const p of breakingChanges(before, schemaOf(file))) problems.push(`${m.name} (${relative(ROOT, m.path)}): ${p}`);
      }
      assert.ok(problems.length === 0, `migrations a node of the previous version can't run beside:\n  ${problems.join("\n  ")}\n${HOW_TO_MARK}`);

      // the migrations applied here are the ones the service applies, to the same schema (its
      // own bookkeeping tables aside)
      const real = sqliteMemory();
      try {
        await migrate(real.db, "sqlite");
        assert.deepEqual(plain(schemaOf(file)), plain(schemaOf(real.file, (t) => /^(tributary_migrations|kysely_migration)/.test(t))));
      } finally {
        await real.db.destroy();
      }
    } finally {
      await db.destroy();
    }
  });
});

describe("the additive check itself", () => {
  it("refuses drops, renames and retypes in Kysely or SQL, and lets index drops and comments be", () => {
    const refused = [
      `await db.schema.alterTable("users").dropColumn("email").execute();`,
      `await db.schema.dropTable("timers").ifExists().execute();`,
      `await db.schema.alterTable("a").renameTo("b").execute();`,
      `await db.schema.alterTable("a").renameColumn("x", "y").execute();`,
      `await db.schema.alterTable("a").alterColumn("x", (c) => c.setDataType("bigint")).execute();`,
      "await sql`ALTER TABLE users RENAME COLUMN email TO mail`.execute(db);",
      "await sql`alter table runs alter column cursor type bigint`.execute(db);",
      "await sql`DROP TABLE IF EXISTS inbox`.execute(db);",
    ];
    for (const code of refused) assert.equal(destructiveOperations(code).length, 1, code);
    const allowed = [
      `await db.schema.dropIndex("inbox_source").execute();`,
      "await sql`DROP INDEX IF EXISTS inbox_source`.execute(db);",
      `// the old table is kept: we never drop table inbox here`,
      `await db.schema.alterTable("a").addColumn("b", "text").execute();`,
    ];
    for (const code of allowed) assert.deepEqual(destructiveOperations(code), [], code);
    const [found] = destructiveOperations(`up() {\n  await db.schema.dropTable("t").execute();\n}`);
    assert.match(found!, /^line 2: drops a table \(\.dropTable\): await db\.schema\.dropTable\("t"\)/);
  });

  it("tells a dropped, renamed or retyped column and a new NOT NULL one from new nullable or defaulted ones", async () => {
    const { file, db } = sqliteMemory();
    try {
      file.exec("create table runs (id text primary key, status text not null, cursor integer, gone text)");
      const first = schemaOf(file);
      file.exec("alter table runs add column wait_kind text");
      file.exec("alter table runs add column attempts integer not null default 0");
      file.exec("create table sends (id text primary key, n integer not null)");
      file.exec("create index runs_status on runs (status)");
      assert.deepEqual(breakingChanges(first, schemaOf(file)), []);

      const second = schemaOf(file);
      file.exec("alter table runs rename column status to state");
      file.exec("alter table runs drop column gone");
      file.exec("create table runs_new (id text primary key, state text not null, cursor text, wait_kind text, attempts integer not null default 0, must text not null)");
      file.exec("drop table runs; alter table runs_new rename to runs; drop table sends");
      assert.deepEqual(breakingChanges(second, schemaOf(file)), [
        "column runs.status is gone (dropped or renamed)",
        "column runs.cursor changed type: INTEGER → TEXT",
        "column runs.gone is gone (dropped or renamed)",
        "new column runs.state is NOT NULL without a default: the previous version's inserts leave it out",
        "new column runs.must is NOT NULL without a default: the previous version's inserts leave it out",
        "table sends is gone (dropped or renamed)",
      ]);
    } finally {
      await db.destroy();
    }
  });
});

describe("a node of an older version on a database a newer one migrated", () => {
  it("starts: the newer version's migrations are additive, so its schema serves the older code", async () => {
    const { file, db } = sqliteMemory();
    try {
      await migrate(db, "sqlite");
      await db.insertInto("tributary_migrations").values({ name: "999_from_a_newer_version", timestamp: new Date().toISOString() }).execute();
      await migrate(db, "sqlite");
      const names = (await db.selectFrom("tributary_migrations").select("name").execute()).map((r: { name: string }) => r.name);
      assert.ok(names.includes("999_from_a_newer_version"));
    } finally {
      await db.destroy();
      file.close();
    }
  });
});
