import { CompiledQuery, type Kysely } from "kysely";

// The commit's hot statements (multi-row inserts of events, deliveries and inbox rows, deletes
// by a list of keys) as SQL text made once per shape and run as compiled queries. Kysely's
// builder turned each 64-row insert into operation nodes and compiled them again every time:
// with 100 listeners per event that was more main-thread time than SQLite took to run it. The
// text is made here from fixed table and column names (never from input); values are parameters.

export type Dialect = "sqlite" | "postgres";

// Rows per multi-row statement. A fixed chunk keeps the set of SQL strings (and so of prepared
// statements) small; only a batch's remainder makes a statement of another size.
const CHUNK = 64;

export function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

const texts = new Map<string, string>();

function placeholders(dialect: Dialect, rows: number, columns: number): string {
  const groups: string[] = [];
  let n = 0;
  for (let r = 0; r < rows; r++) {
    const one: string[] = [];
    for (let c = 0; c < columns; c++) one.push(dialect === "sqlite" ? "?" : `$${++n}`);
    groups.push(`(${one.join(", ")})`);
  }
  return groups.join(", ");
}

function text(key: string, make: () => string): string {
  let t = texts.get(key);
  if (t === undefined) {
    t = make();
    texts.set(key, t);
  }
  return t;
}

/**
 * INSERT INTO table (columns) VALUES (...), (...) [tail]; `tail` is fixed SQL (ON CONFLICT ...,
 * RETURNING ...). Values are taken from each row by column name, in order.
 */
export async function insertRows<R>(
  db: Kysely<any>,
  dialect: Dialect,
  table: string,
  columns: readonly (keyof R & string)[],
  rows: readonly R[],
  tail = "",
): Promise<Array<Record<string, unknown>>> {
  if (rows.length === 0) return [];
  const sql = text(`${dialect}\0i\0${table}\0${columns.join(",")}\0${rows.length}\0${tail}`, () => {
    const cols = columns.map((c) => `"${c}"`).join(", ");
    return `insert into "${table}" (${cols}) values ${placeholders(dialect, rows.length, columns.length)}${tail ? ` ${tail}` : ""}`;
  });
  const params: unknown[] = [];
  // an optional field left out of a row (RunRow.started_by) is written as null
  for (const row of rows) for (const c of columns) params.push(row[c] ?? null);
  const result = await db.executeQuery(CompiledQuery.raw(sql, params));
  return result.rows as Array<Record<string, unknown>>;
}

/** DELETE FROM table WHERE column IN (...keys); resolves to the rows deleted */
export async function deleteWhereIn(db: Kysely<any>, dialect: Dialect, table: string, column: string, keys: readonly (string | number)[]): Promise<number> {
  if (keys.length === 0) return 0;
  const sql = text(`${dialect}\0d\0${table}\0${column}\0${keys.length}`, () => {
    // one "row" of keys.length placeholders is the parenthesised list IN wants
    return `delete from "${table}" where "${column}" in ${placeholders(dialect, 1, keys.length)}`;
  });
  const result = await db.executeQuery(CompiledQuery.raw(sql, [...keys]));
  return Number(result.numAffectedRows ?? 0n);
}
