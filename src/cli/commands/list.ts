import { api } from "../profile.ts";
import { ago, CliError, printJson, printTable, unwrap } from "../output.ts";

type Row = Record<string, any>;
const KINDS = ["sources", "workflows", "subscriptions", "webhooks", "components", "accounts", "registry"] as const;

function when(r: Row): string {
  return ago(r.updated_at ?? r.created_at);
}

export async function list(kind: string, opts: { json?: boolean }): Promise<void> {
  if (!(KINDS as readonly string[]).includes(kind)) throw new CliError(`unknown list: ${kind}`, `one of: ${KINDS.join(", ")}`);
  const { client } = api();
  let rows: Row[];
  let head: string[];
  let cells: (r: Row) => unknown[];
  switch (kind) {
    case "sources":
      rows = (unwrap(await client.GET("/v1/users/me/sources/")) as { data: Row[] }).data;
      head = ["ID", "NAME", "COMPONENT", "ACTIVE", "UPDATED"];
      cells = (r) => [r.id, r.name, r.component_key ?? r.component_id, r.active === false ? "no" : "yes", when(r)];
      break;
    case "workflows":
      rows = (unwrap(await client.GET("/v1/users/me/workflows")) as { data: Row[] }).data;
      head = ["ID", "NAME", "ACTIVE", "UPDATED"];
      cells = (r) => [r.id, r.name, r.active === false ? "no" : "yes", when(r)];
      break;
    case "subscriptions":
      rows = (unwrap(await client.GET("/v1/users/me/subscriptions")) as { data: Row[] }).data;
      head = ["ID", "EMITTER", "LISTENER", "STREAM"];
      cells = (r) => [r.id, r.emitter_id, r.listener_id, r.event_name || "default"];
      break;
    case "webhooks":
      rows = (unwrap(await client.GET("/v1/users/me/webhooks")) as { data: Row[] }).data;
      head = ["ID", "NAME", "URL", "CREATED"];
      cells = (r) => [r.id, r.name, r.url, ago(r.created_at)];
      break;
    case "components":
      rows = (unwrap(await client.GET("/v1/users/me/components")) as { data: Row[] }).data;
      head = ["ID", "KEY", "NAME", "VERSION", "CREATED"];
      cells = (r) => [r.id, r.key, r.name, r.version, ago(r.created_at)];
      break;
    case "accounts":
      rows = (unwrap(await client.GET("/v1/users/me/accounts")) as { data: Row[] }).data;
      head = ["ID", "APP", "NAME", "CREATED"];
      cells = (r) => [r.id, r.app ?? r.app_slug, r.name, ago(r.created_at)];
      break;
    default:
      rows = (unwrap(await client.GET("/v1/components/registry")) as { data: Row[] }).data;
      head = ["ID", "KEY", "NAME", "VERSION", "DESCRIPTION"];
      cells = (r) => [r.id, r.key, r.name, r.version, typeof r.description === "string" && r.description.length > 60 ? r.description.slice(0, 57) + "..." : r.description];
  }
  if (opts.json) return printJson(rows);
  printTable(head, rows.map((r) => cells(r) as string[]));
}
