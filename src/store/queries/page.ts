import type { Kysely } from "kysely";
import type { Page, PageRequest } from "../port.ts";

type Table = "users" | "workflows" | "webhooks" | "accounts" | "components" | "webhook_deliveries" | "workflow_runs";

/**
 * Newest-first page of `table` rows (optionally of one user) around a cursor id.
 * `where` narrows the list further (column = value).
 * Returns undefined when the cursor id isn't an item of this list (→ 400 upstream).
 */
export async function pageRows<R>(
  db: Kysely<any>,
  table: Table,
  userId: string | undefined,
  page: PageRequest,
  where: Record<string, string | number> = {},
): Promise<Page<R> | undefined> {
  const scoped = () => {
    let q = db.selectFrom(table);
    if (userId !== undefined) q = q.where("user_id", "=", userId);
    for (const [column, value] of Object.entries(where)) q = q.where(column, "=", value);
    return q;
  };
  const cursorId = page.afterId ?? page.beforeId;
  let cursorSeq: number | undefined;
  if (cursorId !== undefined) {
    const hit = await scoped().select("seq").where("id", "=", cursorId).executeTakeFirst();
    if (!hit) return undefined;
    cursorSeq = Number(hit.seq);
  }
  let q = scoped().selectAll();
  if (page.afterId !== undefined) q = q.where("seq", "<", cursorSeq).orderBy("seq", "desc");
  else if (page.beforeId !== undefined) q = q.where("seq", ">", cursorSeq).orderBy("seq", "asc");
  else q = q.orderBy("seq", "desc");
  const rows = (await q.limit(page.limit).execute()) as R[];
  if (page.beforeId !== undefined) rows.reverse();
  const counted = await scoped()
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return { items: rows, total: Number(counted.n) };
}
