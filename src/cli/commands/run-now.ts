import { api } from "../profile.ts";
import { CliError, colors, findEndpoint, parseJsonOption, printJson, unwrap, withSpinner } from "../output.ts";
import type { TributaryClient } from "../../client/index.ts";

// `tributary run ID`: run a source or workflow now. An HTTP workflow is sent the http form
// (docs/api.md, "Run an HTTP workflow now"), so its steps read steps.trigger.event.body as they
// do for a real request; --event hands an event over as it is.

export interface RunOptions {
  event?: string;
  body?: string;
  header?: string[];
  method?: string;
  json?: boolean;
}

/** `--header "Name: value"` as {name: value} */
export function parseHeaders(lines: string[] = []): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(":");
    if (i <= 0) throw new CliError(`--header ${line}: expected "Name: value"`, `e.g. --header "X-Token: abc"`);
    headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return headers;
}

export async function run(id: string, opts: RunOptions): Promise<void> {
  const { client, profile } = api();
  const kind = id.startsWith("dc_") ? "sources" : id.startsWith("p_") ? "workflows" : undefined;
  if (!kind) throw new CliError(`cannot run ${id}`, "source ids start with dc_, workflow ids with p_");
  const request = opts.body !== undefined || opts.header !== undefined || opts.method !== undefined;
  if (opts.event !== undefined && request) throw new CliError("--event can't go with --body, --header or --method", "--event hands an event over as it is; --body (with --header, --method) sends a request");
  const event = opts.event === undefined ? undefined : parseJsonOption("--event", opts.event);
  const p = { params: { path: { id } } };
  if (kind === "sources") {
    if (request) throw new CliError("--body, --header and --method are for HTTP workflows", "a source takes --event");
    return runSource(client, profile.url, id, event, Boolean(opts.json));
  }
  const trigger = (unwrap(await client.GET("/v1/workflows/{id}", p)) as { data: { trigger: { type: string } } }).data.trigger;
  if (request && trigger.type !== "http") throw new CliError(`--body, --header and --method are for HTTP workflows; ${id}'s trigger is ${trigger.type}`, `send an event: --event '{"n": 1}'`);
  const http = trigger.type === "http" && event === undefined
    ? { method: (opts.method ?? "POST").toUpperCase(), headers: parseHeaders(opts.header), ...(opts.body === undefined ? {} : { body: parseJsonOption("--body", opts.body) }) }
    : undefined;
  // (the run endpoint's body is optional, so the generated types don't declare it)
  const init = { ...p, body: http ? { http } : event !== undefined ? { event } : {} } as typeof p;
  const answer = unwrap(await withSpinner(`Running ${id}`, Boolean(opts.json), () => client.POST("/v1/workflows/{id}/run", init)));
  // the run's id comes with the answer: no guessing among runs started at the same moment
  const runId = (answer as { data: { run_id: string } }).data.run_id;
  if (opts.json) return printJson({ accepted: true, run_id: runId });
  process.stdout.write(`Started run ${colors.bold(runId)} of ${colors.bold(id)}${http ? ` (${http.method} request)` : event !== undefined ? " with the event" : ""}; see \`tributary run show ${runId}\`\n`);
}

async function runSource(client: TributaryClient, base: string, id: string, event: unknown, json: boolean): Promise<void> {
  const p = { params: { path: { id } } };
  // An HTTP source gets the event as a request to its endpoint (so its run sees a request, body
  // and all), reached through the profile's URL (the public URL may not be reachable from here).
  if (event !== undefined) {
    const endpoint = findEndpoint(unwrap(await client.GET("/v1/sources/{id}", p)));
    if (endpoint) {
      const u = new URL(endpoint);
      const res = await fetch(`${base}${u.pathname}${u.search}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(event) });
      const body = await res.text();
      if (!res.ok) throw new CliError(`the endpoint answered ${res.status}: ${body.slice(0, 200)}`);
      if (json) printJson({ sent: event, status: res.status });
      else process.stdout.write(`Sent the event to ${colors.bold(id)} (${res.status}); see \`tributary events ${id}\`\n`);
      return;
    }
  }
  // Anything else runs now through the API, its run(event) getting the event as its argument.
  const init = { ...p, ...(event !== undefined ? { body: { event } } : {}) } as typeof p;
  const data = unwrap(await withSpinner(`Running ${id}`, json, () => client.POST("/v1/sources/{id}/run", init)));
  if (json) printJson(data ?? { ok: true });
  else process.stdout.write(`Started a run of ${colors.bold(id)}${event !== undefined ? " with the event" : ""}; see \`tributary events ${id}\`\n`);
}
