import type { RunSendRow, Store } from "../../store/port.ts";
import { PARTITIONS } from "../../store/port.ts";
import { guardedFetch } from "../../lib/guarded-fetch.ts";
import type { Mailer } from "../../lib/mailer.ts";
import { MAX_TIMER_MS } from "../../lib/clock.ts";

// Sends what workflow steps queued with $.send.http and $.send.email (workflows §2), once the step
// has committed: at once when the commit was this node's, else (a crash, a retry's backoff, a
// takeover) when a scan of this node's partitions finds it due. Each try first claims the row
// (its next try moves a minute on), so a scan that overlaps never sends it twice; a node that dies
// mid-try leaves it to be tried again after that minute. Failures are retried on the webhooks'
// schedule (TRIBUTARY_WEBHOOK_BACKOFF_MS), except those that trying again can't fix (an HTTP 4xx
// other than 408 and 429, an SMTP 5xx); the outcome of every try is on the run's step.

const SWEEP_MS = 5000;
const BATCH = 100;
/** sends under way at once; the rest wait for a scan */
const MAX_ACTIVE = 32;
/** a claimed send is someone else's to try after this (its try outlived any timeout) */
const CLAIM_MS = 60_000;
const TIMEOUT_MS = 10_000;
const MAX_ERROR_TEXT = 1000;

export interface RunSenderDeps {
  store: Store;
  /** whether this node holds the partition */
  holds: (partition: number) => boolean;
  /** private host:ports sends may reach (TRIBUTARY_FETCH_ALLOW) */
  fetchAllow: readonly string[];
  /** waits between tries (their count + 1 tries in all) */
  backoffMs: readonly number[];
  /** absent: TRIBUTARY_SMTP_URL is not set (steps can't queue email then) */
  mailer?: Mailer;
  log: (err: unknown, what: string) => void;
}

interface Outcome {
  ok: boolean;
  status?: number;
  reason?: string;
  /** trying again can't help */
  permanent?: boolean;
}

export class RunSender {
  readonly #d: RunSenderDeps;
  readonly #active = new Set<string>();
  #sweep: NodeJS.Timeout | undefined;
  #timer: NodeJS.Timeout | undefined;
  #timerAt = Infinity;
  #scanning = false;
  #again = false;
  #closed = false;

  constructor(deps: RunSenderDeps) {
    this.#d = deps;
  }

  start(): void {
    this.#sweep = setInterval(() => this.scan(), SWEEP_MS);
    this.#sweep.unref();
    this.scan();
  }

  close(): void {
    this.#closed = true;
    clearInterval(this.#sweep);
    clearTimeout(this.#timer);
    this.#d.mailer?.close();
  }

  /** Sends a step queued, just committed here: tried now. */
  kick(rows: readonly RunSendRow[]): void {
    for (const row of rows) this.#try(row);
  }

  scan(): void {
    if (this.#closed) return;
    if (this.#scanning) {
      this.#again = true;
      return;
    }
    this.#scanning = true;
    void this.#scan()
      .catch((e: unknown) => this.#d.log(e, "reading the sends that are due failed; trying again shortly"))
      .finally(() => {
        this.#scanning = false;
        if (this.#again) {
          this.#again = false;
          this.scan();
        }
      });
  }

  async #scan(): Promise<void> {
    const held = Array.from({ length: PARTITIONS }, (_, p) => p).filter((p) => this.#d.holds(p));
    if (held.length === 0 || this.#active.size >= MAX_ACTIVE) return;
    for (const row of await this.#d.store.runSends.due(held, Date.now(), BATCH)) this.#try(row);
  }

  #arm(at: number): void {
    if (this.#closed || at >= this.#timerAt) return;
    clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(() => {
      this.#timerAt = Infinity;
      this.scan();
    }, Math.min(MAX_TIMER_MS, Math.max(0, at - Date.now())));
    this.#timer.unref();
  }

  #try(row: RunSendRow): void {
    if (this.#closed || this.#active.has(row.id) || this.#active.size >= MAX_ACTIVE) return;
    this.#active.add(row.id);
    void this.#attempt(row)
      .catch((e: unknown) => this.#d.log(e, `send ${row.id} of run ${row.run_id} failed; it is tried again shortly`))
      .finally(() => this.#active.delete(row.id));
  }

  async #attempt(row: RunSendRow): Promise<void> {
    const now = Date.now();
    if (!(await this.#d.store.runSends.claim(row.id, row.next_at_ms, now + CLAIM_MS))) return;
    const outcome = await (row.kind === "http" ? this.#http(row) : this.#email(row));
    const attempts = row.attempts + 1;
    const wait = this.#d.backoffMs[attempts - 1];
    const done = outcome.ok || outcome.permanent || wait === undefined;
    const next = Date.now() + (wait ?? 0);
    await this.#d.store.runSends.record({
      id: row.id,
      status: outcome.ok ? "sent" : done ? "failed" : "pending",
      attempts,
      next_at_ms: done ? row.next_at_ms : next,
      last_status: outcome.status ?? null,
      last_error: outcome.ok ? null : (outcome.reason ?? "failed").slice(0, MAX_ERROR_TEXT),
      done_at_ms: done ? Date.now() : null,
    });
    if (!done) this.#arm(next);
  }

  async #http(row: RunSendRow): Promise<Outcome> {
    const req = JSON.parse(row.request) as { method: string; url: string; headers: Record<string, string>; body?: string };
    const signal = AbortSignal.timeout(TIMEOUT_MS);
    try {
      // not followed: the address guard's verdict covers the only address contacted
      const body = req.body !== undefined && req.method !== "GET" && req.method !== "HEAD" ? req.body : undefined;
      const init = { method: req.method, headers: req.headers, redirect: "manual" as const, signal, ...(body === undefined ? {} : { body }) };
      const res = await guardedFetch(new URL(req.url), init, this.#d.fetchAllow);
      await res.body?.cancel();
      if (res.status >= 200 && res.status < 300) return { ok: true, status: res.status };
      const permanent = res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429;
      return { ok: false, status: res.status, reason: `HTTP ${res.status}`, permanent };
    } catch (err) {
      if (signal.aborted) return { ok: false, reason: `timed out after ${TIMEOUT_MS} ms` };
      const e = err as Error & { cause?: Error };
      const cause = e?.cause instanceof Error && !e.message.includes(e.cause.message) ? `: ${e.cause.message}` : "";
      return { ok: false, reason: `${e?.message ?? String(err)}${cause}` };
    }
  }

  async #email(row: RunSendRow): Promise<Outcome> {
    if (!this.#d.mailer) return { ok: false, reason: "this service can't send email now (TRIBUTARY_SMTP_URL is not set)", permanent: true };
    const user = await this.#d.store.users.byId(row.user_id);
    if (!user?.email) return { ok: false, reason: "the workflow's owner has no email address", permanent: true };
    const req = JSON.parse(row.request) as { subject: string; text?: string; html?: string };
    const out = await this.#d.mailer.send({ to: user.email, ...req });
    return out.ok ? { ok: true } : { ok: false, reason: out.reason, permanent: out.permanent };
  }
}
