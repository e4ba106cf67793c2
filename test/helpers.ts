import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { resolveConfig } from "../src/config.ts";
import { buildApp, type App } from "../src/app.ts";
import pg from "pg";

export interface Reply {
  status: number;
  headers: Record<string, unknown>;
  body: any;
  text: string;
}

export interface RequestOptions {
  key?: string | null;
  body?: unknown;
  /** raw payload with no JSON content type added */
  /** the body as it is sent (bytes that aren't UTF-8 as a Buffer) */
  raw?: string | Buffer;
  headers?: Record<string, string>;
}

export interface TestApp {
  app: App;
  dataDir: string;
  /** the store settings of this app (PostgreSQL runs), for building a second app on the same data */
  storeEnv: Record<string, string>;
  adminKey: string;
  request(method: string, url: string, opts?: RequestOptions): Promise<Reply>;
  /** an ordinary (non-admin) user made through the admin API */
  newUser(username?: string): Promise<{ id: string; key: string }>;
  close(): Promise<void>;
}

let counter = 0;

/**
 * With TRIBUTARY_TEST_STORE=postgres (and DATABASE_URL) the same suite runs on PostgreSQL:
 * each app gets a database of its own, dropped when it closes.
 */
export async function postgresFor(): Promise<{ env: Record<string, string>; drop: () => Promise<void> } | undefined> {
  if (process.env.TRIBUTARY_TEST_STORE !== "postgres") return undefined;
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error("TRIBUTARY_TEST_STORE=postgres needs DATABASE_URL");
  const name = `tributary_test_${process.pid}_${++counter}_${Date.now() % 100000}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = "/" + name;
  return {
    env: { TRIBUTARY_STORE: "postgres", DATABASE_URL: url.href },
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** Makes the app listen on a free port of 127.0.0.1 (a real socket); returns its base URL. */
export async function listenLocally(t: TestApp): Promise<string> {
  await t.app.http.listen({ port: 0, host: "127.0.0.1" });
  return `http://127.0.0.1:${(t.app.http.server.address() as { port: number }).port}`;
}

