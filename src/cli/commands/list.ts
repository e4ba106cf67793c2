import { api } from "../profile.ts";
import { ago, CliError, printJson, printTable, unwrap } from "../output.ts";

type Row = Record<string, any>;
const KINDS = ["sources", "workflows", "subscriptions", "webhooks", "components", "accounts", "registry"] as const;

interface Page { data: Row[]; page_info?: { end_cursor?: string; total_count?: number; count?: number } }

/** every page of a list (pages of 100, following end_cursor) */
async function all(page: (query: { limit: number; after?: string }) => Promise<{ data?: unknown; error?: unknown; response: Response }>): Promise<Row[]> {
  const rows: Row[] = [];
  let after: string | undefined;
  for (;;) {
    const p = unwrap(await page({ limit: 100, ...(after ? { after } : {}) })) as Page;
    rows.push(...p.data);
    const next = p.page_info?.end_cursor;
    if (p.data.length < 100 || !next || next === after) return rows;
    after = next;
  }
}

function when(r: Row): string {
  return ago(r.updated_at ?? r.created_at);
}

// what a source of the component is configured with (the API's Component has no key or description)
function propNames(r: Row): string {
  const props = Array.isArray(r.configurable_props) ? (r.configurable_props as { name?: unknown }[]) : [];
  return props.map((p) => String(p.name)).join(", ") || "-";
}

export async function list(kind: string, opts: { json?: boolean }): Promise<void> {
  if (!(KINDS as readonly string[]).includes(kind)) throw new CliError(`unknown list: ${kind}`, `one of: ${KINDS.join(", ")}`);
  const { client } = api();
  let rows: Row[];
  let head: string[];
  let cells: (r: Row) => unknown[];
  switch (kind) {
    case "sources":
      rows = await all((query) => client.GET("/v1/users/me/sources/", { params: { query } }));
      head = ["ID", "NAME", "COMPONENT", "ACTIVE", "UPDATED"];
      cells = (r) => [r.id, r.name, r.component_id, r.active === false ? "no" : "yes", when(r)];
      break;
    case "workflows":
      rows = await all((query) => client.GET("/v1/users/me/workflows", { params: { query } }));
      head = ["ID", "NAME", "ACTIVE", "UPDATED"];
      cells = (r) => [r.id, r.name, r.active === false ? "no" : "yes", when(r)];
      break;
    case "subscriptions":
      rows = (unwrap(await client.GET("/v1/users/me/subscriptions")) as { data: Row[] }).data;
      head = ["ID", "EMITTER", "LISTENER", "STREAM"];
      cells = (r) => [r.id, r.emitter_id, r.listener_id, r.event_name || "default"];
      break;
    case "webhooks":
      rows = await all((query) => client.GET("/v1/users/me/webhooks", { params: { query } }));
      head = ["ID", "NAME", "URL", "CREATED"];
      cells = (r) => [r.id, r.name, r.url, ago(r.created_at)];
      break;
    case "components":
      rows = await all((query) => client.GET("/v1/users/me/components", { params: { query } }));
      head = ["ID", "NAME", "VERSION", "PROPS", "CREATED"];
      cells = (r) => [r.id, r.name || "-", r.version || "-", propNames(r), ago(r.created_at)];
      break;
    case "accounts":
      rows = await all((query) => client.GET("/v1/users/me/accounts", { params: { query } }));
      head = ["ID", "APP", "NAME", "STATUS", "CREATED"];
      cells = (r) => [r.id, r.app ?? r.app_slug, r.name, r.status === "error" ? `error: ${r.status_reason ?? ""}` : r.oauth ? "ok (OAuth)" : "ok", ago(r.created_at)];
      break;
    default:
      rows = await all((query) => client.GET("/v1/components/registry", { params: { query } }));
      head = ["ID", "NAME", "VERSION", "PROPS"];
      cells = (r) => [r.id, r.name || "-", r.version || "-", propNames(r)];
  }
  if (opts.json) return printJson(rows);
  printTable(head, rows.map((r) => cells(r) as string[]));
}
