import { timingSafeEqual, createHash } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { CoreMetrics, WebhookAttempt } from "../core/runtime/metrics.ts";
import type { InvocationKind } from "../runtime/protocol.ts";
import { AppError } from "../lib/errors.ts";

// The Prometheus side of the service's metrics (GET /metrics, text format), with prom-client.
// Core reports through the CoreMetrics port; the HTTP layer counts requests in one onResponse
// hook; gauges (capacity, runners, SSE clients) are read when scraped. Labels are bounded sets:
// the route pattern (never the URL, which may hold an endpoint key), the method, the status,
// an invocation's kind and outcome. Each app gets its own registry (tests build several).

/** What the gauges read at scrape time. */
export interface MetricsSources {
  /** runs and deliveries held in memory now (the shared capacity) */
  inFlight(): number;
  /** accepted runs of HTTP sources in flight from the inbox */
  inboxInFlight(): number;
  /** the most accepted runs held at once now: lowered past capacity (core/flow/edge-first.ts) */
  inboxLimit(): number;
  /** per runner: processes started (restarts + 1) and the RSS it last reported */
  runners(): Array<{ started: number; rss: number }>;
  /** rows waiting in the store: full counts, so read at most every PENDING_EVERY_MS */
  pending(): Promise<{ inbox: number; deliveries: number }>;
}

const PENDING_EVERY_MS = 5000;

/** the log a failed webhook attempt is written to */
export interface WarnLog {
  warn(obj: object, msg: string): void;
}

type CounterChild = Counter.Internal;
type HistogramChild = Histogram.Internal<string>;

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const INVOCATION_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];
const COMMIT_SIZE_BUCKETS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000];

export class PromMetrics implements CoreMetrics {
  readonly registry = new Registry();
  readonly #httpRequests: Counter<"route" | "method" | "status">;
  readonly #httpDuration: Histogram<"route" | "method" | "status">;
  readonly #endpointRequests: Counter<"status">;
  readonly #invocations: Counter<"kind" | "outcome">;
  readonly #invocationDuration: Histogram<"kind" | "outcome">;
  readonly #commitResults: Histogram;
  readonly #commitDuration: Histogram;
  readonly #webhookAttempts: Counter<"outcome">;
  #sources: MetricsSources | undefined;
  // route patterns, methods, statuses and kinds are bounded sets, so these maps are too
  readonly #requestChildren = new Map<string, { count: CounterChild; duration: HistogramChild; endpoint: CounterChild | undefined }>();
  readonly #invocationChildren = new Map<string, { count: CounterChild; duration: HistogramChild }>();
  /** where failed webhook attempts are logged (the service's logger, once it exists) */
  log: WarnLog | undefined;

