import { api } from "../profile.ts";
import { CliError, colors, printJson, unwrap } from "../output.ts";

// delete, subscribe, unsubscribe, users create (run: run-now.ts)

export async function remove(id: string, opts: { json?: boolean }): Promise<void> {
  const { client } = api();
  const p = { params: { path: { id } } };
  let res;
  if (id.startsWith("dc_")) res = await client.DELETE("/v1/sources/{id}", p);
  else if (id.startsWith("p_")) res = await client.DELETE("/v1/workflows/{id}", p);
  else if (id.startsWith("wh_")) res = await client.DELETE("/v1/webhooks/{id}", p);
  else if (id.startsWith("apn_")) res = await client.DELETE("/v1/accounts/{id}", p);
  else throw new CliError(`cannot tell what ${id} is`, "delete takes a source (dc_), workflow (p_), webhook (wh_) or account (apn_) id");
  unwrap(res);
  if (opts.json) printJson({ deleted: id });
  else process.stdout.write(`Deleted ${colors.bold(id)}\n`);
}

export async function subscribe(emitter: string, listener: string, opts: { stream?: string; json?: boolean }): Promise<void> {
  const { client } = api();
  const query = { emitter_id: emitter, listener_id: listener, ...(opts.stream ? { event_name: opts.stream } : {}) };
  const data = (unwrap(await client.POST("/v1/subscriptions", { params: { query } })) as { data: unknown }).data;
  if (opts.json) printJson(data);
  else process.stdout.write(`Subscribed ${colors.bold(listener)} to ${colors.bold(emitter)}${opts.stream ? ` (${opts.stream})` : ""}\n`);
}

export async function unsubscribe(emitter: string, listener: string, opts: { stream?: string; json?: boolean }): Promise<void> {
  const { client } = api();
  const query = { emitter_id: emitter, listener_id: listener, ...(opts.stream ? { event_name: opts.stream } : {}) };
  unwrap(await client.DELETE("/v1/subscriptions", { params: { query } }));
  if (opts.json) printJson({ unsubscribed: { emitter_id: emitter, listener_id: listener } });
  else process.stdout.write(`Unsubscribed ${colors.bold(listener)} from ${colors.bold(emitter)}\n`);
}

export async function createUser(username: string, email: string, opts: { json?: boolean }): Promise<void> {
  const { client } = api();
  const data = (unwrap(await client.POST("/v1/users", { body: { username, email } }), undefined) as { data: { id: string; api_key?: string } }).data;
  if (opts.json) printJson(data);
  else process.stdout.write(`Created ${colors.bold(username)} (${data.id}). Its API key, shown only this once:\n\n  ${data.api_key}\n\n`);
}
