import type { ComponentMeta } from "../../runtime/types.ts";
import type { DataStoreStore, UserRow } from "../../store/port.ts";
import { notFound } from "../../lib/errors.ts";
import type { InvokeResult } from "../../runtime/protocol.ts";

// A `data_store` prop is configured as `{"dataStoreId": "ds_..."}` (docs/writing-workflows.md, "Data stores"), and the id is
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

/** The `data_store` props of a component that name a store: prop name -> store id. */
function dataStoreProps(meta: ComponentMeta, props: Record<string, unknown>): Map<string, string> {
  const named = new Map<string, string>();
  for (const p of meta.props) {
    if (p.type !== DATA_STORE || !Object.hasOwn(props, p.name)) continue;
    const id = dataStoreIdOf(props[p.name]);
    if (id !== undefined) named.set(p.name, id);
  }
  return named;
}

/**
 * Every data store a `data_store` prop names must be the user's, looked up on every save: one
 * that isn't reads exactly like one that doesn't exist (404), so another user's ids (they are no
 * secret: they stand in URLs, workflow JSON and logs) tell nothing. What a prop held before counts
 * for nothing but this: a store of the user's deleted since, still named by the same prop, doesn't
 * stop an edit of something else (its runs then fail, saying so). A value saved under another
 * type (an `object` prop holding `{dataStoreId}`) was never checked, so it is checked like any.
 */
export async function checkDataStoreRefs(
  stores: DataStoreStore,
  user: UserRow,
  meta: ComponentMeta,
  props: Record<string, unknown>,
  previous: Record<string, unknown> = {},
): Promise<void> {
  const named = dataStoreProps(meta, props);
  if (named.size === 0) return;
  const owners = await stores.ownersOf([...new Set(named.values())].filter((id) => id.startsWith("ds_")));
  for (const [prop, id] of named) {
    const owner = owners.get(id);
    if (owner === user.id) continue;
    const deletedSince = owner === undefined && Object.hasOwn(previous, prop) && dataStoreIdOf(previous[prop]) === id;
    if (!deletedSince) throw notFound("data store");
  }
}

/**
 * The stores of `ids` a run of `userId` may not open: deleted, or (it can't be saved so, but a
 * run checks again) another user's. The run fails naming them rather than reading nothing.
 */
export async function unopenableStores(stores: DataStoreStore, userId: string, ids: readonly string[]): Promise<string[]> {
  const owners = await stores.ownersOf(ids);
  return ids.filter((id) => owners.get(id) !== userId);
}

/** The invocation that may not open `ids`: failed before it ran, with nothing else done. */
export function storeFailure(ids: readonly string[], cellId?: string): InvokeResult {
  const message = `data store ${ids.join(", ")} can't be opened: it was deleted, or is not yours. Choose another store for the prop and save again`;
  const error = { name: "DataStoreError", message, stack: "", ...(cellId ? { cellId, code: "DataStoreError" } : {}) };
  return { emits: [], db: null, logs: [], emitErrors: [], wallMs: 0, error };
}
