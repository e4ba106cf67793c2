import type { FastifyInstance } from "fastify";
import { createRequire } from "node:module";
import type { Config } from "./config.ts";
import { openStore } from "./store/store.ts";
import type { Store } from "./store/port.ts";
import { createAnalyzer } from "./runtime/analyzer.ts";
import { Bundler } from "./runtime/packages/bundler.ts";
import { join } from "node:path";
import { RunnerPool } from "./runtime/runner-pool.ts";
import { runtimeBundle } from "./runtime/runtime-bundle.ts";
import { MemoryBus } from "./bus/memory.ts";
import { RedisBus } from "./bus/redis.ts";
import type { Bus } from "./bus/port.ts";
import { LeaseOwnership } from "./core/cluster/lease-ownership.ts";
import { SoleOwnership, type Ownership } from "./core/cluster/ownership.ts";
import type { InvokeLimits } from "./runtime/protocol.ts";
import { listShippedComponents } from "./runtime/registry-files.ts";
import { Core } from "./core/core.ts";
import { runnerReads } from "./core/data-stores/runner-reads.ts";
import type { RunnerAsk } from "./runtime/ipc.ts";
import { SecretBox } from "./lib/secret-box.ts";
import { createHttpServer } from "./http/server.ts";
import { loadSecretKey } from "./secret-key.ts";
import { PromMetrics } from "./http/metrics.ts";
import { peerClient } from "./http/peer-client.ts";
import { createHmac } from "node:crypto";
import { hostname } from "node:os";

export const VERSION: string = createRequire(import.meta.url)("../package.json").version;

export interface App {
  http: FastifyInstance;
  core: Core;
  /** the store and the runner pool, for operators' tools (metrics) and tests */
  store: Store;
  runners: RunnerPool;
  /** set when this start created the admin user: its key, to be shown once */
  createdAdminKey?: string;
  close(): Promise<void>;
}

export interface BuildOptions {
  /** pino options, or false for silence (tests) */
  logger?: boolean | object;
}

