import { resolve } from "node:path";
import { cpus, hostname } from "node:os";
import { openFilesLimit } from "./lib/open-files-limit.ts";
import { MAX_TIMER_MS } from "./lib/clock.ts";

// One typed object, resolved once from env (and `--flag=value` arguments), with defaults that
// run the embedded store with no setup at all (docs/operations.md, "Settings").
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  publicUrl: string;
  adminKey?: string;
  store: "sqlite" | "postgres";
  databaseUrl?: string;
  eventRetention: number;
  fetchAllow: string[];
  /** 0 means unlimited (docs/api.md, "Usage and quotas") */
  dailyInvocationsQuota: number;
  /** milliseconds; 0 means unlimited */
  dailyComputeTimeQuota: number;
  /** base64 or hex 32-byte key for secret props; when absent a key file in dataDir is used */
  secretKey?: string;
  runners: number;
  /** wall-clock limit per invocation, ms (30 s default, 300 s max: docs/writing-components.md, "Limits") */
  invocationTimeoutMs: number;
  /** wall-clock limit of a props form's question (options(), additionalProps()), ms (10 s by default: docs/api.md, "Dynamic props") */
  propsTimeoutMs: number;
  logLevel: string;
  apiBodyLimit: number;
  /** waits between webhook tries, ms (5 tries over about an hour: docs/api.md, "Webhooks") */
  webhookBackoffMs: number[];
  /** deliveries that may wait for one webhook; past it the oldest are dropped (a dead receiver) */
  webhookMaxPending: number;
  /** how long a connection may take over its requests, and how many there may be (slowloris) */
  httpLimits: HttpLimits;
  // -- runtime bounds (what one component, or a burst of work, may cost) --
  /** bytes one invocation may hand the host in all: emits, logs, db, response */
  maxResultBytes: number;
  /** heap budget of one runner's warm isolates together, MiB */
  runnerWarmMemoryMb: number;
  /** warm sources one runner keeps at most (TRIBUTARY_RUNNER_WARM_SOURCES) */
  runnerWarmSources: number;
  /** a runner past this RSS (MiB) is replaced once its work is done; 0 = never */
  runnerMaxRssMb: number;
  /** how far below the service's CPU priority runners run (nice, 0-19; 0 = the same) */
  runnerNice: number;
  /** runners may enter a quick component's isolate on their own thread (runtime/sandbox/entry-mode.ts) */
  runnerSyncEntries: boolean;
  /** runs and deliveries held in memory at once; the rest waits in the store */
  maxInFlight: number;
  /** ...and the bytes of their events, MiB */
  maxInFlightMb: number;
  /** accepted runs waiting in the inbox past which endpoints answer 429 overloaded; 0 = no bound */
  maxBacklog: number;
  /** how long a request past maxBacklog waits for room before its 429, ms; 0 = at once */
  overloadHoldMs: number;
  /** event-loop delay (p99, ms) past which accepted runs are throttled for the HTTP edge; 0 = never */
  edgeLagMs: number;
  // -- npm packages in components --
  /** TRIBUTARY_NPM: false = provided modules and Node's modules only (air-gapped hosts) */
  npm: boolean;
  /** the registry packages are installed from */
  npmRegistry: string;
  /** package names or `@scope/*` components may import; empty = any */
  npmAllow: string[];
  /** the package cache's size cap, MiB (least recently used versions go first) */
  npmCacheMb: number;
  /** workflow runs kept per workflow (the newest; suspended and running ones always) */
  runRetention: number;
  /** a failed workflow step's first retry waits this long, doubling for each next one */
  runRetryMs: number;
  /** where $.send.email sends (smtp:// or smtps://, with its credentials); absent: it can't */
  smtpUrl?: string;
  /** the sender of those emails */
  smtpFrom: string;
  /** email an emitter's owner when it fails (with SMTP set; at most one per emitter per 10 minutes) */
  errorEmails: boolean;
  /** what one package may unpack to, MiB */
  npmMaxPackageMb: number;
  /** what one save's packages may unpack to in all, MiB (at most the cache's cap) */
  npmMaxSaveMb: number;
  /** files one package may unpack (a save: twice that) */
  npmMaxFiles: number;
  /** the largest package metadata read from the registry, MiB */
  npmMaxPackumentMb: number;
  /** what installing a save's packages and bundling it may take in all, ms */
  saveTimeoutMs: number;
  // -- operators' edges --
  /** origins the API and SSE answer CORS requests from; ["*"] = any; empty = CORS off */
  corsOrigins: string[];
  /** when set, GET /metrics needs it as a Bearer token */
  metricsToken?: string;
  /** TRIBUTARY_DASHBOARD: false = no web dashboard at / */
  dashboard: boolean;
  // -- several nodes (one PostgreSQL, a Redis bus) --
  /** "memory": one node; "redis": several nodes on one PostgreSQL share a Redis pub/sub bus */
  bus: "memory" | "redis";
  redisUrl?: string;
  /** this node's name in leases and logs (default: host name + pid) */
  nodeId: string;
  /** where the other nodes reach this one (default: its listen address) */
  nodeUrl?: string;
  /** a partition lease lasts this long unrenewed: how soon a dead node's work moves (ms) */
  leaseTtlMs: number;
}

