import { api } from "../profile.ts";
import { CliError, ago, colors, parseJsonOption, printJson, printTable, printable, unwrap } from "../output.ts";

// Workflow runs in the terminal: a workflow's runs (newest first, or followed as they come and
// end), one run as a timeline of its steps, replay, resume and cancel.

interface RunStep {
  name: string;
  status: string;
  started_at_ms: number | null;
  ended_at_ms: number | null;
  return_value: unknown;
  exports: unknown;
  logs: Array<{ level?: string; msg?: string }>;
  error?: { name?: string; message?: string; stack?: string };
  attempts: number;
  sends: Array<{ kind: string; status: string; attempts: number; method?: string; url?: string; subject?: string; last_error: string | null }>;
}

interface Run {
  id: string;
  workflow_id: string;
  status: string;
  started_at_ms: number;
  ended_at_ms: number | null;
  summary: string | null;
  started_by: "request" | "run_now" | "replay" | "retry" | "event" | "timer";
  response: { status: number } | null;
  replay_of: string | null;
  retry_of: string | null;
  waiting: { for: string; step_index: number; until_ms: number | null } | null;
  steps?: RunStep[];
}

/** the API's run statuses (GET /v1/workflows/{id}/runs?status=) */
export const RUN_STATUSES = ["running", "suspended", "succeeded", "failed", "exited", "cancelled"] as const;

const STATUS_COLORS: Record<string, (s: string) => string> = {
  succeeded: colors.green,
  failed: colors.red,
  cancelled: colors.yellow,
  suspended: colors.cyan,
  running: colors.blue,
  exited: colors.dim,
  skipped: colors.dim,
  pending: colors.dim,
};
const status = (s: string) => (STATUS_COLORS[s] ?? ((x: string) => x))(s);

