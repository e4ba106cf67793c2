import pc from "picocolors";
import Table from "cli-table3";

// Shared output: --json mode, tables, relative times, spinners (TTY only), and errors.

export class CliError extends Error {
  hint: string | undefined;
  constructor(message: string, hint?: string) {
    super(message);
    this.hint = hint;
  }
}

const tty = Boolean(process.stdout.isTTY);
export const colors = pc.createColors(tty);
export const errColors = pc.createColors(Boolean(process.stderr.isTTY));

/**
 * Text from the service made safe for a terminal: event summaries and log lines come from
 * anyone who can reach an HTTP source (its path is in the summary), and a raw ESC could retitle
 * the window, clear the screen, hide lines or write the clipboard. Control characters but
 * newline and tab show as U+FFFD.
 */
export function printable(text: string): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  return text.replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, "\ufffd");
}

export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + "\n");
}

export function printTable(head: string[], rows: (string | number | undefined | null)[][]): void {
  if (rows.length === 0) {
    process.stdout.write(colors.dim("(none)") + "\n");
    return;
  }
  const table = new Table({
    head: head.map((h) => colors.bold(h)),
    style: { head: [], border: [], compact: true },
    chars: { top: "", "top-mid": "", "top-left": "", "top-right": "", bottom: "", "bottom-mid": "", "bottom-left": "", "bottom-right": "", left: "", "left-mid": "", mid: "", "mid-mid": "", right: "", "right-mid": "", middle: "  " },
  });
  for (const r of rows) table.push(r.map((c) => (c === undefined || c === null ? "" : printable(String(c)))));
  process.stdout.write(table.toString().split("\n").map((l) => l.replace(/^ /, "").trimEnd()).join("\n") + "\n");
}

const rtf = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
export function ago(ms: number | string | undefined | null, now = Date.now()): string {
  if (ms === undefined || ms === null || ms === "") return "";
  // the API's created_at/updated_at are Unix seconds; event times are milliseconds
  const t = typeof ms === "number" ? (ms < 1e11 ? ms * 1000 : ms) : Date.parse(ms);
  if (!Number.isFinite(t)) return String(ms);
  const s = Math.round((t - now) / 1000);
  const abs = Math.abs(s);
  if (abs < 60) return rtf.format(s, "second");
  if (abs < 3600) return rtf.format(Math.round(s / 60), "minute");
  if (abs < 86400) return rtf.format(Math.round(s / 3600), "hour");
  return rtf.format(Math.round(s / 86400), "day");
}

export async function withSpinner<T>(text: string, json: boolean, work: () => Promise<T>): Promise<T> {
  // a terminal that reports no width (0 columns, e.g. some ptys) would make the spinner's
  // line count infinite: no spinner there
  if (json || !process.stderr.isTTY || !(process.stderr.columns > 0)) return work();
  const { createSpinner } = await import("nanospinner");
  const spinner = createSpinner(text, { stream: process.stderr }).start();
  try {
    const result = await work();
    spinner.success();
    return result;
  } catch (err) {
    spinner.error();
    throw err;
  }
}

export function info(line: string): void {
  process.stderr.write(line + "\n");
}

/** the data of an openapi-fetch answer, or a CliError from its error envelope */
export function unwrap<T>(res: { data?: T; error?: unknown; response: Response }, hint?: string): T {
  if (res.error !== undefined || !res.response.ok) {
    const env = res.error as { error?: { code?: string; message?: string; details?: Array<{ field?: string; message?: string }> } } | undefined;
    const message = env?.error?.message ?? `HTTP ${res.response.status}`;
    const code = env?.error?.code;
    // the API's field problems are what to fix: each its own line
    const details = (env?.error?.details ?? []).slice(0, 20).map((d) => printable(`${d.field ?? "?"}: ${d.message ?? ""}`));
    const h =
      details.length > 0
        ? details.join("\n      ")
        : (hint ?? (res.response.status === 401 ? "check the key: `tributary login --key trb_...` or TRIBUTARY_API_KEY" : res.response.status === 404 ? notFoundHint(res.response.url) : undefined));
    throw new CliError(code ? `${message} (${code})` : message, h);
  }
  return res.data as T;
}

