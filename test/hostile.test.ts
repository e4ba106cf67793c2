import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { assertErrorEnvelope, createSource, eventsOf, listenLocally, startApp, waitEvents, waitFor, type TestApp } from "./helpers.ts";

// Hostile components (docs/writing-components.md, "Limits"; docs/architecture.md, "Reliability rules"): a misbehaving component costs only its own
// invocation. For each case: the failure lands on the source's $errors with a meaningful
// name/message, nothing of the failed run is committed, GET /healthz (on a real port) answers
// within 1 s while the bad invocation is in flight, and a well-behaved source still runs afterwards.

const TIMEOUT_MS = 1500;

const GOOD = `export default { run(e) { this.$emit({ ok: e }); } };`;

/**
 * Fetches /healthz over the real port every ~100 ms until `done` settles; every answer must be a
 * 200 within 1 s. Returns how many probes were made and the slowest one.
 */
async function probeHealthAt(base: string, done: Promise<unknown>): Promise<{ probes: number; slowest: number }> {
  let finished = false;
  done.then(() => (finished = true), () => (finished = true));
  let probes = 0;
  let slowest = 0;
  do {
    const started = performance.now();
    const res = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(5000) });
    await res.arrayBuffer();
    const ms = performance.now() - started;
    assert.equal(res.status, 200);
    assert.ok(ms < 1000, `/healthz took ${Math.round(ms)} ms while a hostile invocation ran`);
    probes++;
    slowest = Math.max(slowest, ms);
    if (!finished) await new Promise((r) => setTimeout(r, 100));
  } while (!finished);
  return { probes, slowest };
}

