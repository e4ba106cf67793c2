import type { ComponentMeta } from "../../runtime/types.ts";
import type { DataStoreStore, UserRow } from "../../store/port.ts";
import { notFound } from "../../lib/errors.ts";

// A `data_store` prop is configured as `{"dataStoreId": "ds_..."}` (workflows §1), and the id is
// all that is stored: the records live in the store, read and written by the runs themselves.

export const DATA_STORE = "data_store";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The data store a configured value names, if it names one. */
export function dataStoreIdOf(value: unknown): string | undefined {
  return isObject(value) && typeof value.dataStoreId === "string" ? value.dataStoreId : undefined;
}

/** Every data store the stored props of a component name. */
export function dataStoreIds(meta: ComponentMeta | undefined, props: Record<string, unknown> | undefined): string[] {
  if (!meta || !props) return [];
  const ids: string[] = [];
  for (const p of meta.props) {
    if (p.type !== DATA_STORE || !Object.hasOwn(props, p.name)) continue;
    const id = dataStoreIdOf(props[p.name]);
    if (id !== undefined) ids.push(id);
  }
  return ids;
}

/**
 * Every data store the props name must be the user's: one that isn't reads exactly like one that
 * doesn't exist (404), so another user's ids tell nothing. Those `previous` props named already
 * were checked then: a store deleted since doesn't stop an edit of something else (its runs read
 * nothing from it and their writes to it are dropped).
 */
export async function checkDataStoreRefs(
  stores: DataStoreStore,
  user: UserRow,
  meta: ComponentMeta,
  props: Record<string, unknown>,
  previous: Record<string, unknown> = {},
): Promise<void> {
  const known = new Set(Object.values(previous).map(dataStoreIdOf));
  for (const id of dataStoreIds(meta, props)) {
    if (known.has(id)) continue;
    const row = id.startsWith("ds_") ? await stores.byId(id, Date.now()) : undefined;
    if (!row || row.user_id !== user.id) throw notFound("data store");
  }
}