/** Wires every part from config. Never listens: main.ts does, and tests use inject or port 0. */
export async function buildApp(config: Config, opts: BuildOptions = {}): Promise<App> {
  const store = await openStore({ kind: config.store, dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  const analyzer = createAnalyzer();
  let answer: (ask: RunnerAsk) => Promise<unknown> = () => Promise.reject(new Error("the service is starting"));
  const invoker = new RunnerPool({
    size: config.runners,
    settings: {
      warmMemoryMb: config.runnerWarmMemoryMb,
      warmSources: config.runnerWarmSources,
      runtimeBundle: runtimeBundle(),
      syncEntries: config.runnerSyncEntries,
    },
    maxRssBytes: config.runnerMaxRssMb * 1024 * 1024,
    nice: config.runnerNice,
    // the runners' data store reads see writes not committed yet, which the core holds
    answer: (ask) => answer(ask),
  });
  // the logger exists once the HTTP server does; until then, errors go to stderr
  let log: (err: unknown, what: string) => void = (err, what) => console.error(what, err);
  const logLater = (err: unknown, what: string) => log(err, what);
  const cluster = config.bus === "redis";
  let bus: Bus & { readonly subscribers: number };
  try {
    bus = cluster
      ? await RedisBus.connect({ url: config.redisUrl!, node: config.nodeId, prefix: busPrefix(config), log: logLater })
      : new MemoryBus();
  } catch (e) {
    await invoker.close();
    await analyzer.close();
    await store.close();
    throw e;
  }
  const secretKey = loadSecretKey(config.secretKey, config.dataDir);
  // nodes prove themselves to each other with a token derived from the key they all share
  const clusterToken = cluster ? createHmac("sha256", secretKey).update("tributary node-to-node").digest("hex") : undefined;
  const ownership: Ownership = cluster
    ? new LeaseOwnership({ leases: store.leases, node: config.nodeId, address: null, ttlMs: config.leaseTtlMs, log: logLater })
    : new SoleOwnership(config.nodeId);
  const metrics = new PromMetrics();
  const limits: InvokeLimits = {
    timeoutMs: config.invocationTimeoutMs,
    memoryMb: 128,
    maxEmits: 1000,
    maxEventBytes: 1024 * 1024,
    maxLogLines: 100,
    maxLogLineBytes: 4096,
    maxDbBytes: 64 * 1024,
    maxResultBytes: config.maxResultBytes,
  };
  const bundler = new Bundler({
    cacheDir: join(config.dataDir, "npm"),
    npm: config.npm,
    registryUrl: config.npmRegistry,
    npmAllow: config.npmAllow,
    fetchAllow: config.fetchAllow,
    cacheMb: config.npmCacheMb,
    maxPackageMb: config.npmMaxPackageMb,
    maxSaveMb: config.npmMaxSaveMb,
    maxFiles: config.npmMaxFiles,
    maxPackumentMb: config.npmMaxPackumentMb,
    saveTimeoutMs: config.saveTimeoutMs,
  });
  const core = new Core({
    store,
    analyzer,
    bundler,
    secrets: new SecretBox(secretKey),
    publicUrl: config.publicUrl,
    fetchAllow: config.fetchAllow,
    quotas: { dailyInvocations: config.dailyInvocationsQuota, dailyComputeTime: config.dailyComputeTimeQuota },
    invoker,
    bus,
    limits,
    retention: config.eventRetention,
    runRetention: config.runRetention,
    runRetryMs: config.runRetryMs,
    version: VERSION,
    webhookBackoffMs: config.webhookBackoffMs,
    webhookMaxPending: config.webhookMaxPending,
    backlog: { maxInFlight: config.maxInFlight, maxInFlightBytes: config.maxInFlightMb * 1024 * 1024, maxWaiting: config.maxBacklog, holdMs: config.overloadHoldMs, edgeLagMs: config.edgeLagMs },
    metrics,
    ownership,
    ...(clusterToken ? { peers: peerClient(clusterToken, config.invocationTimeoutMs + 5000) } : {}),
    ...(config.smtpUrl ? { smtp: { url: config.smtpUrl, from: config.smtpFrom } } : {}),
    errorEmails: config.errorEmails,
    propsTimeoutMs: config.propsTimeoutMs,
  });
  answer = runnerReads(store.dataStoreRecords, core.runtime.pendingWrites);
  metrics.observe({
    inFlight: () => core.runtime.capacity.inFlight,
    inboxInFlight: () => core.runtime.pump.inFlight,
    inboxLimit: () => Math.min(core.runtime.capacity.inboxLimit, core.runtime.capacity.maxRuns),
    runners: () => invoker.stats(),
    pending: async () => {
      const [inbox, deliveries] = await Promise.all([store.events.inboxCount(), store.deliveries.count()]);
      return { inbox, deliveries };
    },
  });
  // only the SSE streams subscribe to the bus
  metrics.sseClients = () => bus.subscribers;
  const shutdown = async () => {
    await core.runtime.close();
    await bus.close();
    await invoker.close();
    await analyzer.close();
    await store.close();
  };
  try {
    // once, however many nodes start together on one database
    const createdAdminKey = await store.exclusively("bootstrap", async () => {
      await core.components.installShipped(listShippedComponents());
      return core.users.bootstrapAdmin(config.adminKey);
    });
    const http = await createHttpServer(core, {
      logger: opts.logger ?? { level: config.logLevel },
      bodyLimit: config.apiBodyLimit,
      version: VERSION,
      health: () => store.ping(),
      limits: config.httpLimits,
      corsOrigins: config.corsOrigins,
      metrics,
      metricsToken: config.metricsToken,
      clusterToken,
      dashboard: config.dashboard,
      dashboardSession: { secretKey, users: store.users },
    });
    metrics.log = http.log;
    core.runtime.log = (err, what) => http.log.error({ err }, what);
    log = (err, what) => http.log.warn({ err }, what);
    // the other nodes reach this one at its own address (customResponse runs), once it listens
    http.addHook("onListen", async () => {
      const a = http.server.address();
      if (a && typeof a === "object") ownership.setAddress(config.nodeUrl ?? nodeUrl(config.host, a.port));
    });
    store.onUnavailable((err) => http.log.error({ err }, "storage unavailable: answering 503 until a probe write succeeds"));
    store.onRecovered(() => http.log.warn("storage available again"));
    // requests waiting for room in the backlog are answered at once, not after the hold bound
    http.addHook("preClose", async () => core.runtime.backlog.close());
    http.addHook("onClose", shutdown);
    await core.runtime.start();
    return { http, core, store, runners: invoker, createdAdminKey, close: () => http.close() };
  } catch (err) {
    await shutdown();
    throw err;
  }
}

// The nodes of one database share their Redis channels; another deployment on the same Redis
// (another database) doesn't hear them.
function busPrefix(config: Config): string {
  let db = "";
  try {
    // the name only: nodes may reach one server under different host names
    db = new URL(config.databaseUrl ?? "").pathname.replace(/^\//, "");
  } catch {
    // an unparseable URL was refused by the store already
  }
  return `tributary:${db || "default"}:`;
}

function nodeUrl(host: string, port: number): string {
  const h = host === "0.0.0.0" || host === "::" ? hostname() : host.includes(":") ? `[${host}]` : host;
  return `http://${h}:${port}`;
}
