import { api } from "../profile.ts";
import { ago, CliError, colors, errColors, info, printable, printJson, unwrap } from "../output.ts";

// accounts show / accounts events-url: what a user needs to set an app up, mainly the events URL
// to paste at the app (Slack's Request URL, a Shopify or GitHub webhook), and a way to replace a
// leaked one. The auth itself is never in the API's answer, so never here either.

type Account = Awaited<ReturnType<typeof fetchAccount>>;

const PURPOSE = "Paste this as the Request URL of your app's event subscriptions / webhook";
// an account made by a node of the previous version has no key until it gets one
const noUrlHint = (id: string) => `\`tributary accounts events-url ${id} --new\` gives it one (editing or reconnecting the account does too)`;

async function fetchAccount(id: string) {
  const { client } = api();
  return unwrap(await client.GET("/v1/accounts/{id}", { params: { path: { id } } })).data;
}

export async function showAccount(id: string, opts: { json?: boolean }): Promise<void> {
  const a = await fetchAccount(id);
  if (opts.json) return printJson(a);
  const status = a.status === "error" ? colors.red(`error: ${printable(a.status_reason ?? "its token refresh was refused")}`) : a.oauth ? "ok (OAuth)" : "ok";
  const rows: [string, string][] = [
    ["app", printable(a.app)],
    ["status", status],
    ["fields", printable(a.auth_fields.join(", ")) || "-"],
    ...(a.expires_at_ms !== undefined ? [["token until", `${new Date(a.expires_at_ms).toISOString()} (${ago(a.expires_at_ms)})`] as [string, string]] : []),
    ["created", ago(a.created_at)],
    ["events URL", a.events_url === null ? colors.yellow("none yet") : printable(a.events_url)],
  ];
  const out = [`${colors.bold(a.id)}  ${printable(a.name)}`, ...rows.map(([k, v]) => `  ${k.padEnd(11)} ${v}`)];
  out.push(colors.dim(`${" ".repeat(14)}${a.events_url ? PURPOSE : noUrlHint(a.id)}`));
  process.stdout.write(out.join("\n") + "\n");
}

/**
 * The events URL alone on stdout (so `$(tributary accounts events-url apn_...)` is the URL), or
 * with --new a new one: the old URL answers 404 from then on, which stderr says.
 */
export async function eventsUrl(id: string, opts: { new?: boolean; json?: boolean }): Promise<void> {
  let a: Account;
  if (opts.new) {
    const { client } = api();
    a = unwrap(await client.POST("/v1/accounts/{id}/events_url", { params: { path: { id } } })).data;
  } else a = await fetchAccount(id);
  if (opts.json) return printJson(a);
  if (a.events_url === null) throw new CliError(`${id} has no events URL yet (a previous version of the service made it)`, noUrlHint(id));
  process.stdout.write(printable(a.events_url) + "\n");
  info(errColors.dim(opts.new ? `The old URL answers 404 from now on. ${PURPOSE}.` : `${PURPOSE}.`));
}
