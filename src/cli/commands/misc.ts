import { api } from "../profile.ts";
import { CliError, colors, findEndpoint, printJson, unwrap, withSpinner } from "../output.ts";

// run, delete, subscribe, unsubscribe, users create

export async function run(id: string, opts: { event?: string; json?: boolean }): Promise<void> {
  const { client, profile } = api();
  if (opts.event !== undefined) {
    let event: unknown;
    try {
      event = JSON.parse(opts.event);
    } catch {
      throw new CliError("--event: not JSON", `e.g. --event '{"hello":"world"}'`);
    }
    // the run endpoints take no event: an HTTP source or workflow gets it at its endpoint,
    // reached through the profile's URL (the public URL may not be reachable from here)
    const p = { params: { path: { id } } };
    const found = id.startsWith("p_") ? unwrap(await client.GET("/v1/workflows/{id}", p)) : unwrap(await client.GET("/v1/sources/{id}", p));
    const endpoint = findEndpoint(found);
    if (!endpoint) throw new CliError(`${id} has no HTTP endpoint to send --event to`, "run it without --event, or give the component an $.interface.http prop");
    const u = new URL(endpoint);
    const res = await fetch(`${profile.url}${u.pathname}${u.search}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(event) });
    const body = await res.text();
    if (!res.ok) throw new CliError(`the endpoint answered ${res.status}: ${body.slice(0, 200)}`);
    if (opts.json) printJson({ sent: event, status: res.status });
    else process.stdout.write(`Sent the event to ${colors.bold(id)} (${res.status}); see \`tributary events ${id}\`\n`);
    return;
  }
  let res;
  if (id.startsWith("dc_")) res = await withSpinner(`Running ${id}`, Boolean(opts.json), () => client.POST("/v1/sources/{id}/run", { params: { path: { id } } }));
  else if (id.startsWith("p_")) res = await withSpinner(`Running ${id}`, Boolean(opts.json), () => client.POST("/v1/workflows/{id}/run", { params: { path: { id } } }));
  else throw new CliError(`cannot run ${id}`, "source ids start with dc_, workflow ids with p_");
  const data = unwrap(res);
  if (opts.json) printJson(data ?? { ok: true });
  else process.stdout.write(`Started a run of ${colors.bold(id)}; see \`tributary events ${id}\`\n`);
}

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
