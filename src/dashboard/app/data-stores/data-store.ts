import type { paths } from "../../../client/index.ts";

type Json<T> = T extends { content: { "application/json": infer B } } ? B : never;

export type DataStore = Json<paths["/v1/data_stores/{id}"]["get"]["responses"][200]>["data"];

/** A record as listed, with its key as the `id` the paged lists go by. */
export type StoreRecord = Json<paths["/v1/data_stores/{id}/records"]["get"]["responses"][200]>["data"][number] & { id: string };

/** The inputs of the forms, by the API's field names (its 400 details). */
export const STORE_FIELDS = ["name"] as const;
export const RECORD_FIELDS = ["key", "value", "ttl"] as const;
