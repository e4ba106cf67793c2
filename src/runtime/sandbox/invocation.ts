// What one invocation accumulates on the runner's side while the component runs: emits, logs,
// the db working copy, the HTTP response, its timers and fetches. The isolate reaches it only
// through the invocation ops (invocation-ops.ts), whose arguments are checked here, never trusted.
import type { EmitMeta, EmittedEvent, EnvText, HttpResponse, InvocationError, InvokeLimits, LogLine, QueuedSend, StepFlow, StepReport } from "../protocol.ts";
import { queuedSend } from "./queued-send.ts";
import type { DbState } from "./db-state.ts";
import { jsonTooDeep, MAX_JSON_DEPTH } from "../../lib/json-shape.ts";
import { checkResponseHeaders } from "./response-headers.ts";
import { withoutHostPaths } from "./host-paths.ts";
import type { DataStoreWork } from "./data-store-work.ts";
import { InvocationSockets } from "./sockets/sockets.ts";

const LEVELS = ["log", "info", "warn", "error", "debug"];
const MAX_ERROR_TEXT = 16 * 1024;
/** sends one step may queue */
const MAX_SENDS = 100;

const isStr = (x: unknown) => typeof x === "string";

export function cutBytes(s: string, max: number): string {
  if (s.length <= max / 3 || Buffer.byteLength(s) <= max) return s;
  // Cut on a character boundary: decoding a cut multi-byte sequence would leave a U+FFFD.
  return Buffer.from(s).subarray(0, max).toString("utf8").replace(/\uFFFD$/, "");
}

export function invocationError(name: unknown, message: unknown, stack: unknown): InvocationError {
  return {
    name: typeof name === "string" && name ? name.slice(0, 200) : "Error",
    message: withoutHostPaths(String(message ?? "")).slice(0, MAX_ERROR_TEXT),
    stack: typeof stack === "string" ? withoutHostPaths(stack).slice(0, MAX_ERROR_TEXT) : "",
  };
}

/**
 * Why an ended invocation's fetches are cut: made once. abort() without a reason builds a new
 * DOMException, stack trace included, at the end of every invocation that fetched.
 */
const ENDED = Object.assign(new Error("the invocation ended"), { name: "AbortError" });

export class Invocation {
  readonly limits: InvokeLimits;
  readonly db: DbState;
  /** the owner's environment variables (process.env), or undefined: none */
  readonly env: EnvText | undefined;
  readonly emits: EmittedEvent[] = [];
  readonly emitErrors: InvocationError[] = [];
  readonly logs: LogLine[] = [];
  // Made only when a fetch needs it: aborting one builds a DOMException, which cost ~9% of the
  // runner's time when every run made and aborted one.
  #abort: AbortController | undefined;
  #ended = false;
  readonly timers = new Map<number, NodeJS.Timeout>();
  response: HttpResponse | undefined;
  dbChanged = false;
  /** a workflow's steps as they end */
  readonly steps: StepReport[] = [];
  #step: { cellId: string; startedAt: number; logsFrom: number; sends?: QueuedSend[] } | undefined;
  #sends = 0;
  #emitCalls = 0;
  #droppedLogs = 0;
  /** bytes handed to the host so far (emits, logs, response), bounded by maxResultBytes */
  #resultBytes = 0;

  constructor(limits: InvokeLimits, db: DbState, env?: EnvText) {
    this.limits = limits;
    this.db = db;
    this.env = env;
  }

  /** its data stores (`data_store` props): reads and the writes it hands back */
  dataStores: DataStoreWork | undefined;

  /** Counts bytes the invocation hands back beyond emits, logs and response (data store writes). */
  charge(bytes: number, what: string): void {
    this.#take(bytes, what);
  }

  countEmit(): void {
    if (++this.#emitCalls > this.limits.maxEmits) {
      throw new RangeError(`more than ${this.limits.maxEmits} $emit calls in one invocation`);
    }
  }

