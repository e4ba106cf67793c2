import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { assertErrorEnvelope, createSource, endpointPath, HTTP_COMPONENT, startApp, waitEvents, waitFor, type TestApp } from "./helpers.ts";

// GET /metrics: Prometheus text, scraped after requests and invocations of every kind.

const EMITTER = `export default { run(event) { if (event && event.fail) throw new Error("asked to fail"); this.$emit({ ok: true }); } };`;
const WITH_DEPLOY = `export default {
  hooks: { async deploy() { this.$emit({ deployed: true }); } },
  run() {},
};`;

/** the samples of the scrape: series (name{labels}) to value */
function parse(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const i = line.lastIndexOf(" ");
    out.set(line.slice(0, i), Number(line.slice(i + 1)));
  }
  return out;
}

/** the value of the series whose name is `name` and whose labels include every one given */
function value(samples: Map<string, number>, name: string, labels: Record<string, string> = {}): number | undefined {
  let sum: number | undefined;
  for (const [series, v] of samples) {
    const brace = series.indexOf("{");
    const n = brace < 0 ? series : series.slice(0, brace);
    if (n !== name) continue;
    if (!Object.entries(labels).every(([k, l]) => series.includes(`${k}="${l}"`))) continue;
    sum = (sum ?? 0) + v;
  }
  return sum;
}

