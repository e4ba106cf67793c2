import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { resolveConfig } from "../src/config.ts";
import { buildApp, type App } from "../src/app.ts";
import { HTTP_COMPONENT, postgresFor, waitFor } from "./helpers.ts";

// The service's own log: one compact info line per API request (method, route pattern, status,
// ms; never the URL), none for HTTP source endpoints, /healthz and /metrics; a warn line for
// every failed webhook attempt. Read from a real pino logger writing into memory.

const EMITTER = `export default { run(event) { this.$emit(event) } };`;

describe("request and webhook logs", () => {
  let app: App;
  let dataDir: string;
  let drop: (() => Promise<void>) | undefined;
  let receiver: Server;
  let receiverOrigin: string;
  let failuresLeft = 1;
  const lines: any[] = [];
  const adminKey = "log-test-admin-key-" + Math.random().toString(36).slice(2);

  before(async () => {
    // /flaky fails once then takes everything; /down always answers 503
    receiver = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        if (req.url === "/down" || (req.url === "/flaky" && failuresLeft-- > 0)) res.writeHead(503).end("no");
        else res.writeHead(200).end("ok");
      });
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    const port = (receiver.address() as AddressInfo).port;
    receiverOrigin = `http://127.0.0.1:${port}`;
    dataDir = mkdtempSync(join(tmpdir(), "tributary-logs-"));
    const pg = await postgresFor();
    drop = pg?.drop;
    const config = resolveConfig({
      TRIBUTARY_DATA_DIR: dataDir,
      TRIBUTARY_ADMIN_KEY: adminKey,
      TRIBUTARY_PUBLIC_URL: "http://tributary.test",
      TRIBUTARY_NPM_REGISTRY: "http://127.0.0.1:9/",
      TRIBUTARY_FETCH_ALLOW: `127.0.0.1:${port}`,
      TRIBUTARY_WEBHOOK_BACKOFF_MS: "20,20,20,20",
      ...pg?.env,
    });
    const stream = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split("\n")) if (line) lines.push(JSON.parse(line));
        done();
      },
    });
    app = await buildApp(config, { logger: { level: "info", stream } });
  });
  after(async () => {
    await app.close();
    await drop?.();
    rmSync(dataDir, { recursive: true, force: true });
    await new Promise((r) => receiver.close(r));
  });

  const request = async (method: string, url: string, body?: unknown, key: string | null = adminKey) => {
    const headers: Record<string, string> = {};
    if (key) headers.authorization = `Bearer ${key}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    const res = await app.http.inject({ method: method as "GET", url, headers, payload: body === undefined ? undefined : JSON.stringify(body) });
    const json = (res.headers["content-type"] ?? "").toString().startsWith("application/json");
    return { status: res.statusCode, body: json && res.body ? JSON.parse(res.body) : undefined };
  };
  const requestLines = () => lines.filter((l) => l.msg === "request");

  it("one info line per API request, with the route pattern, never the URL or a key", async () => {
    lines.length = 0;
    assert.equal((await request("GET", "/v1/users/me")).status, 200);
    const src = await request("POST", "/v1/sources/", { component_code: HTTP_COMPONENT });
    assert.equal(src.status, 200);
    const endpoint = new URL(src.body.data.configured_props.http.endpoint_url).pathname;
    assert.equal((await request("GET", `/v1/sources/${src.body.data.id}`)).status, 200);
    assert.equal((await request("GET", "/v1/users/me", undefined, null)).status, 401);
    assert.equal((await request("GET", "/sources/dc_abcdefghijkl/sse?access_token=not-a-real-key-42", undefined, null)).status, 401);
    assert.equal((await request("GET", "/v1/nowhere/at/all?access_token=zzz")).status, 404);
    // none of these is logged per request
    assert.equal((await request("POST", endpoint, { hi: 1 }, null)).status, 200);
    assert.equal((await request("POST", `${endpoint}/sub?token=abc`, { hi: 2 }, null)).status, 200);
    assert.equal((await request("GET", "/healthz", undefined, null)).status, 200);
    assert.equal((await request("GET", "/metrics", undefined, null)).status, 200);

    const got = requestLines().map((l) => [l.method, l.route, l.status]);
    assert.deepEqual(got, [
      ["GET", "/v1/users/me", 200],
      ["POST", "/v1/sources/", 200],
      ["GET", "/v1/sources/:id", 200],
      ["GET", "/v1/users/me", 401],
      ["GET", "/sources/:id/sse", 401],
      ["GET", "(unmatched)", 404],
    ]);
    for (const l of requestLines()) {
      assert.equal(l.level, 30);
      assert.equal(typeof l.ms, "number");
      assert.ok(l.ms >= 0);
    }
    const text = JSON.stringify(lines);
    for (const secret of [adminKey, "not-a-real-key-42", "access_token", endpoint.split("/")[2], src.body.data.id]) {
      assert.ok(!text.includes(secret), `${secret} is in the log`);
    }
  });

  it("a warn line for every failed webhook attempt (webhook, event, status, attempt n of 5); metrics count the outcomes", async () => {
    const emitter = await request("POST", "/v1/sources/", { component_code: EMITTER });
    const flaky = await request("POST", `/v1/webhooks?url=${encodeURIComponent(`${receiverOrigin}/flaky`)}&name=flaky`);
    const down = await request("POST", `/v1/webhooks?url=${encodeURIComponent(`${receiverOrigin}/down`)}&name=down`);
    assert.equal(flaky.status, 200);
    for (const hook of [flaky, down]) {
      const sub = await request("POST", `/v1/subscriptions?emitter_id=${emitter.body.data.id}&listener_id=${hook.body.data.id}`);
      assert.equal(sub.status, 200);
    }
    assert.equal((await request("POST", `/v1/sources/${emitter.body.data.id}/run`, { event: { n: 1 } })).status, 202);
    const failedFor = (id: string) => lines.filter((l) => l.level === 40 && l.webhook === id);
    await waitFor(async () => failedFor(down.body.data.id).length >= 5 && failedFor(flaky.body.data.id).length >= 1, 15_000, "webhook attempts");
    const downLines = failedFor(down.body.data.id);
    assert.deepEqual(
      downLines.map((l) => [l.attempt, l.tries, l.status, l.outcome]),
      [
        [1, 5, 503, "retry"],
        [2, 5, 503, "retry"],
        [3, 5, 503, "retry"],
        [4, 5, 503, "retry"],
        [5, 5, 503, "failed"],
      ],
    );
    assert.match(downLines[0].event, /^\d+-\d+$/);
    assert.match(downLines[4].msg, /attempt 5 of 5/);
    assert.equal(failedFor(flaky.body.data.id).length, 1);

    const scrape = await app.http.inject({ method: "GET", url: "/metrics" });
    const count = (outcome: string) => Number(new RegExp(`^tributary_webhook_attempts_total\\{outcome="${outcome}"\\} (\\d+)`, "m").exec(scrape.body)?.[1]);
    await waitFor(async () => {
      const s = await app.http.inject({ method: "GET", url: "/metrics" });
      return /tributary_webhook_attempts_total\{outcome="delivered"\} 1/.test(s.body) || undefined;
    });
    assert.equal(count("retry"), 5);
    assert.equal(count("failed"), 1);
  });
});
