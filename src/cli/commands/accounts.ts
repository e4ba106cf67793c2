import { spawn } from "node:child_process";
import { api } from "../profile.ts";
import { CliError, colors, info, printJson, unwrap } from "../output.ts";

// accounts connect / reconnect: start an OAuth flow, show (and on a terminal open) the
// provider's page, and wait until the service says how the flow ended.

const POLL_MS = 1000;

/** The system's browser opener, with only what a desktop session needs of our environment. */
function openBrowser(url: string): void {
  const [cmd, args] =
    process.platform === "darwin" ? ["open", [url]] : process.platform === "win32" ? ["cmd", ["/c", "start", "", url]] : ["xdg-open", [url]];
  const keep = ["PATH", "HOME", "DISPLAY", "WAYLAND_DISPLAY", "XDG_RUNTIME_DIR", "DBUS_SESSION_BUS_ADDRESS", "BROWSER", "SystemRoot"];
  const env = Object.fromEntries(keep.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]!]));
  try {
    const child = spawn(cmd, args as string[], { env, stdio: "ignore", detached: true });
    child.on("error", () => undefined); // no opener here: the URL is printed anyway
    child.unref();
  } catch {
    // same
  }
}

interface Flow {
  id: string;
  status: "pending" | "connected" | "failed" | "expired";
  account_id?: string;
  error?: string;
}

async function follow(start: { id: string; authorize_url: string; expires_at_ms: number }, opts: { json?: boolean; open?: boolean }): Promise<void> {
  const { client } = api();
  if (opts.json) printJson({ id: start.id, authorize_url: start.authorize_url, expires_at_ms: start.expires_at_ms });
  else {
    info(`Open this page to authorize the connection:\n\n  ${start.authorize_url}\n`);
    info(colors.dim("Waiting for the provider to send you back (Ctrl-C to stop)…"));
  }
  if (opts.open !== false && process.stdout.isTTY && !opts.json) openBrowser(start.authorize_url);
  for (;;) {
    const flow = (unwrap(await client.GET("/v1/accounts/connect/{id}", { params: { path: { id: start.id } } })) as { data: Flow }).data;
    if (flow.status === "connected") {
      if (opts.json) printJson(flow);
      else process.stdout.write(`Connected ${colors.bold(flow.account_id!)}\n`);
      return;
    }
    if (flow.status === "failed") throw new CliError(`not connected: ${flow.error ?? "the flow failed"}`, "try again: `tributary accounts connect APP`");
    if (flow.status === "expired") throw new CliError("not connected: the link expired (10 minutes)", "start again: `tributary accounts connect APP`");
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

export async function connect(app: string, opts: { name?: string; scope?: string[]; json?: boolean; open?: boolean }): Promise<void> {
  const { client } = api();
  const body = { app, ...(opts.name ? { name: opts.name } : {}), ...(opts.scope?.length ? { scopes: opts.scope } : {}) };
  const start = (unwrap(await client.POST("/v1/accounts/connect", { body }), "an admin configures the app first: POST /v1/oauth_apps (see docs/connecting-accounts.md)") as { data: { id: string; authorize_url: string; expires_at_ms: number } }).data;
  await follow(start, opts);
}

export async function reconnect(id: string, opts: { scope?: string[]; json?: boolean; open?: boolean }): Promise<void> {
  const { client } = api();
  const body = opts.scope?.length ? { scopes: opts.scope } : {};
  const start = (unwrap(await client.POST("/v1/accounts/{id}/reconnect", { params: { path: { id } }, body })) as { data: { id: string; authorize_url: string; expires_at_ms: number } }).data;
  await follow(start, opts);
}