describe("metrics, open (no token)", () => {
  let t: TestApp;
  let base: string;
  before(async () => {
    t = await startApp();
    await t.app.http.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(t.app.http.server.address() as { port: number }).port}`;
  });
  after(() => t.close());

  const scrape = async () => {
    const res = await t.request("GET", "/metrics", { key: null });
    assert.equal(res.status, 200, res.text);
    assert.match(String(res.headers["content-type"]), /^text\/plain/);
    return { text: res.text, samples: parse(res.text) };
  };

  it("counts API and endpoint requests by route pattern (never the URL), invocations by kind and outcome, commits and gauges", async () => {
    for (let i = 0; i < 3; i++) assert.equal((await t.request("GET", "/v1/users/me")).status, 200);
    assert.equal((await t.request("GET", "/v1/users/me", { key: null })).status, 401);
    const http = await createSource(t, HTTP_COMPONENT);
    const endpoint = endpointPath(http);
    const endpointKey = endpoint.split("/")[2];
    for (let i = 0; i < 4; i++) assert.equal((await t.request("POST", `${endpoint}/deep/${i}?q=${i}`, { key: null, body: { i } })).status, 200);
    const emitter = await createSource(t, EMITTER);
    assert.equal((await t.request("POST", `/v1/sources/${emitter.id}/run`, { body: { event: {} } })).status, 202);
    assert.equal((await t.request("POST", `/v1/sources/${emitter.id}/run`, { body: { event: { fail: true } } })).status, 202);
    await createSource(t, WITH_DEPLOY);
    await waitEvents(t, http.id, 4);
    await waitEvents(t, emitter.id, 1);
    await waitEvents(t, emitter.id, 1, "$errors");

    const { text, samples } = await waitFor(async () => {
      const s = await scrape();
      return (value(s.samples, "tributary_invocations_total", { kind: "run" }) ?? 0) >= 6 ? s : undefined;
    });
    // labels: route patterns, never a key or an id
    assert.ok(!text.includes(endpointKey), "the endpoint key leaks into the metrics");
    assert.ok(!text.includes(emitter.id), "an emitter id is a label");
    assert.ok(!text.includes(t.adminKey));

    assert.equal(value(samples, "tributary_http_requests_total", { route: "/v1/users/me", method: "GET", status: "200" }), 3);
    assert.equal(value(samples, "tributary_http_requests_total", { route: "/v1/users/me", method: "GET", status: "401" }), 1);
    assert.equal(value(samples, "tributary_http_request_duration_seconds_count", { route: "/v1/users/me", method: "GET", status: "200" }), 3);
    assert.ok(value(samples, "tributary_http_request_duration_seconds_sum", { route: "/v1/users/me" })! > 0);
    assert.equal(value(samples, "tributary_http_requests_total", { route: "/http/:key/*", method: "POST", status: "200" }), 4);
    assert.equal(value(samples, "tributary_http_endpoint_requests_total", { status: "200" }), 4);
    assert.equal(value(samples, "tributary_http_requests_total", { route: "/v1/sources/:id/run", status: "202" }), 2);

    assert.ok(value(samples, "tributary_invocations_total", { kind: "run", outcome: "ok" })! >= 5);
    assert.equal(value(samples, "tributary_invocations_total", { kind: "run", outcome: "error" }), 1);
    assert.equal(value(samples, "tributary_invocations_total", { kind: "deploy", outcome: "ok" }), 1);
    assert.ok(value(samples, "tributary_invocation_duration_seconds_count", { kind: "run", outcome: "ok" })! >= 5);
    const wall = value(samples, "tributary_invocation_duration_seconds_sum", { kind: "run" })!;
    assert.ok(wall > 0 && wall < 60, `run seconds ${wall}`);

    const commits = value(samples, "tributary_commit_results_count")!;
    assert.ok(commits >= 1);
    // every run's result was committed, some maybe sharing a transaction
    assert.ok(value(samples, "tributary_commit_results_sum")! >= 6);
    assert.equal(value(samples, "tributary_commit_duration_seconds_count"), commits);

    assert.equal(value(samples, "tributary_in_flight"), 0);
    assert.equal(value(samples, "tributary_inbox_in_flight"), 0);
    // nothing refused: accepted runs may take the whole in-flight capacity
    assert.equal(value(samples, "tributary_inbox_run_limit"), 4096);
    assert.equal(value(samples, "tributary_runner_restarts_total"), 0);
    assert.notEqual(value(samples, "tributary_runner_rss_bytes", { runner: "0" }), undefined);
    assert.equal(value(samples, "tributary_sse_clients"), 0);
    assert.notEqual(value(samples, "tributary_inbox_pending"), undefined);
    assert.notEqual(value(samples, "tributary_deliveries_pending"), undefined);
    // prom-client's defaults, with the prefix
    assert.notEqual(value(samples, "tributary_nodejs_eventloop_lag_seconds"), undefined);
    assert.ok(value(samples, "tributary_process_resident_memory_bytes")! > 0);
    for (const name of text.split("\n").filter((l) => l.startsWith("# TYPE ")).map((l) => l.split(" ")[2])) {
      assert.match(name, /^tributary_/);
    }
  });

  it("counts the SSE clients connected", async () => {
    const src = await createSource(t, HTTP_COMPONENT);
    const streams = [new AbortController(), new AbortController()];
    for (const ac of streams) {
      const res = await fetch(`${base}/sources/${src.id}/sse?access_token=${t.adminKey}`, { signal: ac.signal });
      assert.equal(res.status, 200);
    }
    assert.equal(value((await scrape()).samples, "tributary_sse_clients"), 2);
    for (const ac of streams) ac.abort();
    await waitFor(async () => value((await scrape()).samples, "tributary_sse_clients") === 0, 5000, "SSE clients back to 0");
  });

  it("runner restarts and RSS are the pool's stats", async () => {
    // what the pool's stats say is what is reported (a runner not started yet has started 0)
    const stats = t.app.runners.stats();
    const samples = (await scrape()).samples;
    assert.equal(value(samples, "tributary_runner_restarts_total"), stats.reduce((n, r) => n + Math.max(0, r.started - 1), 0));
    assert.ok(stats.some((r) => r.started > 0));
    for (const [i, r] of stats.entries()) {
      if (r.rss > 0) assert.equal(value(samples, "tributary_runner_rss_bytes", { runner: String(i) }), r.rss);
    }
  });
});

describe("metrics of what waits in the store", () => {
  let t: TestApp;
  before(async () => (t = await startApp({ TRIBUTARY_FETCH_ALLOW: "127.0.0.1:9" })));
  after(() => t.close());

  it("counts pending inbox rows and queued deliveries (a webhook nobody answers keeps its delivery queued)", async () => {
    const emitter = await createSource(t, EMITTER);
    const hook = await t.request("POST", `/v1/webhooks?url=${encodeURIComponent("http://127.0.0.1:9/hook")}&name=nobody`);
    assert.equal(hook.status, 200, hook.text);
    const sub = await t.request("POST", `/v1/subscriptions?emitter_id=${emitter.id}&listener_id=${hook.body.data.id}`);
    assert.equal(sub.status, 200, sub.text);
    assert.equal((await t.request("POST", `/v1/sources/${emitter.id}/run`, { body: { event: {} } })).status, 202);
    assert.equal((await t.request("POST", `/v1/sources/${emitter.id}/run`, { body: { event: {} } })).status, 202);
    await waitEvents(t, emitter.id, 2);
    // the first scrape counts (later ones within 5 s reuse the count)
    const samples = parse((await t.request("GET", "/metrics", { key: null })).text);
    assert.equal(value(samples, "tributary_deliveries_pending"), 2);
    assert.equal(value(samples, "tributary_inbox_pending"), 0);
  });
});

describe("metrics with TRIBUTARY_METRICS_TOKEN", () => {
  let t: TestApp;
  before(async () => (t = await startApp({ TRIBUTARY_METRICS_TOKEN: "scrape-secret-123" })));
  after(() => t.close());

  it("needs the token as a Bearer token: 401 envelope without it or with another", async () => {
    assertErrorEnvelope(await t.request("GET", "/metrics", { key: null }), 401, "unauthorized");
    assertErrorEnvelope(await t.request("GET", "/metrics", { key: "wrong" }), 401, "unauthorized");
    // an API key is not the metrics token
    assertErrorEnvelope(await t.request("GET", "/metrics"), 401, "unauthorized");
    const ok = await t.request("GET", "/metrics", { key: "scrape-secret-123" });
    assert.equal(ok.status, 200, ok.text);
    assert.match(ok.text, /^# HELP tributary_/m);
  });
});