function took(start: number | null, end: number | null): string {
  if (start === null || end === null) return "";
  const ms = end - start;
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** a value as one short line */
function brief(v: unknown, max = 120): string {
  const text = typeof v === "string" ? JSON.stringify(v) : JSON.stringify(v) ?? "undefined";
  return printable(text.length > max ? `${text.slice(0, max - 1)}…` : text);
}

const runRow = (r: Run) => [r.id, status(r.status), ago(r.started_at_ms), took(r.started_at_ms, r.ended_at_ms), r.response ? String(r.response.status) : "", r.summary ?? ""];
const HEAD = ["ID", "STATUS", "STARTED", "TOOK", "REPLY", "SUMMARY"];

export async function runs(workflowId: string, opts: { follow?: boolean; status?: string; limit?: string; json?: boolean }): Promise<void> {
  if (!workflowId.startsWith("p_")) throw new CliError(`${workflowId} is not a workflow`, "workflow ids start with p_: `tributary list workflows`");
  const { client } = api();
  const limit = opts.limit ? Number(opts.limit) : 20;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new CliError("--limit takes 1 to 100");
  if (opts.status !== undefined && !(RUN_STATUSES as readonly string[]).includes(opts.status)) {
    throw new CliError(`--status ${opts.status}: not a run status`, `one of: ${RUN_STATUSES.join(", ")}`);
  }
  const read = async () => {
    const query = { limit, ...(opts.status ? { status: opts.status } : {}) } as { limit: number };
    const res = unwrap(await client.GET("/v1/workflows/{id}/runs", { params: { path: { id: workflowId }, query } }));
    return (res as { data: Run[] }).data;
  };
  const first = await read();
  if (!opts.follow) {
    if (opts.json) printJson(first);
    else printTable(HEAD, first.map(runRow));
    return;
  }
  // followed: each run printed when first seen and again whenever its status changes
  const seen = new Map<string, string>();
  const show = (list: Run[]) => {
    for (const r of [...list].reverse()) {
      if (seen.get(r.id) === r.status) continue;
      seen.set(r.id, r.status);
      if (opts.json) process.stdout.write(JSON.stringify(r) + "\n");
      else process.stdout.write(runRow(r).filter(Boolean).join("  ") + "\n");
    }
  };
  show(first);
  for (;;) {
    await new Promise((r) => setTimeout(r, 1000));
    show(await read());
  }
}

export async function showRun(runId: string, opts: { json?: boolean }): Promise<void> {
  if (!runId.startsWith("r_")) throw new CliError(`${runId} is not a run`, "run ids start with r_: `tributary runs p_...`");
  const { client } = api();
  const r = (unwrap(await client.GET("/v1/runs/{run_id}", { params: { path: { run_id: runId } } })) as { data: Run }).data;
  if (opts.json) {
    printJson(r);
    return;
  }
  const out: string[] = [];
  const head = [colors.bold(r.id), status(r.status), `started ${ago(r.started_at_ms)}`];
  if (r.ended_at_ms !== null) head.push(`took ${took(r.started_at_ms, r.ended_at_ms)}`);
  const reply = await replyOf(r);
  if (reply) head.push(reply);
  if (r.started_by === "run_now") head.push("run now (no request)");
  if (r.replay_of) head.push(`replays ${r.replay_of}`);
  if (r.retry_of) head.push(`retries ${r.retry_of}`);
  out.push(head.join("  "));
  if (r.summary) out.push(`  ${printable(r.summary)}`);
  if (r.waiting) out.push(...waitingLines(r));
  for (const [i, s] of (r.steps ?? []).entries()) {
    const line = [`${String(i + 1).padStart(3)}  ${colors.bold(printable(s.name))}`, status(s.status), took(s.started_at_ms, s.ended_at_ms)];
    if (s.attempts > 1) line.push(`${s.attempts} attempts`);
    if (s.status === "succeeded" && s.return_value !== null) line.push(`→ ${brief(s.return_value)}`);
    out.push(line.filter(Boolean).join("  "));
    if (s.exports && typeof s.exports === "object" && Object.keys(s.exports).length > 0) out.push(colors.dim(`       exports ${brief(s.exports)}`));
    for (const l of s.logs) out.push(colors.dim(`       ${l.level ?? "log"}: ${printable(String(l.msg ?? ""))}`));
    if (s.error) {
      out.push(colors.red(`       ${printable(`${s.error.name ?? "Error"}: ${s.error.message ?? ""}`)}`));
      const frames = (s.error.stack ?? "").split("\n").filter((f) => /^\s+at /.test(f)).slice(0, 5);
      for (const f of frames) out.push(colors.dim(`       ${printable(f.trim())}`));
    }
    for (const x of s.sends) {
      const what = x.kind === "http" ? `${x.method} ${x.url}` : `email "${x.subject}"`;
      out.push(colors.dim(`       send ${printable(what)}: ${x.status}${x.attempts > 1 ? ` after ${x.attempts} tries` : ""}${x.last_error ? ` (${printable(x.last_error)})` : ""}`));
    }
  }
  process.stdout.write(out.join("\n") + "\n");
}

/**
 * What the run's HTTP reply was, said as what happened: none for a run no request started (run
 * now, a replay, a retry, a timer); "answered 200 at acceptance" when the request was answered
 * before the steps ran, so a run that then failed is not shown as a success.
 */
async function replyOf(r: Run): Promise<string | undefined> {
  if (!r.response || r.started_by !== "request") return undefined;
  const { client } = api();
  const res = await client.GET("/v1/workflows/{id}", { params: { path: { id: r.workflow_id } } });
  const trigger = (res.data as { data?: { trigger?: { type?: string; custom_response?: boolean } } } | undefined)?.data?.trigger;
  if (trigger && trigger.type !== "http") return undefined;
  const code = r.response.status;
  const ended = r.status === "failed" || r.status === "cancelled" ? `; the run then ${r.status === "failed" ? "failed" : "was cancelled"}` : "";
  const said = trigger?.custom_response ? `replied ${code}${ended}` : `answered ${code} at acceptance${ended}`;
  return ended || code >= 400 ? colors.yellow(said) : said;
}

const WAITS_FOR: Record<string, string> = {
  delay: "waits ($.flow.delay)",
  suspend: "is suspended ($.flow.suspend)",
  rerun: "waits to run its step again ($.flow.rerun)",
  retry: "waits to retry its step",
  queued: "is queued (the workflow's concurrency or rate)",
};

/** what a waiting run waits for, until when, and the resume URL a step exported or returned */
function waitingLines(r: Run): string[] {
  const w = r.waiting!;
  const step = r.steps?.[w.step_index];
  const lines = [colors.cyan(`  ${WAITS_FOR[w.for] ?? `waits (${w.for})`}${step ? ` at step ${w.step_index + 1} (${printable(step.name)})` : ""}`)];
  lines.push(colors.cyan(w.until_ms === null ? "  until it is resumed or cancelled" : `  until ${new Date(w.until_ms).toISOString()} (${ago(w.until_ms)})${w.for === "suspend" ? " unless resumed, then it fails" : ""}`));
  const url = resumeUrl(step);
  if (url) lines.push(`  resume URL: ${printable(url)}`);
  if (w.for === "suspend") lines.push(colors.dim(`  \`tributary resume ${r.id} --data '{...}'\` resumes it; \`tributary cancel ${r.id}\` ends it`));
  return lines;
}

function resumeUrl(step: RunStep | undefined): string | undefined {
  for (const v of [step?.exports, step?.return_value]) {
    if (!v || typeof v !== "object") continue;
    const o = v as Record<string, unknown>;
    const found = typeof o.resume_url === "string" ? o.resume_url : Object.values(o).find((x) => x && typeof x === "object" && typeof (x as Record<string, unknown>).resume_url === "string");
    if (typeof found === "string") return found;
    if (found) return (found as { resume_url: string }).resume_url;
  }
  return undefined;
}

export async function replay(runId: string, opts: { json?: boolean; original?: boolean }): Promise<void> {
  const { client } = api();
  const body = { deployment: opts.original ? ("original" as const) : ("current" as const) };
  const data = (unwrap(await client.POST("/v1/runs/{run_id}/replay", { params: { path: { run_id: runId } }, body })) as { data: { id: string } }).data;
  if (opts.json) printJson(data);
  else process.stdout.write(`Replaying ${colors.bold(runId)} as ${colors.bold(data.id)}; see \`tributary run show ${data.id}\`\n`);
}

export async function retry(runId: string, opts: { json?: boolean; original?: boolean; from?: string }): Promise<void> {
  const { client } = api();
  const body = { deployment: opts.original ? ("original" as const) : ("current" as const), ...(opts.from === undefined ? {} : { from_step: opts.from }) };
  const data = (unwrap(await client.POST("/v1/runs/{run_id}/retry", { params: { path: { run_id: runId } }, body })) as { data: { id: string } }).data;
  if (opts.json) printJson(data);
  else process.stdout.write(`Retrying ${colors.bold(runId)}${opts.from ? ` from ${colors.bold(opts.from)}` : ""} as ${colors.bold(data.id)}; see \`tributary run show ${data.id}\`\n`);
}

export async function resume(runId: string, opts: { json?: boolean; data?: string }): Promise<void> {
  const { client } = api();
  const body = opts.data === undefined ? {} : { data: parseJsonOption("--data", opts.data) };
  const data = (unwrap(await client.POST("/v1/runs/{run_id}/resume", { params: { path: { run_id: runId } }, body })) as { data: Run }).data;
  if (opts.json) printJson(data);
  else process.stdout.write(`Resumed ${colors.bold(runId)} (${data.status})\n`);
}

export async function cancel(runId: string, opts: { json?: boolean }): Promise<void> {
  const { client } = api();
  const data = (unwrap(await client.POST("/v1/runs/{run_id}/cancel", { params: { path: { run_id: runId } } })) as { data: Run }).data;
  if (opts.json) printJson(data);
  else process.stdout.write(`Cancelled ${colors.bold(runId)} (${data.status})\n`);
}