// Where to find the right id, by what the request that answered 404 asked for: a run's id is
// not among the sources. Most specific first (a store's records before the store).
const NOT_FOUND_HINTS: Array<[RegExp, string]> = [
  [/\/v1\/runs\//, "check the run id: `tributary runs p_...` lists a workflow's runs"],
  [/\/v1\/workflows\/[^/]+\/runs/, "check the workflow id: `tributary list workflows`"],
  [/\/v1\/data_stores\/[^/]+\/records\/./, "check the key: `tributary records ds_...` lists a store's records"],
  [/\/v1\/data_stores/, "check the store id: `tributary datastores list`"],
  [/\/v1\/users\/me\/env/, "check the name: `tributary env list`"],
  [/\/v1\/workflows/, "check the id: `tributary list workflows`"],
  [/\/v1\/webhooks/, "check the id: `tributary list webhooks`"],
  [/\/v1\/accounts/, "check the id: `tributary list accounts`"],
  [/\/v1\/components/, "check the id: `tributary list components`"],
  [/\/v1\/subscriptions/, "check the ids: `tributary list subscriptions`"],
  [/\/v1\/sources/, "check the id: `tributary list sources`"],
];

/** the hint of a 404 from `url`: where to look the id up */
export function notFoundHint(url: string): string {
  const path = url ? new URL(url).pathname : "";
  return NOT_FOUND_HINTS.find(([re]) => re.test(path))?.[1] ?? "check the id";
}

const UNREACHABLE: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ENOTFOUND: "no such host",
  EAI_AGAIN: "the host name could not be looked up",
  ECONNRESET: "the connection was reset",
  ETIMEDOUT: "the connection timed out",
  EHOSTUNREACH: "no route to the host",
  UND_ERR_CONNECT_TIMEOUT: "the connection timed out",
};

/**
 * A fetch that says which service it could not reach: "could not reach http://127.0.0.1:3000:
 * connection refused" instead of undici's "fetch failed".
 */
export function reachingFetch(base: string): typeof fetch {
  return async (input, init) => {
    try {
      return await fetch(input, init);
    } catch (e) {
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      if (!cause || (e as Error).name === "AbortError") throw e;
      const why = (cause.code && UNREACHABLE[cause.code]) ?? cause.code ?? cause.message ?? "unreachable";
      throw new CliError(`could not reach ${base}: ${why}`, "is the service running? check the URL: TRIBUTARY_URL or `tributary login --url`");
    }
  };
}

export function fail(err: unknown): never {
  if (err instanceof CliError) {
    process.stderr.write(errColors.red(`error: ${err.message}`) + "\n");
    if (err.hint) process.stderr.write(errColors.dim(`hint: ${err.hint}`) + "\n");
  } else {
    const e = err as { message?: string; cause?: { code?: string; message?: string } };
    const cause = e.cause?.code ?? e.cause?.message;
    process.stderr.write(errColors.red(`error: ${e.message ?? String(err)}${cause ? ` (${cause})` : ""}`) + "\n");
    process.stderr.write(errColors.dim("hint: is the service running? check TRIBUTARY_URL or `tributary login --url`") + "\n");
  }
  process.exit(1);
}

/** a flag's JSON value (`--event`, `--data`), or a usage error that shows one */
export function parseJsonOption(flag: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new CliError(`${flag}: not JSON`, `e.g. ${flag} '{"hello":"world"}'`);
  }
}

export function parseProps(pairs: string[] = []): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  for (const pair of pairs) {
    const i = pair.indexOf("=");
    if (i <= 0) throw new CliError(`--prop ${pair}: expected key=value`, "e.g. --prop label=hello --prop count=3");
    const k = pair.slice(0, i);
    const v = pair.slice(i + 1);
    try {
      props[k] = JSON.parse(v);
    } catch {
      props[k] = v;
    }
  }
  return props;
}

/** the first endpoint_url anywhere in an API object (an HTTP source's prop, a workflow's trigger) */
export function findEndpoint(value: unknown): string | undefined {
  if (!value || typeof value !== "object") return undefined;
  const o = value as Record<string, unknown>;
  if (typeof o.endpoint_url === "string") return o.endpoint_url;
  for (const v of Object.values(o)) {
    const found = findEndpoint(v);
    if (found) return found;
  }
  return undefined;
}
