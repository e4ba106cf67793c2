import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type Sqlite from "better-sqlite3";
import type { Migration } from "kysely/migration";

// What test/migrations-additive.test.ts checks each migration with: its source, for operations
// that take away or change what a node of the previous version reads and writes, and the schema
// it leaves, against the schema before it. Why the rule holds is in docs/several-nodes.md
// (rolling upgrades).

export const MIGRATIONS_DIR = join(import.meta.dirname, "..", "src", "store", "migrations");
const REGISTRY = join(import.meta.dirname, "..", "src", "store", "migrations.ts");

/** the marker a migration that breaks the rule carries, with why (at least a few words) */
const BREAKING_MARKER = /\/\/\s*breaking:\s*(\S.{9,})$/m;
export const MARKER_EXAMPLE = "// breaking: <release, and why> — needs a stop-the-world upgrade";

/** Operations a node of the previous version can't run against; dropping an index is not one. */
const DESTRUCTIVE: { what: string; pattern: RegExp }[] = [
  { what: "drops a table (.dropTable)", pattern: /\.dropTable\(/ },
  { what: "drops a column (.dropColumn)", pattern: /\.dropColumn\(/ },
  { what: "renames a column (.renameColumn)", pattern: /\.renameColumn\(/ },
  { what: "renames a table (.renameTo)", pattern: /\.renameTo\(/ },
  { what: "retypes a column (.setDataType)", pattern: /\.setDataType\(/ },
  { what: "makes a column NOT NULL (.setNotNull)", pattern: /\.setNotNull\(/ },
  { what: "drops a column's default (.dropDefault)", pattern: /\.dropDefault\(/ },
  { what: "redefines a column (.modifyColumn)", pattern: /\.modifyColumn\(/ },
  { what: "drops a schema (.dropSchema)", pattern: /\.dropSchema\(/ },
  { what: "drops a table (DROP TABLE)", pattern: /\bdrop\s+table\b/i },
  { what: "drops a column (DROP COLUMN)", pattern: /\bdrop\s+column\b/i },
  { what: "renames a table or column (ALTER TABLE ... RENAME)", pattern: /\balter\s+table\b[^;`]*?\brename\b/i },
  { what: "retypes a column (ALTER COLUMN ... TYPE)", pattern: /\balter\s+column\s+\S+\s+(set\s+data\s+)?type\b/i },
  { what: "makes a column NOT NULL (SET NOT NULL)", pattern: /\bset\s+not\s+null\b/i },
  { what: "drops a column's default (DROP DEFAULT)", pattern: /\bdrop\s+default\b/i },
];

export interface MigrationFile {
  name: string;
  path: string;
  source: string;
  /** the reason its `// breaking:` marker gives, if it has one */
  breaking: string | undefined;
  make: (dialect: "sqlite") => Migration;
}

/**
 * The migrations src/store/migrations.ts registers, in the order the migrator applies them (by
 * name), each with its source and the function that makes it, as that file imports it.
 */
export async function registeredMigrations(): Promise<MigrationFile[]> {
  const registry = readFileSync(REGISTRY, "utf8");
  const fileOf = new Map<string, string>();
  for (const m of registry.matchAll(/import\s*\{([^}]*)\}\s*from\s*"\.\/migrations\/([\w.]+\.ts)"/g)) {
    for (const fn of m[1]!.split(",")) fileOf.set(fn.trim(), m[2]!);
  }
  const entries = [...registry.matchAll(/"(\d{3}_\w+)":\s*(\w+)\(/g)].map((m) => ({ name: m[1]!, fn: m[2]! }));
  const files: MigrationFile[] = [];
  for (const { name, fn } of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const file = fileOf.get(fn);
    if (!file) throw new Error(`src/store/migrations.ts registers ${name} as ${fn}(), imported from no file of migrations/`);
    const path = join(MIGRATIONS_DIR, file);
    const source = readFileSync(path, "utf8");
    const mod = (await import(pathToFileURL(path).href)) as Record<string, (dialect: "sqlite") => Migration>;
    files.push({ name, path, source, breaking: BREAKING_MARKER.exec(source)?.[1], make: mod[fn]! });
  }
  return files;
}

/** the migration files of src/store/migrations/ (its tests aside) */
export function migrationFileNames(): string[] {
  return readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts")).sort();
}

/** The destructive operations in `source`, with their line numbers; comments are not code. */
export function destructiveOperations(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, " ")).replace(/(^|\s)\/\/.*$/gm, "$1");
  const found: string[] = [];
  for (const { what, pattern } of DESTRUCTIVE) {
    const global = new RegExp(pattern.source, pattern.flags + "g");
    for (const m of code.matchAll(global)) {
      const line = code.slice(0, m.index).split("\n").length;
      found.push(`line ${line}: ${what}: ${source.split("\n")[line - 1]!.trim()}`);
    }
  }
  return found;
}

interface Column {
  type: string;
  notnull: number;
  dflt_value: string | null;
  pk: number;
}
/** table → column → how it is declared */
export type Schema = Map<string, Map<string, Column>>;

/** The tables of an SQLite database and their columns as declared (PRAGMA table_info). */
export function schemaOf(file: Sqlite.Database, skip: (table: string) => boolean = () => false): Schema {
  const tables = file.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name").all() as { name: string }[];
  const schema: Schema = new Map();
  for (const { name } of tables.filter((t) => !skip(t.name))) {
    const columns = file.pragma(`table_info(${JSON.stringify(name)})`) as (Column & { name: string })[];
    schema.set(name, new Map(columns.map(({ name: column, type, notnull, dflt_value, pk }) => [column, { type, notnull, dflt_value, pk }])));
  }
  return schema;
}

/**
 * What a node of the previous version (which knows `before`) can't do on `after`: a table or
 * column it uses gone, a column retyped or made stricter, or a new column its inserts can't
 * leave out (NOT NULL without a default).
 */
export function breakingChanges(before: Schema, after: Schema): string[] {
  const problems: string[] = [];
  for (const [table, columns] of before) {
    const now = after.get(table);
    if (!now) {
      problems.push(`table ${table} is gone (dropped or renamed)`);
      continue;
    }
    for (const [name, was] of columns) {
      const is = now.get(name);
      if (!is) problems.push(`column ${table}.${name} is gone (dropped or renamed)`);
      else if (is.type !== was.type) problems.push(`column ${table}.${name} changed type: ${was.type} → ${is.type}`);
      else if (is.notnull > was.notnull) problems.push(`column ${table}.${name} became NOT NULL`);
      else if (is.notnull && was.dflt_value !== null && is.dflt_value === null) problems.push(`column ${table}.${name} lost its default`);
    }
    for (const [name, is] of now) {
      if (!columns.has(name) && is.notnull && is.dflt_value === null && !is.pk) {
        problems.push(`new column ${table}.${name} is NOT NULL without a default: the previous version's inserts leave it out`);
      }
    }
  }
  return problems;
}
