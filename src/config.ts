import { resolve } from "node:path";
import { cpus } from "node:os";

// One typed object, resolved once from env (and `--flag=value` arguments), with defaults that
// run the embedded store with no setup at all (decisions §1).
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
  /** 0 means unlimited (decisions §4) */
  dailyInvocationsQuota: number;
  /** milliseconds; 0 means unlimited */
  dailyComputeTimeQuota: number;
  /** base64 or hex 32-byte key for secret props; when absent a key file in dataDir is used */
  secretKey?: string;
  runners: number;
  /** wall-clock limit per invocation, ms (components.md §6: 30 s default, 300 s max) */
  invocationTimeoutMs: number;
  logLevel: string;
  apiBodyLimit: number;
  /** waits between webhook tries, ms (decisions §5: 5 tries over about an hour) */
  webhookBackoffMs: number[];
}

// 1 + 5 + 15 + 40 minutes: the fifth and last try comes about an hour after the first.
const WEBHOOK_BACKOFF_MS = [60_000, 300_000, 900_000, 2_400_000];

function backoff(raw: string | undefined): number[] {
  if (raw === undefined || raw === "") return WEBHOOK_BACKOFF_MS;
  const waits = raw.split(",").map((s) => Number(s.trim()));
  if (waits.length !== 4 || waits.some((n) => !Number.isInteger(n) || n < 0)) {
    throw new Error(`TRIBUTARY_WEBHOOK_BACKOFF_MS must be 4 comma-separated integers (ms), got "${raw}"`);
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

/** `--port=4000` becomes PORT=4000; `--data-dir=x` becomes TRIBUTARY_DATA_DIR=x. */
function flagsToEnv(argv: string[]): Env {
  const aliases: Record<string, string> = { port: "PORT", host: "HOST" };
  const env: Env = {};
  for (const arg of argv) {
    const m = /^--([a-z-]+)=(.*)$/.exec(arg);
    if (!m) continue;
    const name = aliases[m[1]] ?? "TRIBUTARY_" + m[1].replace(/-/g, "_").toUpperCase();
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
  const publicHost = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host;
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
    invocationTimeoutMs: Math.min(
      300_000,
      int("TRIBUTARY_INVOCATION_TIMEOUT_MS", e.TRIBUTARY_INVOCATION_TIMEOUT_MS, 30_000, 100),
    ),
    logLevel: e.LOG_LEVEL || "info",
    apiBodyLimit: 1024 * 1024,
    webhookBackoffMs: backoff(e.TRIBUTARY_WEBHOOK_BACKOFF_MS),
  };
}