// --- HTTP connection limits (the HTTP edge) ---
export interface HttpLimits {
  /** from a connection's first byte (or the end of the previous request) to the end of the headers */
  headersTimeoutMs: number;
  /** from the first byte to the end of the body; the response may take as long as it needs */
  requestTimeoutMs: number;
  /** no bytes either way for this long ends a connection (a response waiting on a run included) */
  idleTimeoutMs: number;
  /** an idle kept-alive connection between requests */
  keepAliveTimeoutMs: number;
  /** connections over this are refused at once, so they can't take every file descriptor */
  maxConnections: number;
}

function httpLimits(e: Env, invocationTimeoutMs: number): HttpLimits {
  const headersTimeoutMs = int("TRIBUTARY_HTTP_HEADERS_TIMEOUT_MS", e.TRIBUTARY_HTTP_HEADERS_TIMEOUT_MS, 20_000, 100);
  const requestTimeoutMs = int("TRIBUTARY_HTTP_REQUEST_TIMEOUT_MS", e.TRIBUTARY_HTTP_REQUEST_TIMEOUT_MS, 60_000, 100);
  if (requestTimeoutMs < headersTimeoutMs) {
    throw new Error("TRIBUTARY_HTTP_REQUEST_TIMEOUT_MS (headers and body) can't be shorter than TRIBUTARY_HTTP_HEADERS_TIMEOUT_MS");
  }
  // A customResponse request is silent until its run ends, so by default the idle limit waits it out.
  const idleDefault = invocationTimeoutMs + 30_000;
  // Half the descriptors at most: the store, the runners and outgoing fetches need the rest.
  const fds = openFilesLimit();
  const connectionsDefault = Math.max(64, Math.min(10_000, fds ? Math.floor(fds / 2) : 10_000));
  return {
    headersTimeoutMs,
    requestTimeoutMs,
    idleTimeoutMs: int("TRIBUTARY_HTTP_IDLE_TIMEOUT_MS", e.TRIBUTARY_HTTP_IDLE_TIMEOUT_MS, idleDefault, 100),
    keepAliveTimeoutMs: int("TRIBUTARY_HTTP_KEEPALIVE_TIMEOUT_MS", e.TRIBUTARY_HTTP_KEEPALIVE_TIMEOUT_MS, 72_000, 100),
    maxConnections: int("TRIBUTARY_HTTP_MAX_CONNECTIONS", e.TRIBUTARY_HTTP_MAX_CONNECTIONS, connectionsDefault, 1),
  };
}
// --- end of HTTP connection limits ---

// 1 + 5 + 15 + 40 minutes: the fifth and last try comes about an hour after the first.
const WEBHOOK_BACKOFF_MS = [60_000, 300_000, 900_000, 2_400_000];

