import { api } from "../profile.ts";
import { CliError, ago, colors, printJson, printTable, printable, unwrap } from "../output.ts";

// Environment variables (process.env in every run) and data stores with their records.

export async function envList(opts: { json?: boolean }): Promise<void> {
  const { client } = api();
  const rows = (unwrap(await client.GET("/v1/users/me/env")) as { data: Array<{ name: string; secret: boolean; value?: string; updated_at: number }> }).data;
  if (opts.json) printJson(rows);
  else printTable(["NAME", "VALUE", "UPDATED"], rows.map((r) => [r.name, r.secret ? colors.dim("(secret)") : (r.value ?? ""), ago(r.updated_at)]));
}

export async function envSet(name: string, value: string, opts: { secret?: boolean; json?: boolean }): Promise<void> {
  const { client } = api();
  const body = { value, ...(opts.secret ? { secret: true } : {}) };
  const data = (unwrap(await client.PUT("/v1/users/me/env/{name}", { params: { path: { name } }, body })) as { data: unknown }).data;
  if (opts.json) printJson(data);
  else process.stdout.write(`Set ${colors.bold(name)}${opts.secret ? " (secret)" : ""}\n`);
}

export async function envUnset(name: string, opts: { json?: boolean }): Promise<void> {
  const { client } = api();
  unwrap(await client.DELETE("/v1/users/me/env/{name}", { params: { path: { name } } }));
  if (opts.json) printJson({ name, deleted: true });
  else process.stdout.write(`Unset ${colors.bold(name)}\n`);
}

export async function dataStores(opts: { json?: boolean }): Promise<void> {
  const { client } = api();
  const rows = (unwrap(await client.GET("/v1/users/me/data_stores", { params: { query: { limit: 100 } } })) as { data: Array<{ id: string; name: string; keys: number; created_at: number }> }).data;
  if (opts.json) printJson(rows);
  else printTable(["ID", "NAME", "KEYS", "CREATED"], rows.map((s) => [s.id, s.name, s.keys, ago(s.created_at)]));
}

export async function createDataStore(name: string, opts: { json?: boolean }): Promise<void> {
  const { client } = api();
  const data = (unwrap(await client.POST("/v1/data_stores", { body: { name } })) as { data: { id: string; name: string } }).data;
  if (opts.json) printJson(data);
  else process.stdout.write(`Created data store ${colors.bold(data.name)} (${data.id}); see \`tributary records ${data.id}\`\n`);
}

export async function records(storeId: string, opts: { prefix?: string; limit?: string; json?: boolean }): Promise<void> {
  if (!storeId.startsWith("ds_")) throw new CliError(`${storeId} is not a data store`, "data store ids start with ds_: `tributary datastores list`");
  const { client } = api();
  const limit = opts.limit ? Number(opts.limit) : 100;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new CliError("--limit takes 1 to 100");
  const query = { limit, ...(opts.prefix ? { prefix: opts.prefix } : {}) };
  const rows = (unwrap(await client.GET("/v1/data_stores/{id}/records", { params: { path: { id: storeId }, query } })) as { data: Array<{ key: string; value: unknown; expires_at_ms: number | null }> }).data;
  if (opts.json) printJson(rows);
  else {
    const cut = (s: string) => (s.length > 80 ? `${s.slice(0, 79)}…` : s);
    printTable(["KEY", "VALUE", "EXPIRES"], rows.map((r) => [r.key, printable(cut(JSON.stringify(r.value))), r.expires_at_ms === null ? "" : ago(r.expires_at_ms)]));
  }
}