/** A real service on a real SQLite file in a fresh temp dir, driven through app.inject(). */
export async function startApp(env: Record<string, string> = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), "tributary-test-"));
  const postgres = await postgresFor();
  const adminKey = "test-admin-key-" + Math.random().toString(36).slice(2);
  const config = resolveConfig({
    TRIBUTARY_DATA_DIR: dataDir,
    TRIBUTARY_ADMIN_KEY: adminKey,
    TRIBUTARY_PUBLIC_URL: "http://tributary.test",
    // tests never reach the public npm registry: those that install packages serve their own
    TRIBUTARY_NPM_REGISTRY: "http://127.0.0.1:9/",
    ...postgres?.env,
    ...env,
  });
  const app = await buildApp(config, { logger: false });

  const request = async (method: string, url: string, opts: RequestOptions = {}): Promise<Reply> => {
    const headers: Record<string, string> = { ...opts.headers };
    const key = opts.key === undefined ? adminKey : opts.key;
    if (key !== null) headers.authorization = `Bearer ${key}`;
    let payload: string | Buffer | undefined = opts.raw;
    if (opts.body !== undefined) {
      payload = JSON.stringify(opts.body);
      headers["content-type"] ??= "application/json";
    }
    const res = await app.http.inject({ method: method as "GET", url, headers, payload });
    let body: any;
    try {
      body = res.body ? JSON.parse(res.body) : undefined;
    } catch {
      body = undefined;
    }
    return { status: res.statusCode, headers: res.headers, body, text: res.body };
  };

  return {
    app,
    dataDir,
    storeEnv: postgres?.env ?? {},
    adminKey,
    request,
    async newUser(username = `user${++counter}x${Math.random().toString(36).slice(2, 8)}`) {
      const res = await request("POST", "/v1/users", { body: { username, email: `${username}@example.com` } });
      if (res.status !== 200) throw new Error(`creating user failed: ${res.status} ${res.text}`);
      return { id: res.body.data.id, key: res.body.data.api_key };
    },
    async close() {
      // a test may have closed the app itself already (to restart on the same data)
      await app.close().catch(() => {});
      await postgres?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A second service on the first one's data (after `first.app.close()`): a restart. Closing the
 * returned app closes only it; `first.close()` still removes the data.
 */
export async function restart(first: TestApp, env: Record<string, string> = {}): Promise<TestApp> {
  const config = resolveConfig({
    TRIBUTARY_DATA_DIR: first.dataDir,
    TRIBUTARY_ADMIN_KEY: first.adminKey,
    TRIBUTARY_PUBLIC_URL: "http://tributary.test",
    TRIBUTARY_NPM_REGISTRY: "http://127.0.0.1:9/",
    ...first.storeEnv,
    ...env,
  });
  const app = await buildApp(config, { logger: false });
  const request = async (method: string, url: string, opts: RequestOptions = {}): Promise<Reply> => {
    const headers: Record<string, string> = { authorization: `Bearer ${opts.key ?? first.adminKey}`, ...opts.headers };
    if (opts.body !== undefined) headers["content-type"] ??= "application/json";
    const res = await app.http.inject({
      method: method as "GET",
      url,
      headers,
      payload: opts.body !== undefined ? JSON.stringify(opts.body) : opts.raw,
    });
    let body: any;
    try {
      body = res.body ? JSON.parse(res.body) : undefined;
    } catch {
      body = undefined;
    }
    return { status: res.statusCode, headers: res.headers, body, text: res.body };
  };
  return { ...first, app, request, close: () => app.close() };
}

/** A small component with one required string prop, a timer and a db. */
export const TIMER_COMPONENT = `
export default {
  key: "test-timer",
  name: "Test Timer",
  version: "0.1.0",
  props: {
    label: { type: "string", label: "Label" },
    count: { type: "integer", optional: true, min: 1, max: 10 },
    timer: { type: "$.interface.timer", default: { intervalSeconds: 60 } },
    db: "$.service.db",
  },
  run() { this.$emit({ label: this.label }); },
};
`;

export const HTTP_COMPONENT = `
export default {
  key: "test-http",
  name: "Test HTTP",
  version: "0.1.0",
  props: { http: "$.interface.http" },
  run(event) { this.$emit(event); },
};
`;

export function assertErrorEnvelope(reply: Reply, status: number, code: string): void {
  if (reply.status !== status || reply.body?.error?.code !== code || typeof reply.body?.error?.message !== "string") {
    throw new Error(`expected ${status} ${code}, got ${reply.status} ${reply.text}`);
  }
  // every response is JSON with this content type, errors included (docs/api.md, "Requests and responses")
  if (!/^application\/json; charset=utf-8/i.test(String(reply.headers["content-type"]))) {
    throw new Error(`expected an application/json; charset=utf-8 error, got ${String(reply.headers["content-type"])}`);
  }
}

/** The text of a fixture component under test/fixtures/components/. */
export function fixture(name: string): string {
  return readFileSync(join(import.meta.dirname, "fixtures", "components", name), "utf8");
}

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

export interface FileServer {
  /** e.g. http://127.0.0.1:34567 */
  origin: string;
  /** e.g. 127.0.0.1:34567, the form TRIBUTARY_FETCH_ALLOW takes */
  hostPort: string;
  /** paths requested so far */
  hits: string[];
  close(): Promise<void>;
}

/** A local HTTP server on 127.0.0.1 (port 0) answering 200 with `files[path]`, else 404. */
export async function serveFiles(files: Record<string, string>): Promise<FileServer> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    hits.push(path);
    const body = files[path];
    if (body === undefined) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    res.writeHead(200, { "content-type": "application/javascript" }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hostPort: `127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Epoch seconds now: timestamps in responses must be integers near this. */
export function assertRecentSeconds(value: unknown, field = "timestamp"): void {
  const now = Math.floor(Date.now() / 1000);
  if (typeof value !== "number" || !Number.isInteger(value) || Math.abs(value - now) > 60) {
    throw new Error(`${field} should be integer epoch seconds near ${now}, got ${JSON.stringify(value)}`);
  }
}

/** The `field`s of a validation error's details. */
export function detailFields(reply: Reply): string[] {
  const details = reply.body?.error?.details;
  if (!Array.isArray(details)) throw new Error(`expected error.details, got ${reply.text}`);
  return details.map((d: { field: string }) => d.field);
}

/** Polls `check` until it returns a value other than undefined/false, or fails after `ms`. */
export async function waitFor<T>(check: () => Promise<T | undefined | false>, ms = 10_000, what = "condition"): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Creates a source from code for the given key (admin when omitted); fails the test unless 200. */
export async function createSource(t: TestApp, code: string, extra: Record<string, unknown> = {}, key?: string) {
  const res = await t.request("POST", "/v1/sources/", { key, body: { component_code: code, ...extra } });
  if (res.status !== 200) throw new Error(`creating source failed: ${res.status} ${res.text}`);
  return res.body.data as { id: string; configured_props: Record<string, any>; name: string };
}

/** The source's events on a stream, newest first (expand=event). */
export async function eventsOf(t: TestApp, sourceId: string, eventName = "", key?: string): Promise<any[]> {
  const q = `limit=100&expand=event${eventName ? `&event_name=${encodeURIComponent(eventName)}` : ""}`;
  const res = await t.request("GET", `/v1/sources/${sourceId}/event_summaries?${q}`, { key });
  if (res.status !== 200) throw new Error(`reading events failed: ${res.status} ${res.text}`);
  return res.body.data;
}

/** Waits until the stream has at least `n` events; returns them newest first. */
export function waitEvents(t: TestApp, sourceId: string, n: number, eventName = "", ms = 10_000, key?: string): Promise<any[]> {
  return waitFor(async () => {
    const events = await eventsOf(t, sourceId, eventName, key);
    return events.length >= n ? events : undefined;
  }, ms, `${n} events on "${eventName}" of ${sourceId}`);
}

/** The path part of an endpoint URL, for app.inject. */
export const endpointPath = (source: { configured_props: Record<string, any> }, prop = "http"): string =>
  new URL(source.configured_props[prop].endpoint_url).pathname;

/**
 * The browser's part of an OAuth callback (`path`: where the provider sent it): the page that asks
 * whether to connect, then the form's answer. Returns the last reply (the question's when it
 * asked nothing: an error page).
 */
export async function answerOAuthCallback(t: TestApp, path: string, opts: { decision?: "connect" | "cancel"; headers?: Record<string, string> } = {}): Promise<Reply> {
  const question = await t.request("GET", path, { key: null });
  if (question.status !== 200 || !question.text.includes('name="decision"')) return question;
  const form = new URLSearchParams(new URL(path, "http://x").search);
  form.set("decision", opts.decision ?? "connect");
  return t.request("POST", "/oauth/callback", { key: null, raw: form.toString(), headers: { "content-type": "application/x-www-form-urlencoded", ...opts.headers } });
}

/** A local HTTP server that counts the requests to each path: what steps did, seen from outside. */
export interface CountingServer {
  url: string;
  /** requests by path */
  hits: Map<string, number>;
  /** TRIBUTARY_FETCH_ALLOW's entry for it */
  allow: string;
  /** paths whose answer waits (a step awaiting it stays in flight) until release() */
  holding: Set<string>;
  /** answers the requests held so far */
  release(): void;
  close(): void;
}

export async function countingServer(): Promise<CountingServer> {
  const hits = new Map<string, number>();
  const holding = new Set<string>();
  const held: ServerResponse[] = [];
  const answer = (res: ServerResponse) => {
    res.setHeader("content-type", "application/json");
    res.end("{}");
  };
  const server = createServer((req, res) => {
    hits.set(req.url!, (hits.get(req.url!) ?? 0) + 1);
    if (holding.has(req.url!)) held.push(res);
    else answer(res);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    allow: `127.0.0.1:${port}`,
    holding,
    release: () => held.splice(0).forEach(answer),
    close: () => {
      held.splice(0).forEach(answer);
      server.close();
    },
  };
}