function backoff(raw: string | undefined): number[] {
  if (raw === undefined || raw === "") return WEBHOOK_BACKOFF_MS;
  const waits = raw.split(",").map((s) => Number(s.trim()));
  // a longer wait than a timer can take fires at once: a webhook lane would retry in a loop
  if (waits.length !== 4 || waits.some((n) => !Number.isInteger(n) || n < 0 || n > MAX_TIMER_MS)) {
    throw new Error(`TRIBUTARY_WEBHOOK_BACKOFF_MS must be 4 comma-separated integers (ms) up to ${MAX_TIMER_MS}, got "${raw}"`);
  }
  return waits;
}

type Env = Record<string, string | undefined>;

function int(name: string, raw: string | undefined, fallback: number, min = 0): number {
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer >= ${min}, got "${raw}"`);
  return n;
}

function onOff(name: string, raw: string | undefined, fallback: boolean): boolean {
  if (raw === undefined || raw === "") return fallback;
  const v = raw.trim().toLowerCase();
  if (["on", "true", "1", "yes"].includes(v)) return true;
  if (["off", "false", "0", "no"].includes(v)) return false;
  throw new Error(`${name} must be "on" or "off", got "${raw}"`);
}

function list(raw: string | undefined): string[] {
  return (raw || "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

/** `*` alone means any origin; otherwise each entry is an origin as browsers send it (scheme://host[:port]). */
function corsOrigins(raw: string | undefined): string[] {
  const origins = list(raw).map((o) => o.replace(/\/+$/, "").toLowerCase());
  if (origins.includes("*")) return ["*"];
  for (const o of origins) {
    if (!/^https?:\/\/[^/\s]+$/i.test(o)) {
      throw new Error(`TRIBUTARY_CORS_ORIGINS takes origins like https://app.example.com (or *), got "${o}"`);
    }
  }
  return origins;
}

/** TRIBUTARY_SMTP_URL and TRIBUTARY_SMTP_FROM: checked here, so a typo stops the start, not the first email. */
function smtp(url: string | undefined, from: string | undefined): { smtpUrl?: string; smtpFrom: string } {
  const sender = from?.trim() || "Tributary <tributary@localhost>";
  if (!url) return { smtpFrom: sender };
  const u = URL.parse(url);
  if (!u || (u.protocol !== "smtp:" && u.protocol !== "smtps:") || !u.hostname) {
    throw new Error("TRIBUTARY_SMTP_URL takes smtp://user:password@host:port or smtps://...");
  }
  return { smtpUrl: url, smtpFrom: sender };
}

const SECRET_SETTINGS = new Set(["TRIBUTARY_ADMIN_KEY", "TRIBUTARY_SECRET_KEY", "TRIBUTARY_METRICS_TOKEN", "TRIBUTARY_SMTP_URL"]);

/** `--port=4000` becomes PORT=4000; `--data-dir=x` becomes TRIBUTARY_DATA_DIR=x. */
function flagsToEnv(argv: string[]): Env {
  const aliases: Record<string, string> = { port: "PORT", host: "HOST" };
  const env: Env = {};
  for (const arg of argv) {
    const m = /^--([a-z-]+)=(.*)$/.exec(arg);
    if (!m) continue;
    const name = aliases[m[1]] ?? "TRIBUTARY_" + m[1].replace(/-/g, "_").toUpperCase();
    // a command line is readable by every user of the machine (ps, /proc/<pid>/cmdline)
    if (SECRET_SETTINGS.has(name)) throw new Error(`${name} can't be given as a flag (--${m[1]}): a command line is visible to every user of the machine; set it in the environment`);
    env[name] = m[2];
  }
  return env;
}

