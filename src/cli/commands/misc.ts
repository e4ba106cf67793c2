import { api } from "../profile.ts";
import { CliError, colors, findEndpoint, parseJsonOption, printJson, unwrap, withSpinner } from "../output.ts";

// run, delete, subscribe, unsubscribe, users create

export async function run(id: string, opts: { event?: string; json?: boolean }): Promise<void> {
  const { client, profile } = api();
  const kind = id.startsWith("dc_") ? "sources" : id.startsWith("p_") ? "workflows" : undefined;
  if (!kind) throw new CliError(`cannot run ${id}`, "source ids start with dc_, workflow ids with p_");
  const event = opts.event === undefined ? undefined : parseJsonOption("--event", opts.event);
  const p = { params: { path: { id } } };
  // An HTTP source gets the event as a request to its endpoint (so its run sees a request, body
  // and all), reached through the profile's URL (the public URL may not be reachable from here).
  if (event !== undefined && kind === "sources") {
    const endpoint = findEndpoint(unwrap(await client.GET("/v1/sources/{id}", p)));
    if (endpoint) {
      const u = new URL(endpoint);
      const res = await fetch(`${profile.url}${u.pathname}${u.search}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(event) });
      const body = await res.text();
      if (!res.ok) throw new CliError(`the endpoint answered ${res.status}: ${body.slice(0, 200)}`);
      if (opts.json) printJson({ sent: event, status: res.status });
      else process.stdout.write(`Sent the event to ${colors.bold(id)} (${res.status}); see \`tributary events ${id}\`\n`);
      return;
    }
  }
  // Anything else runs now through the API, with the event when one is given: a workflow gets it
  // as steps.trigger.event, a source's run(event) as its argument.
  // (the run endpoints' body is optional, so the generated types don't declare it)
  const init = { ...p, ...(event !== undefined ? { body: { event } } : {}) } as typeof p;
  const res = await withSpinner(`Running ${id}`, Boolean(opts.json), () =>
    kind === "sources" ? client.POST("/v1/sources/{id}/run", init) : client.POST("/v1/workflows/{id}/run", init),
  );
  const data = unwrap(res);
  if (opts.json) printJson(data ?? { ok: true });
  else process.stdout.write(`Started a run of ${colors.bold(id)}${event !== undefined ? " with the event" : ""}; see \`tributary events ${id}\`\n`);
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
