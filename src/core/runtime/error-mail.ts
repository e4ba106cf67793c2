import type { EventRow, Store } from "../../store/port.ts";
import type { Mailer } from "../../lib/mailer.ts";
import { errorSummary } from "../error-summaries.ts";
import type { Target } from "./target.ts";

// Tells a source's or workflow's owner by email that it failed (when the service can send email:
// TRIBUTARY_SMTP_URL), at most once per emitter per 10 minutes whatever the number of nodes: the
// store claims each email (ErrorNoticeStore.claim), and a node remembers its own recent claims so
// a source failing 1,000 times a second asks the store about once per 10 minutes. The email says
// what failed, the newest error, and links to the run (a workflow's) or the $errors tab.
// Nothing here may fail a commit: every failure goes to the log.

const GAP_MS = 10 * 60_000;
const REMEMBERED = 10_000;

export interface ErrorMailDeps {
  store: Store;
  mailer: Mailer;
  /** the dashboard's address: the service's public URL */
  publicUrl: string;
  log: (err: unknown, what: string) => void;
}

export class ErrorMail {
  readonly #d: ErrorMailDeps;
  /** emitter id → until when this node won't ask the store again */
  readonly #quiet = new Map<string, number>();

  constructor(deps: ErrorMailDeps) {
    this.#d = deps;
  }

  /** An $errors event of `t` was committed. Returns at once; the email goes out in the background. */
  failed(t: Target, row: EventRow): void {
    const to = t.user.email;
    if (!to) return;
    const id = t.workflow?.id ?? t.source.id;
    const now = Date.now();
    if ((this.#quiet.get(id) ?? 0) > now) return;
    if (this.#quiet.size >= REMEMBERED) this.#quiet.delete(this.#quiet.keys().next().value!);
    this.#quiet.set(id, now + GAP_MS);
    void this.#send(t, id, to, row, now).catch((e: unknown) => this.#d.log(e, `error email for ${id}`));
  }

  async #send(t: Target, id: string, to: string, row: EventRow, now: number): Promise<void> {
    if (!(await this.#d.store.errorNotices.claim(id, now, GAP_MS))) return;
    const { last_error: e } = errorSummary({ emitter_id: id, total: 1, last_ms: row.ms, last_error: errorJson(row.payload) });
    const name = t.workflow?.name ?? t.source.name;
    const kind = t.workflow ? "workflow" : "source";
    const base = this.#d.publicUrl.replace(/\/+$/, "");
    const runId = t.workflow ? runOf(row.payload) : undefined;
    const link = runId ? `${base}/#/runs/${runId}` : `${base}/#/${kind}s/${id}/errors`;
    const what = `${e.step ? `step ${e.step}: ` : ""}${e.name}: ${e.message}`;
    const out = await this.#d.mailer.send({
      to,
      subject: `${name} failed: ${what}`.slice(0, 200),
      text: [
        `Your ${kind} ${name} (${id}) failed at ${new Date(row.ms).toISOString()}:`,
        "",
        `  ${what}`,
        "",
        runId ? `The run: ${link}` : `Its errors: ${link}`,
        "",
        `You get at most one such email per ${kind} every 10 minutes; more errors may have come since.`,
      ].join("\n"),
    });
    if (!out.ok) this.#d.log(new Error(out.reason), `error email for ${id} to its owner`);
  }
}

/** the `error` member of an $errors event's payload, JSON */
function errorJson(payload: string): string {
  try {
    return JSON.stringify((JSON.parse(payload) as { error?: unknown }).error ?? null);
  } catch {
    return "null";
  }
}

/** a workflow error's run: its original_context.id */
function runOf(payload: string): string | undefined {
  try {
    const id = (JSON.parse(payload) as { original_context?: { id?: unknown } }).original_context?.id;
    return typeof id === "string" && id.startsWith("r_") ? id : undefined;
  } catch {
    return undefined;
  }
}