  constructor() {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: "tributary_" });
    this.#httpRequests = new Counter({
      name: "tributary_http_requests_total",
      help: "HTTP requests answered, by route pattern, method and status",
      labelNames: ["route", "method", "status"],
      registers,
    });
    this.#httpDuration = new Histogram({
      name: "tributary_http_request_duration_seconds",
      help: "time from a request's arrival to its response, by route pattern, method and status",
      labelNames: ["route", "method", "status"],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.#endpointRequests = new Counter({
      name: "tributary_http_endpoint_requests_total",
      help: "requests to HTTP source endpoints (/http/...), by status (2xx: accepted)",
      labelNames: ["status"],
      registers,
    });
    this.#invocations = new Counter({
      name: "tributary_invocations_total",
      help: "invocations (runs and hooks) finished, by kind and outcome",
      labelNames: ["kind", "outcome"],
      registers,
    });
    this.#invocationDuration = new Histogram({
      name: "tributary_invocation_duration_seconds",
      help: "wall-clock time of an invocation in the sandbox, by kind and outcome",
      labelNames: ["kind", "outcome"],
      buckets: INVOCATION_BUCKETS,
      registers,
    });
    this.#commitResults = new Histogram({
      name: "tributary_commit_results",
      help: "results written per group commit (transaction)",
      buckets: COMMIT_SIZE_BUCKETS,
      registers,
    });
    this.#commitDuration = new Histogram({
      name: "tributary_commit_duration_seconds",
      help: "time to write one group commit",
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.#webhookAttempts = new Counter({
      name: "tributary_webhook_attempts_total",
      help: "webhook POSTs, by outcome (delivered, retry: failed and tried again later, failed: the last try failed)",
      labelNames: ["outcome"],
      registers,
    });
    // collect() runs with the metric as `this`: the sources are reached through these closures
    const sources = () => this.#sources;
    const sseClients = () => this.sseClients();
    new Gauge({
      name: "tributary_sse_clients",
      help: "live SSE streams open",
      registers,
      collect() {
        this.set(sseClients());
      },
    });
    // a gauge read from the sources at scrape time (none set yet: left as it is)
    const sourceGauge = (name: string, help: string, read: (s: MetricsSources) => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          const s = sources();
          if (s) this.set(read(s));
        },
      });
    sourceGauge("tributary_in_flight", "accepted runs and deliveries held in memory (the rest waits in the store)", (s) => s.inFlight());
    sourceGauge("tributary_inbox_in_flight", "accepted HTTP-source runs read from the inbox and running now", (s) => s.inboxInFlight());
    sourceGauge(
      "tributary_inbox_run_limit",
      "the most accepted runs held at once now: below the in-flight capacity while endpoints refuse work and the event loop is late (TRIBUTARY_EDGE_LAG_MS)",
      (s) => s.inboxLimit(),
    );
    // A COUNT over a big table per scrape would cost more than the scrape: counted at most every
    // PENDING_EVERY_MS, one count shared by both gauges, the last value kept if the store fails.
    let pending = { inbox: 0, deliveries: 0 };
    let countedAt = -Infinity;
    let counting: Promise<void> | undefined;
    const counts = async () => {
      const s = sources();
      if (!s) return pending;
      if (performance.now() - countedAt >= PENDING_EVERY_MS) {
        counting ??= s
          .pending()
          .then((p) => void (pending = p))
          .catch(() => {})
          .finally(() => {
            countedAt = performance.now();
            counting = undefined;
          });
        await counting;
      }
      return pending;
    };
    new Gauge({
      name: "tributary_inbox_pending",
      help: "accepted HTTP-source runs waiting in the store's inbox, running ones included (counted at most every 5 s)",
      registers,
      async collect() {
        this.set((await counts()).inbox);
      },
    });
    new Gauge({
      name: "tributary_deliveries_pending",
      help: "deliveries queued in the store, to sources, workflows and webhooks (counted at most every 5 s)",
      registers,
      async collect() {
        this.set((await counts()).deliveries);
      },
    });
    new Counter({
      name: "tributary_runner_restarts_total",
      help: "sandbox runner processes started again after the first (crashes, memory, RSS retirement)",
      registers,
      collect() {
        const s = sources();
        if (!s) return;
        const restarts = s.runners().reduce((n, r) => n + Math.max(0, r.started - 1), 0);
        this.reset();
        this.inc(restarts);
      },
    });
    new Gauge({
      name: "tributary_runner_rss_bytes",
      help: "resident memory each sandbox runner process last reported",
      labelNames: ["runner"],
      registers,
      collect() {
        const s = sources();
        if (!s) return;
        s.runners().forEach((r, i) => this.set({ runner: String(i) }, r.rss));
      },
    });
  }

  /** The gauges' sources, once the parts exist. */
  observe(sources: MetricsSources): void {
    this.#sources = sources;
  }

  // -- CoreMetrics --
  invocation(kind: InvocationKind, ok: boolean, wallMs: number): void {
    const key = ok ? kind : `${kind} error`;
    let c = this.#invocationChildren.get(key);
    if (!c) {
      const outcome = ok ? "ok" : "error";
      c = { count: this.#invocations.labels(kind, outcome), duration: this.#invocationDuration.labels(kind, outcome) };
      this.#invocationChildren.set(key, c);
    }
    c.count.inc();
    c.duration.observe(wallMs / 1000);
  }

  commit(results: number, seconds: number): void {
    this.#commitResults.observe(results);
    this.#commitDuration.observe(seconds);
  }

  webhookAttempt(a: WebhookAttempt): void {
    this.#webhookAttempts.labels(a.outcome).inc();
    if (a.outcome === "delivered") return;
    this.log?.warn(
      { webhook: a.webhookId, event: a.eventId, status: a.status, error: a.reason, attempt: a.attempt, tries: a.tries, outcome: a.outcome },
      `webhook delivery failed: ${a.webhookId} event ${a.eventId}: ${a.reason ?? "failed"} (attempt ${a.attempt} of ${a.tries}${a.outcome === "failed" ? ", giving up" : ""})`,
    );
  }

  // -- the HTTP layer --
  /** one answered request: `route` is the route's pattern, or undefined when none matched */
  request(route: string | undefined, method: string, status: number, seconds: number): void {
    // the labelled children, found with one lookup: this runs for every request
    const key = `${route} ${method} ${status}`;
    let c = this.#requestChildren.get(key);
    if (!c) {
      const r = route ?? "(unmatched)";
      const s = String(status);
      c = {
        count: this.#httpRequests.labels(r, method, s),
        duration: this.#httpDuration.labels(r, method, s),
        endpoint: route !== undefined && route.startsWith("/http/") ? this.#endpointRequests.labels(s) : undefined,
      };
      this.#requestChildren.set(key, c);
    }
    c.count.inc();
    c.duration.observe(seconds);
    c.endpoint?.inc();
  }

  /** the live SSE streams open now (set by the SSE routes) */
  sseClients: () => number = () => 0;
}

const digest = (s: string) => createHash("sha256").update(s).digest();

/** GET /metrics; with a token, only for `Authorization: Bearer <token>` (401 envelope otherwise). */
export function metricsRoute(app: FastifyInstance, metrics: PromMetrics, token: string | undefined): void {
  const want = token === undefined ? undefined : digest(token);
  app.get("/metrics", { schema: { hide: true } }, async (req: FastifyRequest, reply: FastifyReply) => {
    if (want) {
      const m = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? "");
      if (!m || !timingSafeEqual(digest(m[1].trim()), want)) throw new AppError("unauthorized", "send the metrics token as Authorization: Bearer <token>");
    }
    const text = await metrics.registry.metrics();
    reply.header("cache-control", "no-store");
    reply.type(metrics.registry.contentType);
    return text;
  });
}