  // Throws into the invocation: the call that would pass the bound fails, and with it the run
  // unless the component catches it (then nothing more gets through anyway).
  #take(bytes: number, what: string): void {
    if (this.#resultBytes + bytes > this.limits.maxResultBytes) {
      throw new RangeError(`${what}: this invocation's output would pass ${this.limits.maxResultBytes} bytes in all`);
    }
    this.#resultBytes += bytes;
  }

  emit(json: unknown, id: unknown, name: unknown, summary: unknown, ts: unknown): void {
    if (typeof json !== "string") throw new TypeError("malformed emit");
    const bytes = Buffer.byteLength(json);
    if (bytes > this.limits.maxEventBytes) {
      this.emitError(`event is over the limit of ${this.limits.maxEventBytes} bytes of JSON`, "");
      return;
    }
    if (jsonTooDeep(json)) {
      this.emitError(`event nests deeper than ${MAX_JSON_DEPTH} levels`, "");
      return;
    }
    this.#take(bytes, "$emit");
    const meta: EmitMeta = {};
    const okId = (x: unknown) => isStr(x) || (typeof x === "number" && Number.isFinite(x));
    const okTs = (x: unknown) => typeof x === "number" && Number.isFinite(x);
    if (okId(id)) meta.id = id as string | number;
    if (isStr(name)) {
      // a stream name is stored as text, which can't hold NUL in PostgreSQL
      if ((name as string).includes("\u0000") || (name as string).length > 1000) {
        this.emitError("a stream name can't contain NUL or be longer than 1000 characters", "");
        return;
      }
      meta.name = name as string;
    }
    if (isStr(summary)) meta.summary = summary as string;
    if (okTs(ts)) meta.ts = ts as number;
    this.emits.push({ json, meta });
  }

  emitError(message: unknown, stack: unknown): void {
    this.emitErrors.push(invocationError("EmitError", message, stack));
  }

  /** Returns whether later lines will still be kept, so the isolate can stop formatting them. */
  log(level: unknown, msg: unknown): boolean {
    if (this.logs.length >= this.limits.maxLogLines || typeof msg !== "string") {
      this.#droppedLogs++;
      return false;
    }
    const lvl = (LEVELS.includes(level as string) ? level : "log") as LogLine["level"];
    const line = cutBytes(msg, this.limits.maxLogLineBytes);
    this.#take(line.length, "console");
    this.logs.push({ level: lvl, msg: line, ts: Date.now() });
    return this.logs.length < this.limits.maxLogLines;
  }

  /** The logs as reported: at most maxLogLines, then one line counting the dropped ones. */
  finalLogs(): LogLine[] {
    if (this.#droppedLogs === 0) return this.logs;
    const msg = `${this.#droppedLogs} more console line(s) dropped (limit ${this.limits.maxLogLines} per invocation)`;
    return [...this.logs, { level: "warn", msg, ts: Date.now() }];
  }

  /** A workflow step starts (its cellId is checked by the caller). */
  stepStart(cellId: string): void {
    this.#step = { cellId, startedAt: Date.now(), logsFrom: this.logs.length };
  }

  /** $.send.http / $.send.email in a step: queued on the step, sent once it commits. */
  send(kind: unknown, json: unknown): void {
    if (!this.#step) throw new Error("$.send can only be called while a step runs");
    if (++this.#sends > MAX_SENDS) throw new RangeError(`more than ${MAX_SENDS} $.send.http / $.send.email calls in one step`);
    const queued = queuedSend(kind, json, this.limits.maxEventBytes);
    this.#take(queued.request.length, `$.send.${queued.kind}()`);
    (this.#step.sends ??= []).push(queued);
  }

  /** The step that started last ended; what it returned and exported count toward the output. */
  stepEnd(status: unknown, returnValue: unknown, exports: unknown, summary: unknown, flow: unknown): void {
    const step = this.#step;
    if (!step) return;
    this.#step = undefined;
    const report: StepReport = {
      ...step,
      status: status === "failed" || status === "exited" ? status : "succeeded",
      endedAt: Date.now(),
      logsTo: this.logs.length,
    };
    for (const [field, value] of [["returnValue", returnValue], ["exports", exports]] as const) {
      if (typeof value !== "string") continue;
      this.#take(Buffer.byteLength(value), `step ${field === "returnValue" ? "return value" : "exports"}`);
      report[field] = value;
    }
    if (isStr(summary)) report.summary = cutBytes(summary as string, 4096);
    if (typeof flow === "string") {
      this.#take(Buffer.byteLength(flow), "$.flow.rerun() context");
      report.flow = stepFlow(flow);
    }
    this.steps.push(report);
  }

  dbGet(key: unknown): string | undefined {
    return this.db.get(String(key));
  }

  dbSet(key: unknown, json: unknown): void {
    if (typeof json === "string" && jsonTooDeep(json)) throw new RangeError(`db.set(): the value nests deeper than ${MAX_JSON_DEPTH} levels`);
    this.db.set(String(key), typeof json === "string" ? json : undefined, this.limits.maxDbBytes);
    this.dbChanged = true;
  }

  // What reaches the HTTP reply is checked here, where a mistake can still fail the run onto
  // $errors with a clear message, instead of failing the reply with Node's own 500.
  respond(status: unknown, headers: unknown, kind: unknown, body: unknown, immediate?: unknown): void {
    if (this.response) return;
    if (typeof status !== "number" || !Number.isInteger(status) || status < 200 || status > 599) {
      throw new RangeError("respond(): status must be an integer from 200 to 599");
    }
    const response: HttpResponse = { status, headers: checkResponseHeaders(headers) };
    if (typeof body === "string" && (kind === "text" || kind === "json")) {
      if (kind === "json" && jsonTooDeep(body)) throw new RangeError(`respond(): the body nests deeper than ${MAX_JSON_DEPTH} levels`);
      this.#take(Buffer.byteLength(body), "respond()");
      response.body = kind === "json" ? JSON.parse(body) : body;
    }
    this.response = response;
    // $.respond({immediate: true}): the reply goes out now, the run goes on
    // (docs/writing-workflows.md, Answering the request)
    if (immediate === true) this.onImmediate?.(response);
  }

  /** hears a response to send at once (set when the host can send one: invoke.ts) */
  onImmediate: ((response: HttpResponse) => void) | undefined;

  /** aborted when the invocation ends: its fetches stop with it */
  get signal(): AbortSignal {
    if (this.#ended) return AbortSignal.abort();
    return (this.#abort ??= new AbortController()).signal;
  }

  #sockets: InvocationSockets | undefined;

  /** its sockets and DNS queries (net, tls, dns in the sandbox), made when first used */
  sockets(allow: readonly string[]): InvocationSockets {
    if (this.#ended) throw new Error("sockets are only available while the component is invoked");
    return (this.#sockets ??= new InvocationSockets(allow));
  }

  /** Stops what the invocation left behind: its timers, in-flight fetches and open sockets. */
  end(): void {
    this.#ended = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    this.#abort?.abort(ENDED);
    this.#sockets?.closeAll();
  }
}

const MAX_WAIT_MS = 365 * 24 * 60 * 60 * 1000;

/** What isolate/workflow.js says a step asked for, checked: everything the isolate says may lie. */
function stepFlow(json: string): StepFlow {
  const f = JSON.parse(json) as Record<string, unknown>;
  const kind = f.kind === "delay" || f.kind === "suspend" || f.kind === "rerun" ? f.kind : undefined;
  const ms = typeof f.ms === "number" && Number.isFinite(f.ms) ? Math.min(Math.max(0, Math.floor(f.ms)), MAX_WAIT_MS) : undefined;
  if (!kind || ms === undefined) throw new TypeError("malformed $.flow request");
  const out: StepFlow = { kind, ms };
  if (kind === "rerun") {
    out.max = typeof f.max === "number" && Number.isInteger(f.max) && f.max >= 0 ? f.max : 10;
    if (typeof f.context === "string") out.context = f.context;
  }
  return out;
}