export function resolveConfig(env: Env = process.env, argv: string[] = []): Config {
  const e = { ...env, ...flagsToEnv(argv) };
  const port = int("PORT", e.PORT, 3000);
  const host = e.HOST || "127.0.0.1";
  const store = (e.TRIBUTARY_STORE || "sqlite").toLowerCase();
  if (store !== "sqlite" && store !== "postgres") {
    throw new Error(`TRIBUTARY_STORE must be "sqlite" or "postgres", got "${store}"`);
  }
  if (store === "postgres" && !e.DATABASE_URL) throw new Error("TRIBUTARY_STORE=postgres needs DATABASE_URL");
  const bus = (e.TRIBUTARY_BUS || "memory").toLowerCase();
  if (bus !== "memory" && bus !== "redis") throw new Error(`TRIBUTARY_BUS must be "memory" or "redis", got "${bus}"`);
  if (bus === "redis" && !e.REDIS_URL) throw new Error("TRIBUTARY_BUS=redis needs REDIS_URL");
  // several nodes share one database: the embedded store is one process's file
  if (bus === "redis" && store !== "postgres") throw new Error("TRIBUTARY_BUS=redis needs TRIBUTARY_STORE=postgres (several nodes share one PostgreSQL)");
  // each node would otherwise make a key of its own: none could open the secrets another sealed
  if (bus === "redis" && !e.TRIBUTARY_SECRET_KEY) throw new Error("TRIBUTARY_BUS=redis needs TRIBUTARY_SECRET_KEY, the same on every node");
  const publicHost = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host;
  const invocationTimeoutMs = Math.min(300_000, int("TRIBUTARY_INVOCATION_TIMEOUT_MS", e.TRIBUTARY_INVOCATION_TIMEOUT_MS, 30_000, 100));
  return {
    port,
    host,
    dataDir: resolve(e.TRIBUTARY_DATA_DIR || "./data"),
    publicUrl: (e.TRIBUTARY_PUBLIC_URL || `http://${publicHost}:${port}`).replace(/\/+$/, ""),
    adminKey: e.TRIBUTARY_ADMIN_KEY || undefined,
    store,
    databaseUrl: e.DATABASE_URL || undefined,
    eventRetention: int("TRIBUTARY_EVENT_RETENTION", e.TRIBUTARY_EVENT_RETENTION, 100, 1),
    fetchAllow: (e.TRIBUTARY_FETCH_ALLOW || "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
    dailyInvocationsQuota: int("TRIBUTARY_DAILY_INVOCATIONS_QUOTA", e.TRIBUTARY_DAILY_INVOCATIONS_QUOTA, 0),
    dailyComputeTimeQuota: int("TRIBUTARY_DAILY_COMPUTE_TIME_QUOTA", e.TRIBUTARY_DAILY_COMPUTE_TIME_QUOTA, 0),
    secretKey: e.TRIBUTARY_SECRET_KEY || undefined,
    runners: int("TRIBUTARY_RUNNERS", e.TRIBUTARY_RUNNERS, Math.max(1, cpus().length), 1),
    invocationTimeoutMs,
    propsTimeoutMs: Math.min(60_000, int("TRIBUTARY_PROPS_TIMEOUT_MS", e.TRIBUTARY_PROPS_TIMEOUT_MS, 10_000, 100)),
    logLevel: e.LOG_LEVEL || "info",
    apiBodyLimit: 1024 * 1024,
    webhookBackoffMs: backoff(e.TRIBUTARY_WEBHOOK_BACKOFF_MS),
    webhookMaxPending: int("TRIBUTARY_WEBHOOK_MAX_PENDING", e.TRIBUTARY_WEBHOOK_MAX_PENDING, 10_000, 1),
    httpLimits: httpLimits(e, invocationTimeoutMs),
    maxResultBytes: int("TRIBUTARY_MAX_RESULT_BYTES", e.TRIBUTARY_MAX_RESULT_BYTES, 16 * 1024 * 1024, 1024 * 1024),
    runnerWarmMemoryMb: int("TRIBUTARY_RUNNER_WARM_MEMORY_MB", e.TRIBUTARY_RUNNER_WARM_MEMORY_MB, 1024, 64),
    runnerWarmSources: int("TRIBUTARY_RUNNER_WARM_SOURCES", e.TRIBUTARY_RUNNER_WARM_SOURCES, 2500, 1),
    runnerMaxRssMb: int("TRIBUTARY_RUNNER_MAX_RSS_MB", e.TRIBUTARY_RUNNER_MAX_RSS_MB, 2048, 0),
    runnerNice: Math.min(19, int("TRIBUTARY_RUNNER_NICE", e.TRIBUTARY_RUNNER_NICE, 10, 0)),
    runnerSyncEntries: onOff("TRIBUTARY_SYNC_ENTRIES", e.TRIBUTARY_SYNC_ENTRIES, true),
    maxInFlight: int("TRIBUTARY_MAX_IN_FLIGHT", e.TRIBUTARY_MAX_IN_FLIGHT, 4096, 1),
    maxInFlightMb: int("TRIBUTARY_MAX_IN_FLIGHT_MB", e.TRIBUTARY_MAX_IN_FLIGHT_MB, 128, 1),
    maxBacklog: int("TRIBUTARY_MAX_BACKLOG", e.TRIBUTARY_MAX_BACKLOG, 20_000, 0),
    overloadHoldMs: int("TRIBUTARY_OVERLOAD_HOLD_MS", e.TRIBUTARY_OVERLOAD_HOLD_MS, 3000, 0),
    edgeLagMs: int("TRIBUTARY_EDGE_LAG_MS", e.TRIBUTARY_EDGE_LAG_MS, 25, 0),
    npm: onOff("TRIBUTARY_NPM", e.TRIBUTARY_NPM, true),
    // npm sets npm_config_registry for the scripts it runs (npm start): its own configured registry
    npmRegistry: e.TRIBUTARY_NPM_REGISTRY || e.npm_config_registry || "https://registry.npmjs.org/",
    npmAllow: list(e.TRIBUTARY_NPM_ALLOW),
    npmCacheMb: int("TRIBUTARY_NPM_CACHE_MB", e.TRIBUTARY_NPM_CACHE_MB, 2048, 1),
    runRetention: int("TRIBUTARY_RUN_RETENTION", e.TRIBUTARY_RUN_RETENTION, 1000, 1),
    runRetryMs: int("TRIBUTARY_RUN_RETRY_MS", e.TRIBUTARY_RUN_RETRY_MS, 10_000, 1),
    ...smtp(e.TRIBUTARY_SMTP_URL, e.TRIBUTARY_SMTP_FROM),
    errorEmails: onOff("TRIBUTARY_ERROR_EMAILS", e.TRIBUTARY_ERROR_EMAILS, true),
    // googleapis, the largest package we know components to use, unpacks to 235 MiB in 2,243 files
    npmMaxPackageMb: int("TRIBUTARY_NPM_MAX_PACKAGE_MB", e.TRIBUTARY_NPM_MAX_PACKAGE_MB, 512, 1),
    npmMaxSaveMb: int("TRIBUTARY_NPM_MAX_SAVE_MB", e.TRIBUTARY_NPM_MAX_SAVE_MB, 1024, 1),
    npmMaxFiles: int("TRIBUTARY_NPM_MAX_FILES", e.TRIBUTARY_NPM_MAX_FILES, 50_000, 1),
    npmMaxPackumentMb: int("TRIBUTARY_NPM_MAX_PACKUMENT_MB", e.TRIBUTARY_NPM_MAX_PACKUMENT_MB, 16, 1),
    saveTimeoutMs: int("TRIBUTARY_SAVE_TIMEOUT_MS", e.TRIBUTARY_SAVE_TIMEOUT_MS, 300_000, 100),
    corsOrigins: corsOrigins(e.TRIBUTARY_CORS_ORIGINS),
    metricsToken: e.TRIBUTARY_METRICS_TOKEN || undefined,
    dashboard: onOff("TRIBUTARY_DASHBOARD", e.TRIBUTARY_DASHBOARD, true),
    bus,
    redisUrl: e.REDIS_URL || undefined,
    nodeId: e.TRIBUTARY_NODE_ID || `${hostname()}-${process.pid}`,
    nodeUrl: e.TRIBUTARY_NODE_URL ? e.TRIBUTARY_NODE_URL.replace(/\/+$/, "") : undefined,
    leaseTtlMs: int("TRIBUTARY_LEASE_TTL_MS", e.TRIBUTARY_LEASE_TTL_MS, 10_000, 1000),
  };
}