describe("hostile components cost only their own invocation", () => {
  let t: TestApp;
  let base: string;
  let good: { id: string };
  let goodRuns = 0;

  before(async () => {
    t = await startApp({ TRIBUTARY_INVOCATION_TIMEOUT_MS: String(TIMEOUT_MS), TRIBUTARY_EVENT_RETENTION: "100000" });
    base = await listenLocally(t);
    good = await createSource(t, GOOD);
  });
  after(() => t.close());

  async function run(id: string, event: unknown = {}): Promise<void> {
    const res = await t.request("POST", `/v1/sources/${id}/run`, { body: { event } });
    assert.equal(res.status, 202, res.text);
  }

  /** The well-behaved source runs and its event lands. */
  async function goodStillWorks(ms = 10_000): Promise<void> {
    const n = ++goodRuns;
    await run(good.id, n);
    const events = await waitEvents(t, good.id, n, "", ms);
    assert.deepEqual(events[0].event, { ok: n });
  }

  const probeHealth = (done: Promise<unknown>) => probeHealthAt(base, done);

  /**
   * Runs a hostile source and waits for its $errors entry while probing /healthz; returns the
   * newest $errors event.
   */
  async function runHostile(id: string, event: unknown = {}, ms = 15_000): Promise<any> {
    const before = (await eventsOf(t, id, "$errors")).length;
    await run(id, event);
    const landed = waitEvents(t, id, before + 1, "$errors", ms);
    const [health, errors] = await Promise.all([probeHealth(landed), landed]);
    assert.ok(health.probes >= 1);
    const err = errors[0].event;
    assert.equal(typeof err.error?.name, "string", JSON.stringify(err));
    assert.equal(typeof err.error?.message, "string", JSON.stringify(err));
    assert.equal(typeof err.error?.stack, "string", JSON.stringify(err));
    assert.equal(err.invocation?.kind, "run");
    assert.equal(typeof err.invocation?.started_at, "number");
    return err;
  }

  it("no Node process or require inside run: only the sandbox's stand-in, its env the owner's variables (none here)", async () => {
    const src = await createSource(t, `export default { run() {
      const name = ["f", "s"].join(""); let required; try { require(name); required = "loaded"; } catch (e) { required = "refused"; }
      let exited; try { process.exit(1); exited = "ran"; } catch (e) { exited = "refused"; }
      this.$emit({ env: Object.keys(process.env), required, exited, global: typeof globalThis.process,
        globalRequire: typeof globalThis.require, module: typeof module, buffer: typeof Buffer });
    } };`);
    await run(src.id);
    const [e] = await waitEvents(t, src.id, 1);
    // Buffer and process are the sandbox's globals; process is a stand-in (env: the owner's variables), never Node's
    assert.deepEqual(e.event, { env: [], required: "refused", exited: "refused", global: "object", globalRequire: "undefined", module: "undefined", buffer: "function" });
    await goodStillWorks();
  });

  it("importing child_process (or node:child_process, worker_threads) fails the save with 422 invalid_component", async () => {
    for (const mod of ["child_process", "node:child_process", "worker_threads", "node:dgram"]) {
      const code = `import m from "${mod}";\nexport default { run() { this.$emit(String(m)); } };`;
      const viaSource = await t.request("POST", "/v1/sources/", { body: { component_code: code } });
      assertErrorEnvelope(viaSource, 422, "invalid_component");
      assert.match(viaSource.body.error.message, new RegExp(mod));
      const viaComponent = await t.request("POST", "/v1/components", { body: { component_code: code } });
      assertErrorEnvelope(viaComponent, 422, "invalid_component");
    }
    // a dynamic import at run time must not reach the file system either
    const dynamic = await t.request("POST", "/v1/sources/", {
      body: { component_code: `export default { async run() { const fs = await import("fs"); this.$emit(fs.readFileSync("/etc/passwd", "utf8")); } };` },
    });
    if (dynamic.status === 200) {
      const err = await runHostile(dynamic.body.data.id);
      assert.ok(err.error.message.length > 0);
      assert.deepEqual(await eventsOf(t, dynamic.body.data.id), []);
    } else {
      assertErrorEnvelope(dynamic, 422, "invalid_component");
    }
    await goodStillWorks();
  });

  it("fs is /tmp in memory: no path reaches the host's files, not even the host's own /tmp", async () => {
    const { writeFileSync, existsSync, rmSync } = await import("node:fs");
    const hostFile = `/tmp/tributary-hostile-${process.pid}.txt`;
    const written = `/tmp/tributary-hostile-written-${process.pid}.txt`;
    writeFileSync(hostFile, "host secret");
    try {
      const src = await createSource(t, `import fs from "node:fs";
        export default { async run() {
          const read = (p) => { try { return fs.readFileSync(p, "utf8"); } catch (e) { return e.code; } };
          fs.writeFileSync(${JSON.stringify(written)}, "from the sandbox");
          this.$emit({ host: read(${JSON.stringify(hostFile)}), seen: fs.existsSync(${JSON.stringify(hostFile)}), passwd: read("/tmp/../etc/passwd"),
            proc: read("/proc/self/environ"), url: read(new URL("file:///tmp/../etc/hostname")), dotdot: read("/tmp/../../../../etc/passwd"),
            listing: fs.readdirSync("/tmp").includes(${JSON.stringify(hostFile.slice(5))}), write: (() => { try { fs.writeFileSync("/etc/x", "x"); return "written"; } catch (e) { return e.code; } })() });
        } };`);
      await run(src.id);
      const [e] = await waitEvents(t, src.id, 1);
      assert.deepEqual(e.event, { host: "ENOENT", seen: false, passwd: "ENOENT", proc: "ENOENT", url: "ENOENT", dotdot: "ENOENT", listing: false, write: "EROFS" });
      assert.equal(existsSync(written), false, "nothing the sandbox wrote reached the host's /tmp");
    } finally {
      rmSync(hostFile, { force: true });
      rmSync(written, { force: true });
    }
    await goodStillWorks();
  });

  describe("fetch to this machine", () => {
    let server: Server;
    let port: number;
    let hits = 0;
    before(async () => {
      server = createServer((_req, res) => {
        hits++;
        res.end("secret");
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      port = (server.address() as AddressInfo).port;
    });
    after(() => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }));

    const FETCHER = `export default { async run(e) {
      if (e.caught) {
        try { const r = await fetch(e.url); this.$emit({ status: r.status, body: await r.text() }); }
        catch (err) { this.$emit({ error: String(err && err.message) }); }
        return;
      }
      const r = await fetch(e.url);
      this.$emit({ status: r.status, body: await r.text() });
    } };`;

    it("a loopback fetch is refused (uncaught: on $errors; caught: a clear message) and the server sees nothing", async () => {
      const src = await createSource(t, FETCHER);
      const err = await runHostile(src.id, { url: `http://127.0.0.1:${port}/` });
      assert.match(err.error.message, /loopback or private/);
      assert.deepEqual(await eventsOf(t, src.id), []);

      const urls = [
        `http://127.0.0.1:${port}/x`,
        `http://localhost:${port}/`,
        `http://127.1:${port}/`,
        `http://2130706433:${port}/`,
        `http://0.0.0.0:${port}/`,
        `http://[::1]:${port}/`,
      ];
      for (const url of urls) await run(src.id, { caught: true, url });
      const events = await waitEvents(t, src.id, urls.length);
      for (const e of events) assert.match(String(e.event.error), /loopback or private/, JSON.stringify(e.event));
      assert.equal(hits, 0, "the local server must receive no request");
      await goodStillWorks();
    });

    // An IPv4-mapped IPv6 literal is normalised by URL to hex ([::ffff:7f00:1]), which the
    // address guard doesn't recognise as loopback: the request reaches 127.0.0.1.
    it("an IPv4-mapped IPv6 loopback literal is refused too", async () => {
      const src = await createSource(t, FETCHER);
      const before = hits;
      await run(src.id, { caught: true, url: `http://[::ffff:127.0.0.1]:${port}/` });
      const [e] = await waitEvents(t, src.id, 1);
      assert.equal(hits, before, `the local server must receive no request (component saw ${JSON.stringify(e.event)})`);
      assert.match(String(e.event.error), /loopback or private/, JSON.stringify(e.event));
    });
  });

  it("while(true){} times out on $errors; /healthz stays fast; other sources run meanwhile; a fixed version works", async () => {
    const src = await createSource(t, `export default { run() { while (true) {} } };`);
    const before = (await eventsOf(t, src.id, "$errors")).length;
    const started = Date.now();
    await run(src.id);
    const landed = waitEvents(t, src.id, before + 1, "$errors", 15_000);
    // other sources are not held up by the loop
    const meanwhile = goodStillWorks(TIMEOUT_MS * 3);
    const [health, errors] = await Promise.all([probeHealth(landed), landed, meanwhile]);
    assert.ok(health.probes >= 3, `expected several /healthz probes during the loop, got ${health.probes}`);
    assert.ok(Date.now() - started >= TIMEOUT_MS - 100);
    const err = errors[0].event;
    assert.equal(err.error.name, "TimeoutError");
    assert.match(err.error.message, /timed out after 1500 ms/);
    assert.equal(err.invocation.kind, "run");

    const fixed = await t.request("PUT", `/v1/sources/${src.id}`, {
      body: { component_code: `export default { run() { this.$emit({ fixed: true }); } };` },
    });
    assert.equal(fixed.status, 200, fixed.text);
    await run(src.id);
    const [e] = await waitEvents(t, src.id, 1);
    assert.deepEqual(e.event, { fixed: true });
    assert.equal((await eventsOf(t, src.id, "$errors")).length, before + 1);
    await goodStillWorks();
  });

  it("an async run awaiting a never-settling promise times out", async () => {
    const src = await createSource(t, `export default { async run() { this.$emit("lost"); await new Promise(() => {}); } };`);
    const err = await runHostile(src.id);
    assert.equal(err.error.name, "TimeoutError");
    assert.match(err.error.message, /timed out/);
    assert.deepEqual(await eventsOf(t, src.id), []);
    await goodStillWorks();
  });

  it("an unhandled rejection fails the invocation; the service keeps running", async () => {
    const src = await createSource(t, `export default { async run() {
      this.$emit("lost");
      Promise.reject(new Error("forgotten rejection"));
      await new Promise((r) => setTimeout(r, 50));
      this.$emit("late");
    } };`);
    const err = await runHostile(src.id);
    assert.equal(err.error.message, "forgotten rejection");
    assert.deepEqual(await eventsOf(t, src.id), []);
    await goodStillWorks();
  });

  it("a synchronous run leaving a rejected promise behind fails too", async () => {
    const src = await createSource(t, `export default { run() { this.$emit("lost"); Promise.reject(new Error("sync forgotten")); } };`);
    const err = await runHostile(src.id);
    assert.equal(err.error.message, "sync forgotten");
    assert.deepEqual(await eventsOf(t, src.id), []);
    await goodStillWorks();
  });

  it("a throw inside a setTimeout callback fails the invocation", async () => {
    const src = await createSource(t, `export default { async run() {
      this.$emit("lost");
      setTimeout(() => { throw new RangeError("thrown in timer"); }, 1);
      await new Promise((r) => setTimeout(r, 100));
    } };`);
    const err = await runHostile(src.id);
    assert.equal(err.error.name, "RangeError");
    assert.equal(err.error.message, "thrown in timer");
    assert.deepEqual(await eventsOf(t, src.id), []);
    await goodStillWorks();
  });

  it("a 2 MiB emit is refused onto $errors while a small emit of the same run lands", async () => {
    const src = await createSource(t, `export default { run() {
      this.$emit({ small: 1 });
      this.$emit({ big: "x".repeat(2 * 1024 * 1024) });
      this.$emit({ small: 2 });
    } };`);
    const err = await runHostile(src.id);
    assert.match(err.error.message, /1048576|1 MiB|too (big|large)/i);
    const events = await waitEvents(t, src.id, 2);
    assert.deepEqual(events.map((e) => e.event), [{ small: 2 }, { small: 1 }]);
    await goodStillWorks();
  });

  it("10,000 emits in one run fail it and commit nothing", async () => {
    const src = await createSource(t, `export default { props: { db: "$.service.db" }, run() {
      this.db.set("touched", true);
      for (let i = 0; i < 10000; i++) this.$emit(i);
    } };`);
    const err = await runHostile(src.id);
    assert.match(err.error.message, /1000/);
    // give a (wrong) late commit a moment to show up
    await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(await eventsOf(t, src.id), []);
    await goodStillWorks();
  });

  it("db.set beyond 64 KiB throws; the stored state is unchanged", async () => {
    const src = await createSource(t, `export default { props: { db: "$.service.db" }, run(e) {
      if (e.big) { this.$emit("lost"); this.db.set("k", "x".repeat(70 * 1024)); }
      else if (e.set) this.db.set("k", e.set);
      this.$emit({ k: this.db.get("k") });
    } };`);
    await run(src.id, { set: "small" });
    await waitEvents(t, src.id, 1);
    const err = await runHostile(src.id, { big: true });
    assert.match(err.error.message, /64 KiB|65536|limit/i);
    await run(src.id, {});
    const events = await waitEvents(t, src.id, 2);
    assert.deepEqual(events.map((e) => e.event), [{ k: "small" }, { k: "small" }]);
    await goodStillWorks();
  });

  it("after all that, /v1/users/me works and a normal source still runs", async () => {
    const me = await t.request("GET", "/v1/users/me");
    assert.equal(me.status, 200, me.text);
    assert.equal(me.body.data.admin, true);
    const health = await fetch(`${base}/healthz`);
    assert.equal(health.status, 200);
    const fresh = await createSource(t, GOOD);
    await run(fresh.id, "final");
    const [e] = await waitEvents(t, fresh.id, 1);
    assert.deepEqual(e.event, { ok: "final" });
    await goodStillWorks();
    await waitFor(async () => (await eventsOf(t, good.id)).length === goodRuns, 5000, "every good run landed once");
  });
});

