import type { RunSendRow, Store } from "../../store/port.ts";
import { PARTITIONS } from "../../store/port.ts";
import { guardedFetch } from "../../lib/net/guarded-fetch.ts";
import type { Mailer } from "../../lib/mailer.ts";
import { SoonestTimer } from "../../lib/soonest-timer.ts";

// Sends what workflow steps queued with $.send.http and $.send.email (docs/writing-workflows.md), once the step
// has committed: at once when the commit was this node's, else (a crash, a retry's backoff, a
// takeover) when a scan of this node's partitions finds it due; a scan runs again whenever room
// frees while sends wait. Each try first claims the row and counts it (its next try moves a minute
// on), so a scan that overlaps never sends it twice; a node that dies mid-try leaves it to be tried
// again after that minute: delivery is at least once, and each request carries its send's id
// (X-Tributary-Send-Id) for the receiver to tell a repeat. Failures are retried on the webhooks'
// schedule (TRIBUTARY_WEBHOOK_BACKOFF_MS), except those that trying again can't fix (an HTTP 3xx or
// 4xx other than 408 and 429, an SMTP refusal of the message); the outcome of every try is on the
// run's step. Email waits, untried, on a node that has no SMTP server configured.

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
  readonly #active = new Map<string, Promise<void>>();
  /** sends were turned away for want of room: scan again once room frees */
  #starved = false;
  #sweep: NodeJS.Timeout | undefined;
  readonly #timer = new SoonestTimer(() => this.scan());
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

  /** Stops; resolves once the tries under way have recorded their outcome (a send isn't sent twice for want of it). */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#sweep);
    this.#timer.clear();
    await Promise.allSettled(this.#active.values());
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
    const room = Math.min(BATCH, MAX_ACTIVE - this.#active.size);
    if (held.length === 0) return;
    if (room <= 0) {
      this.#starved = true;
      return;
    }
    const kinds: Array<RunSendRow["kind"]> = this.#d.mailer ? ["http", "email"] : ["http"];
    const due = await this.#d.store.runSends.due(held, kinds, Date.now(), room);
    for (const row of due) this.#try(row);
    if (due.length === room) this.#starved = true;
  }



  #try(row: RunSendRow): void {
    if (this.#closed || this.#active.has(row.id)) return;
    if (this.#active.size >= MAX_ACTIVE || (row.kind === "email" && !this.#d.mailer)) {
      if (row.kind === "http" || this.#d.mailer) this.#starved = true;
      return;
    }
    const done = this.#attempt(row)
      .catch((e: unknown) => this.#d.log(e, `send ${row.id} of run ${row.run_id} failed; it is tried again in a minute`))
      .finally(() => {
        this.#active.delete(row.id);
        if (this.#starved && !this.#closed) {
          this.#starved = false;
          this.scan();
        }
      });
    this.#active.set(row.id, done);
  }

  async #attempt(row: RunSendRow): Promise<void> {
    const now = Date.now();
    if (!(await this.#d.store.runSends.claim(row.id, row.next_at_ms, now + CLAIM_MS))) return;
    const outcome = await (row.kind === "http" ? this.#http(row) : this.#email(row));
    // the claim counted this try
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
    if (!done && !this.#closed) this.#timer.arm(next);
  }

  async #http(row: RunSendRow): Promise<Outcome> {
    const req = JSON.parse(row.request) as { method: string; url: string; headers: Record<string, string>; body?: string };
    const signal = AbortSignal.timeout(TIMEOUT_MS);
    try {
      // not followed: the address guard's verdict covers the only address contacted
      const body = req.body !== undefined && req.method !== "GET" && req.method !== "HEAD" ? req.body : undefined;
      const headers = { ...req.headers, "x-tributary-send-id": row.id };
      const init = { method: req.method, headers, redirect: "manual" as const, signal, ...(body === undefined ? {} : { body }) };
      const res = await guardedFetch(new URL(req.url), init, this.#d.fetchAllow);
      await res.body?.cancel();
      if (res.status >= 200 && res.status < 300) return { ok: true, status: res.status };
      // a redirect is not followed, and following it later won't be either
      const permanent = (res.status >= 300 && res.status < 500 && res.status !== 408 && res.status !== 429) || res.status < 200;
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
    // the fields of an email, and nothing else the row might hold
    const out = await this.#d.mailer.send({
      to: user.email,
      subject: req.subject,
      ...(typeof req.text === "string" ? { text: req.text } : {}),
      ...(typeof req.html === "string" ? { html: req.html } : {}),
    });
    return out.ok ? { ok: true } : { ok: false, reason: out.reason, permanent: out.permanent };
  }
}
