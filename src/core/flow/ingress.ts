import { parse as parseForm } from "node:querystring";
import { AppError, notFound } from "../../lib/errors.ts";
import type { HttpResponse } from "../../runtime/protocol.ts";
import type { InboxQueue } from "./inbox-queue.ts";
import type { InboxPump } from "./inbox-pump.ts";
import type { Invocations } from "../runtime/invocations.ts";
import type { Target } from "../runtime/target.ts";
import type { Quotas } from "../runtime/quotas.ts";
import type { Targets } from "../runtime/targets.ts";
import type { Ownership } from "../cluster/ownership.ts";
import type { Peers } from "../cluster/peers.ts";
import type { Backlog } from "./backlog.ts";
import type { WorkflowRow } from "../../store/port.ts";

// HTTP sources' endpoints (docs/api.md, "HTTP endpoints"). Without customResponse a request is recorded in the
// inbox, answered 200 {"success": true} once durable, and run afterwards; with customResponse
// the reply is what the run passed to this.http.respond(), sent after its result committed.

export interface IncomingHttp {
  method: string;
  /** the path below the endpoint, "/" at least */
  path: string;
  query: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  contentType: string | undefined;
  url: string;
  clientIp: string;
  /** the connection it came on: past the backlog bound, waiting requests are let in a connection at a time */
  connection?: object;
  /** whether the client has gone (closed its connection): a request it gave up on while it waited is not accepted */
  gone?: () => boolean;
}

export const ACCEPTED: HttpResponse = { status: 200, headers: {}, body: { success: true } };

function parseBody(raw: string, contentType: string | undefined): unknown {
  const type = (contentType ?? "").split(";")[0].trim().toLowerCase();
  if (type === "application/json" || type.endsWith("+json")) {
    try {
      return JSON.parse(raw);
    } catch {
      return raw;
    }
  }
  if (type === "application/x-www-form-urlencoded") return { ...parseForm(raw) };
  return raw;
}

function lowerCaseHeaders(h: IncomingHttp["headers"]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : v;
  return out;
}

export function httpEvent(req: IncomingHttp) {
  const bodyRaw = req.body.toString("utf8");
  return {
    method: req.method,
    path: req.path,
    query: req.query,
    headers: lowerCaseHeaders(req.headers),
    bodyRaw,
    body: parseBody(bodyRaw, req.contentType),
    url: req.url,
    client_ip: req.clientIp,
  };
}

function customResponse(t: Target): boolean {
  return t.component.meta.props.some((p) => p.type === "$.interface.http" && p.customResponse === true);
}

export class Ingress {
  readonly #targets: Targets;
  readonly #inv: Invocations;
  readonly #quotas: Quotas;
  readonly #inbox: InboxQueue;
  readonly #pump: InboxPump;
  readonly #ownership: Ownership | undefined;
  readonly #backlog: Backlog | undefined;
  readonly #peers: Peers | undefined;

  constructor(
    targets: Targets,
    invocations: Invocations,
    quotas: Quotas,
    inbox: InboxQueue,
    pump: InboxPump,
    cluster: { ownership?: Ownership; peers?: Peers; backlog?: Backlog } = {},
  ) {
    this.#backlog = cluster.backlog;
    this.#ownership = cluster.ownership;
    this.#peers = cluster.peers;
    this.#targets = targets;
    this.#inv = invocations;
    this.#quotas = quotas;
    this.#inbox = inbox;
    this.#pump = pump;
  }

