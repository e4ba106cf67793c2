import type { Store } from "../store/port.ts";
import type { ComponentAnalyzer, ComponentBundler, Invoker } from "../runtime/types.ts";
import type { InvokeLimits } from "../runtime/protocol.ts";
import type { Bus } from "../bus/port.ts";
import type { SecretBox } from "../lib/secret-box.ts";
import type { CoreMetrics } from "./runtime/metrics.ts";
import type { Ownership } from "./cluster/ownership.ts";
import type { Peers } from "./cluster/peers.ts";

/** What the domain needs, wired once by buildApp. */
export interface CoreDeps {
  store: Store;
  analyzer: ComponentAnalyzer;
  bundler: ComponentBundler;
  secrets: SecretBox;
  publicUrl: string;
  fetchAllow: readonly string[];
  quotas: { dailyInvocations: number; dailyComputeTime: number };
  invoker: Invoker;
  bus: Bus;
  limits: InvokeLimits;
  /** events kept per emitter and stream */
  retention: number;
  /** workflow runs kept per workflow (suspended and running ones always) */
  runRetention: number;
  /** a failed workflow step's first retry waits this long, doubling (docs/writing-workflows.md, "Retries, concurrency and rate") */
  runRetryMs: number;
  /** the service's version (a workflow error's platform_version) */
  version: string;
  /** waits between a webhook delivery's tries (5 tries over about an hour: docs/api.md, "Webhooks") */
  webhookBackoffMs: readonly number[];
  /** deliveries that may wait for one webhook; past it the oldest are dropped (default 10,000) */
  webhookMaxPending?: number;
  /** queued work held in memory at once (runs from the inbox, deliveries); the rest waits in the store */
  backlog: {
    maxInFlight: number;
    maxInFlightBytes: number;
    maxWaiting?: number;
    /** how long a request past maxWaiting waits for room before it is refused, ms (backlog.ts); 0 = refused at once */
    holdMs?: number;
    /** event-loop delay (p99, ms) past which accepted runs are throttled (edge-first.ts); 0 = never */
    edgeLagMs?: number;
  };
  /** the operator's metrics (counters and histograms only); none when absent */
  metrics?: CoreMetrics;
  /** which emitters' durable work this node runs (default: all of them, one node) */
  ownership?: Ownership;
  /** calls on other nodes (several nodes) */
  peers?: Peers;
  /** where $.send.email sends (TRIBUTARY_SMTP_URL), and from whom; absent: it can't */
  smtp?: { url: string; from: string };
  /** with smtp: email an emitter's owner when it fails (core/runtime/error-mail.ts) */
  errorEmails?: boolean;
  /** a props form's question (options(), additionalProps()) may take this long (default 10 s) */
  propsTimeoutMs?: number;
}