// Running out of memory is reported as such, not as a timeout. Near its heap limit V8 collects
// again and again, which on a loaded machine can take longer than the main suite's short deadline,
// so this case gets an app whose deadline only a stuck run would reach.
describe("a memory bomb ends with an out-of-memory error", () => {
  let t: TestApp;
  let base: string;
  before(async () => {
    t = await startApp({ TRIBUTARY_INVOCATION_TIMEOUT_MS: "60000" });
    base = await listenLocally(t);
  });
  after(() => t.close());

  it("nothing of the run is committed, /healthz answers meanwhile, and the fixed source runs again", async () => {
    const src = await createSource(t, `export default { run(e) {
      this.$emit("lost");
      if (e.fixed) return this.$emit({ fixed: true });
      const a = []; let s = "x";
      while (true) { a.push(new Array(4e6).fill(a.length)); s += s.length < 1e7 ? s : ""; a.push(s + a.length); }
    } };`);
    const ran = await t.request("POST", `/v1/sources/${src.id}/run`, { body: { event: {} } });
    assert.equal(ran.status, 202, ran.text);
    const landed = waitEvents(t, src.id, 1, "$errors", 60_000);
    const [health, [err]] = await Promise.all([probeHealthAt(base, landed), landed]);
    assert.ok(health.probes >= 1);
    assert.match(`${err.event.error.name}: ${err.event.error.message}`, /out of memory|OutOfMemory/i);
    assert.equal(err.event.invocation?.kind, "run");
    assert.deepEqual(await eventsOf(t, src.id), []);

    const again = await t.request("POST", `/v1/sources/${src.id}/run`, { body: { event: { fixed: true } } });
    assert.equal(again.status, 202, again.text);
    const events = await waitEvents(t, src.id, 2);
    assert.deepEqual(events.map((e) => e.event).reverse(), ["lost", { fixed: true }]);
  });
});