  async receive(key: string, req: IncomingHttp): Promise<HttpResponse> {
    const t = await this.#targets.byEndpoint(key);
    if (!t || !t.source.active) throw notFound("endpoint");
    if (!(await this.#quotas.admit(t, "run"))) {
      throw new AppError("quota_exceeded", "this source's account has used up its daily quota");
    }
    if (customResponse(t)) return this.#respondOrForward(t, httpEvent(req));
    try {
      // Judged before the request is parsed into an event: past the bound a refusal must cost far
      // less than an acceptance, or refusing would slow the service down instead of relieving it.
      // Past the bound it waits for room first (up to the hold bound).
      const room = this.#backlog?.admit(req.connection, req.body.length);
      if (room) {
        await room;
        // its sender gave up while it waited: it never learns of an acceptance, and may send it again
        if (req.gone?.()) {
          this.#backlog?.giveBack();
          throw new AppError("unavailable", "the client closed the connection while the request waited");
        }
      }
      await this.#write(t, () => httpEvent(req));
    } catch (e) {
      // not accepted after all (overloaded, the store failing): its quota reservation goes back
      await this.#quotas.release(t).catch(() => undefined);
      throw e;
    }
    return ACCEPTED;
  }

  /**
   * Whether the endpoint's run answers its requests itself (customResponse): then a CORS preflight
   * is delivered to it like any request; otherwise the HTTP layer answers it and nothing is
   * recorded. undefined: no such endpoint (or a disabled one).
   */
  async answersItself(key: string): Promise<boolean | undefined> {
    const t = await this.#targets.byEndpoint(key);
    if (!t || !t.source.active) return undefined;
    return customResponse(t);
  }

  /** Durably accepts a run of `t` with `event`; it runs in the background, when there is room. */
  async enqueue(t: Target, event: unknown): Promise<void> {
    // counted before the write, so requests arriving together can't all slip under the bound
    const room = this.#backlog?.admit();
    if (room) await room;
    await this.#write(t, () => event);
  }

  /** The write of a run the backlog has counted already (admit()); gives the count back if it fails. */
  async #write(t: Target, event: () => unknown): Promise<void> {
    let seq: number;
    let eventJson: string | undefined;
    try {
      const value = event();
      eventJson = value === undefined ? undefined : JSON.stringify(value);
      seq = await this.#inbox.add({
        source_id: t.source.id,
        kind: "run",
        // "" is a run with no event (POST /sources/{id}/run without one)
        event: eventJson ?? "",
        received_at_ms: Date.now(),
      });
    } catch (e) {
      this.#backlog?.giveBack();
      throw e;
    }
    this.#pump.accepted(t, seq, eventJson);
  }

  /**
   * Another node took a customResponse request for a source this node runs: run it here, and
   * hand back the answer. Refused when the source has moved on (the caller asks the new owner).
   */
  async respondHere(sourceId: string, eventJson: string): Promise<HttpResponse> {
    const t = await this.#targets.get(sourceId);
    if (!t || !t.source.active) throw notFound("endpoint");
    if (this.#ownership && !this.#ownership.owns(sourceId)) throw moved();
    return this.#respond(t, eventJson);
  }

  async #respondOrForward(t: Target, event: unknown): Promise<HttpResponse> {
    const eventJson = JSON.stringify(event);
    const own = this.#ownership;
    if (!own || !this.#peers || own.owns(t.source.id)) return this.#respond(t, eventJson);
    // the owner runs it; while the partition changes hands (a few seconds) nobody does: 503
    const address = await own.ownerAddress(t.source.id);
    if (!address) throw moved();
    return this.#peers.respond(address, t.source.id, eventJson);
  }

  async #respond(t: Target, eventJson: string): Promise<HttpResponse> {
    if (t.workflow) return this.#respondFromRun(t, t.workflow, eventJson);
    const result = await this.#inv.invoke(t, "run", eventJson);
    if (result.response) return result.response;
    if (result.error) throw new AppError("source_failed", "the source failed before it responded");
    throw new AppError("source_failed", "the source finished without calling this.http.respond()");
  }

  // custom_response (docs/writing-workflows.md, "Answering the request"): the reply goes out once the step that called $.respond() has committed, while
  // the run goes on; a run that ends, fails or waits without responding answers 502
  #respondFromRun(t: Target, w: WorkflowRow, eventJson: string): Promise<HttpResponse> {
    return new Promise((resolve, reject) => {
      let answered = false;
      const respond = (r: HttpResponse) => {
        answered = true;
        resolve(r);
      };
      this.#inv.invoke(t, "run", eventJson, { respond }).then(
        (result) => {
          if (answered) return;
          const step = result.error?.cellId !== undefined ? w.steps.find((s) => s.id === result.error!.cellId) : undefined;
          if (result.error) reject(new AppError("step_failed", step ? `the workflow failed at step "${step.name}" before it responded` : "the workflow failed before it responded"));
          else reject(new AppError("no_response", "the workflow run ended (or is waiting) without calling $.respond()"));
        },
        (e: unknown) => {
          if (!answered) reject(e);
        },
      );
    });
  }
}

function moved(): AppError {
  const e = new AppError("unavailable", "this endpoint's source is moving between nodes: try again in a moment");
  e.retryAfterSeconds = 1;
  return e;
}
