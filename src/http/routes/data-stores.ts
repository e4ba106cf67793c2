import { Type, type FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyRequest } from "fastify";
import type { Core } from "../../core/core.ts";
import { encodeKeyCursor } from "../../core/data-stores/input.ts";
import { Deleted, Filter, IdParams, Paging, data, page, withErrors } from "../schemas.ts";
import { pageEnvelope, pageRequest } from "../pagination.ts";

// Data stores (Pipedream's `ds_` ids) and their records. A record's key is the rest of the path,
// URL-decoded: `/records/a%2Fb` is the key `a/b`.

export const DataStore = Type.Object({
  id: Type.String({ description: "`ds_...`" }),
  name: Type.String(),
  created_at: Type.Integer(),
  updated_at: Type.Integer(),
  keys: Type.Integer({ description: "live records (expired ones never count)" }),
});

export const DataStoreRecord = Type.Object({
  key: Type.String(),
  value: Type.Unknown({ description: "any JSON" }),
  expires_at_ms: Type.Union([Type.Integer(), Type.Null()], { description: "when the record expires (ms); null: never" }),
});

// Checked field by field in core (one 400 lists every problem), so the schemas only document them.
const StoreBody = Type.Object({
  name: Type.Optional(Type.Unknown({ description: "string of 1 to 200 characters" })),
  ...Filter,
});
const RecordBody = Type.Object({
  value: Type.Optional(Type.Unknown({ description: "required: any JSON, at most 256 KiB as JSON" })),
  ttl: Type.Optional(Type.Unknown({ description: "seconds until it expires (positive integer); null: never; absent: the record's expiry stays" })),
  ...Filter,
});
const RecordQuery = Type.Object({
  prefix: Type.Optional(Type.String({ description: "only keys that start with it" })),
  limit: Paging.limit,
  after: Type.Optional(Type.String({ description: "a page's end_cursor: the records after its last key" })),
  before: Type.Optional(Type.String({ description: "not supported: records page forward only" })),
  ...Filter,
});
const KeyParams = Type.Object({ id: Type.String(), key: Type.String({ description: "the key, URL-encoded (encodeURIComponent)" }) });
const RestParams = Type.Object({ id: Type.String(), "*": Type.String() });
const RecordDeleted = Type.Object({ key: Type.String(), deleted: Type.Boolean() });

/** The key of a record route: a path parameter, or the rest of the path (see below). */
const keyOf = (req: FastifyRequest): string => {
  const p = req.params as { key?: string; "*"?: string };
  return p.key ?? p["*"] ?? "";
};

export function dataStoreRoutes(core: Core): FastifyPluginAsyncTypebox {
  return async (app) => {
    const stores = core.dataStores;
    const view = (s: Parameters<typeof stores.view>[0]) => stores.view(s);
    const tags = ["data stores"];

    // the sweep of expired records lives as long as the server (app.ts closes all from its onClose)
    app.addHook("onReady", async () => core.dataStoreSweep.start((err) => app.log.warn({ err }, "data store sweep failed")));
    app.addHook("onClose", async () => core.dataStoreSweep.close());

    app.post("/data_stores", { schema: { tags, body: StoreBody, response: withErrors({ 200: data(DataStore) }) } }, async (req) => ({
      data: view(await stores.create(req.user, req.body)),
    }));

    app.get(
      "/data_stores/:id",
      { schema: { tags, params: IdParams, querystring: Type.Object(Filter), response: withErrors({ 200: data(DataStore) }) } },
      async (req) => ({ data: view(await stores.get(req.user, req.params.id)) }),
    );

    app.put(
      "/data_stores/:id",
      { schema: { tags, params: IdParams, body: StoreBody, response: withErrors({ 200: data(DataStore) }) } },
      async (req) => ({ data: view(await stores.rename(req.user, req.params.id, req.body)) }),
    );

    app.delete("/data_stores/:id", { schema: { tags, params: IdParams, response: withErrors({ 200: data(Deleted) }) } }, async (req) => {
      await stores.delete(req.user, req.params.id);
      return { data: { id: req.params.id, deleted: true } };
    });

    app.get(
      "/users/me/data_stores",
      { schema: { tags, querystring: Type.Object({ ...Filter, ...Paging }), response: withErrors({ 200: page(DataStore) }) } },
      async (req) => {
        const { items, total } = await stores.list(req.user, pageRequest(req.query));
        return pageEnvelope(items, total, view);
      },
    );

    app.get(
      "/data_stores/:id/records",
      { schema: { tags, params: IdParams, querystring: RecordQuery, response: withErrors({ 200: page(DataStoreRecord) }) } },
      async (req) => {
        const { items, total } = await stores.records(req.user, req.params.id, req.query);
        const cursor = (i: number) => (items.length ? encodeKeyCursor(items[i]!.key) : "");
        const pageInfo = { total_count: total, count: items.length, start_cursor: cursor(0), end_cursor: cursor(items.length - 1) };
        return { page_info: pageInfo, data: items.map((r) => stores.recordView(r)) };
      },
    );

    // Each record route twice: `:key` (documented) takes a key of one path segment; the router
    // refuses a parameter over 100 characters, so `*` (hidden) takes longer keys (up to 1 KiB)
    // and keys sent with a raw `/`.
    for (const [path, params, hide] of [
      ["/data_stores/:id/records/:key", KeyParams, false],
      ["/data_stores/:id/records/*", RestParams, true],
    ] as const) {
      app.get(path, { schema: { tags, hide, params, querystring: Type.Object(Filter), response: withErrors({ 200: data(DataStoreRecord) }) } }, async (req) => ({
        data: stores.recordView(await stores.getRecord(req.user, (req.params as { id: string }).id, keyOf(req))),
      }));

      app.put(path, { schema: { tags, hide, params, body: RecordBody, response: withErrors({ 200: data(DataStoreRecord) }, [409]) } }, async (req) => ({
        data: await stores.putRecord(req.user, (req.params as { id: string }).id, keyOf(req), req.body),
      }));

      app.delete(path, { schema: { tags, hide, params, response: withErrors({ 200: data(RecordDeleted) }) } }, async (req) => {
        const key = keyOf(req);
        await stores.deleteRecord(req.user, (req.params as { id: string }).id, key);
        return { data: { key, deleted: true } };
      });
    }
  };
}
