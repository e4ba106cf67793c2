import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createHash, createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { ATOM, RSS } from "./fixtures/feeds.ts";
import { events, harness, testRunner } from "./fixtures/invoke-harness.ts";
import { listShippedComponents } from "./registry-files.ts";
import type { InvokeReply, InvokeResult } from "./protocol.ts";

const runner = testRunner();
let server: Server;
let origin = "";
let allow: string[] = [];
/** resolves each /hang request's closing, by its id: a fetch the run left behind must be cut */
const hung = new Map<string, () => void>();
const hangClosed = (id: string) => new Promise<void>((done) => hung.set(id, done));
const arrived = new Set<string>();

before(async () => {
  server = createServer((req, res) => {
    if (req.url === "/feed") return void res.writeHead(200, { "content-type": "application/rss+xml" }).end(RSS);
    if (req.url === "/redirect") return void res.writeHead(302, { location: "/json?via=redirect" }).end();
    // never answered: the request stays open until the client lets go
    if (req.url?.startsWith("/hang/")) {
      arrived.add(req.url.slice(6));
      return void req.socket.once("close", () => hung.get(req.url!.slice(6))?.());
    }
    if (req.url?.startsWith("/arrived/")) return void res.writeHead(200).end(String(arrived.has(req.url.slice(9))));
    if (req.url === "/missing") return void res.writeHead(404, { "content-type": "application/json" }).end('{"error":"nope"}');
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json", "x-test": "yes" });
      res.end(JSON.stringify({ method: req.method, url: req.url, body, type: req.headers["content-type"] ?? null }));
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  allow = [`127.0.0.1:${port}`];
});
after(async () => {
  await runner.close();
  await new Promise((done) => server.close(done));
});

const { request, send, run, source } = harness(runner);

describe("invoke: emits, db, errors", () => {
  it("emits events with checked meta, in call order", async () => {
    const r = await run(`export default { async run(event) {
      this.$emit({ n: 1, event }, { id: "a", name: "custom", summary: "first", ts: 5 });
      this.$emit(2, { id: 7, name: 3, summary: {}, ts: "x", extra: true });
      this.$emit("three");
    } }`, { event: { hello: "world" } });
    assert.equal(r.error, undefined);
    assert.deepEqual(events(r), [{ n: 1, event: { hello: "world" } }, 2, "three"]);
    assert.deepEqual(r.emits.map((e) => e.meta), [{ id: "a", name: "custom", summary: "first", ts: 5 }, { id: 7 }, {}]);
    assert.equal(r.db, null);
    assert.ok(r.wallMs > 0);
  });

  it("this: props, defaults, methods, app with $auth, timer", async () => {
    const r = await run(`
      const app = { type: "app", app: "gh", propDefinitions: { repo: { type: "string", default: "r1" } },
        methods: { token() { return this.$auth.token; } } };
      export default {
        props: { name: { type: "string" }, count: { type: "integer", default: 3 }, gh: app, other: app,
          repo: { propDefinition: [app, "repo"] }, timer: { type: "$.interface.timer", default: { intervalSeconds: 60 } } },
        methods: { greet() { return "hi " + this.name; } },
        run() { this.$emit({ greet: this.greet(), count: this.count, token: this.gh.token(), other: this.other.$auth,
          repo: this.repo, timer: this.timer }); },
      };`, { props: { name: "Ann", gh: { token: "t0k" }, timer: { intervalSeconds: 5 } } });
    assert.equal(r.error, undefined);
    assert.deepEqual(events(r), [
      { greet: "hi Ann", count: 3, token: "t0k", other: {}, repo: "r1", timer: { type: "$.interface.timer", intervalSeconds: 5 } },
    ]);
  });

  it("db persists in the warm instance, and a new epoch starts from the host's state", async () => {
    const invoke = source(`export default { props: { db: "$.service.db" }, run() {
      const n = (this.db.get("n") ?? 0) + 1; this.db.set("n", n); this.$emit(n); } }`);
    const first = await invoke({ db: { n: 10 } });
    assert.deepEqual(events(first), [11]);
    assert.deepEqual(first.db, { n: 11 });
    // Same epoch: the runner's own (newer) state wins over the stale one sent.
    assert.deepEqual(events(await invoke({ db: { n: 10 } })), [12]);
    assert.deepEqual(events(await invoke({ db: { n: 100 }, dbEpoch: 2 })), [101]);
  });

  it("db.set over the size limit throws inside the invocation; an error discards the changes", async () => {
    const invoke = source(`export default { props: { db: { type: "$.service.db" } }, run(event) {
      this.db.set("a", "x".repeat(10));
      if (event === "big") this.db.set("b", "x".repeat(2000));
      if (event === "fail") throw new Error("after set");
      this.$emit(this.db.get("a")); } }`);
    const big = await invoke({ event: "big", limits: { maxDbBytes: 1000 } });
    assert.match(big.error?.message ?? "", /over the limit of 1000/);
    assert.equal(big.db, null);
    const ok = await invoke({ event: "ok", db: { keep: 1 } });
    assert.deepEqual(ok.db, { keep: 1, a: "xxxxxxxxxx" });
    const failed = await invoke({ event: "fail" });
    assert.equal(failed.error?.message, "after set");
    assert.deepEqual([failed.db, failed.emits], [null, []]);
  });

  it("errors: thrown Error, non-Error, rejected promise; emits dropped, logs kept", async () => {
    const r = await run(`export default { async run() { console.log("before"); this.$emit(1);
      await null; throw new TypeError("bad thing"); } }`);
    assert.deepEqual([r.error?.name, r.error?.message, r.emits, r.logs.map((l) => l.msg)], ["TypeError", "bad thing", [], ["before"]]);
    assert.match(r.error?.stack ?? "", /component\.mjs:2/);
    const s = await run(`export default { run() { throw "plain string"; } }`);
    assert.deepEqual([s.error?.name, s.error?.message], ["Error", "plain string"]);
    const o = await run(`export default { run() { return Promise.reject({ code: 1 }); } }`);
    assert.match(o.error?.message ?? "", /non-Error thrown: \{ code: 1 \}/);
  });

  it("a component without run re-emits its event; hooks run with this.db; missing hooks succeed", async () => {
    const r = await run(`export default { props: { timer: "$.interface.timer" } }`, { event: { timestamp: 1 } });
    assert.deepEqual(events(r), [{ timestamp: 1 }]);
    const invoke = source(`export default { props: { db: "$.service.db" },
      hooks: { deploy() { this.db.set("deployed", true); this.$emit("d"); }, async activate() { this.$emit(this.db.get("deployed")); } } }`);
    const deploy = await invoke({ kind: "deploy" });
    assert.deepEqual([events(deploy), deploy.db], [["d"], { deployed: true }]);
    assert.deepEqual(events(await invoke({ kind: "activate" })), [true]);
    const none = await invoke({ kind: "deactivate" });
    assert.deepEqual([none.error, none.emits], [undefined, []]);
  });

  it("needCode round trip, and the code is kept for a new source", async () => {
    const code = `export default { run() { this.$emit("warm"); } }`;
    const codeHash = `hash-needcode-${process.pid}`;
    assert.deepEqual(await send(request(code, { codeHash, withCode: false })), { needCode: true });
    assert.deepEqual(events(await run(code, { codeHash })), ["warm"]);
    assert.deepEqual(events(await run(code, { codeHash, withCode: false })), ["warm"]);
  });

  it("a run sent without code to a runner that lacks it asks for it and keeps its place: the source's later runs wait behind it", async () => {
    // a counter in the instance: the order in which the runs of one source really ran
    const code = `let n = 0; export default { run() { this.$emit(++n); } }`;
    const codeHash = `hash-ordered-${process.pid}`;
    const [s, t] = ["src-ordered-s", "src-ordered-t"];
    const withCode = (req: ReturnType<typeof request>) =>
      runner.request<InvokeReply>(req, {
        key: req.sourceId,
        code: () => code,
        deadlineMs: 10_000,
        onTimeout: () => new Error("runner deadline"),
        onCrash: () => new Error("runner crashed"),
      });
    // one tick, one batch: S's first run without code (the host believed the runner held it),
    // another source bringing the same code, S's second run without code. Before: the first
    // answered needCode, the second found the code T brought and ran first, the first ran after.
    const [first, , second] = await Promise.all([
      withCode(request(code, { sourceId: s, codeHash, withCode: false })),
      withCode(request(code, { sourceId: t, codeHash })),
      withCode(request(code, { sourceId: s, codeHash, withCode: false })),
    ]);
    assert.ok(!("needCode" in first) && !("needCode" in second), "the runner asked for the code instead of answering needCode");
    assert.deepEqual([events(first as InvokeResult), events(second as InvokeResult)], [[1], [2]]);
  });

  it("invocations of one source run one at a time, in order", async () => {
    const invoke = source(`export default { props: { db: "$.service.db" }, async run(ms) {
      const log = this.db.get("log") ?? []; await new Promise((r) => setTimeout(r, ms));
      log.push(ms); this.db.set("log", log); this.$emit(log); } }`);
    const results = await Promise.all([30, 1, 10].map((ms) => invoke({ event: ms })));
    assert.deepEqual(events(results[2]), [[30, 1, 10]]);
  });

  it("a run's $emit kept past its end emits nothing into a later run; many emits of one run keep their order", async () => {
    const invoke = source(`let kept; export default { run(n) {
      if (!kept) { kept = this.$emit; for (let i = 0; i < 200; i++) this.$emit(i); return; }
      try { kept("late"); } catch (e) { this.$emit(e.message); } } }`);
    const first = await invoke({ event: 1 });
    assert.deepEqual(events(first), Array.from({ length: 200 }, (_, i) => i));
    const second = await invoke({ event: 2 });
    assert.deepEqual(events(second), ["$emit is only available while the component is invoked"]);
  });
});

describe("invoke: limits", () => {
  it("an endless loop times out, and the source works again afterwards", async () => {
    const invoke = source(`export default { run(e) { if (e === "loop") while (true) {} this.$emit("ok"); } }`);
    const r = await invoke({ event: "loop", limits: { timeoutMs: 200 } });
    assert.deepEqual([r.error?.name, r.error?.message], ["TimeoutError", "invocation timed out after 200 ms"]);
    assert.deepEqual(events(await invoke({ event: "x" })), ["ok"]);
  });

  it("an await that never settles times out; a loop after an await too", async () => {
    const never = await run(`export default { async run() { await new Promise(() => {}); } }`, { limits: { timeoutMs: 150 } });
    assert.equal(never.error?.name, "TimeoutError");
    const later = await run(`export default { async run() { await new Promise((r) => setTimeout(r, 5)); for (;;); } }`, {
      limits: { timeoutMs: 150 },
    });
    assert.equal(later.error?.name, "TimeoutError");
  });

  it("a memory bomb runs out of memory", async () => {
    const r = await run(`export default { run() { const a = []; while (true) a.push(new Array(1e6).fill(1)); } }`, {
      limits: { memoryMb: 16 },
    });
    assert.deepEqual([r.error?.name, r.error?.message], ["OutOfMemoryError", "out of memory (limit 16 MB)"]);
  });

  it("an unhandled rejection fails the invocation, and the runner lives on", async () => {
    const r = await run(`export default { async run() {
      await new Promise((r) => setTimeout(r, 1)); Promise.reject(new Error("forgotten"));
      await new Promise((r) => setTimeout(r, 50)); this.$emit("late"); } }`);
    assert.deepEqual([r.error?.message, r.emits], ["forgotten", []]);
    const t = await run(`export default { async run() { setTimeout(() => { throw new RangeError("in timer"); }, 1);
      await new Promise((r) => setTimeout(r, 50)); } }`);
    assert.deepEqual([t.error?.name, t.error?.message], ["RangeError", "in timer"]);
    assert.deepEqual(events(await run(`export default { run() { this.$emit(1); } }`)), [1]);
  });

  it("timers left pending are cancelled when the invocation ends", async () => {
    const invoke = source(`export default { async run(e) {
      if (e === "start") { setInterval(() => console.log("tick"), 5); setTimeout(() => console.log("late"), 30); return; }
      await new Promise((r) => setTimeout(r, 60)); console.log("second"); } }`);
    assert.deepEqual((await invoke({ event: "start" })).logs, []);
    assert.deepEqual((await invoke({ event: "again" })).logs.map((l) => l.msg), ["second"]);
  });

  it("a 2 MiB emit is refused on its own; the others land", async () => {
    const r = await run(`export default { run() { this.$emit(1); this.$emit("x".repeat(2 * 1024 * 1024));
      const o = {}; o.self = o; this.$emit(o); this.$emit(() => 1); this.$emit(2); } }`);
    assert.equal(r.error, undefined);
    assert.deepEqual(events(r), [1, 2]);
    assert.equal(r.emitErrors.length, 3);
    assert.match(r.emitErrors[0].message, /over the limit of 1048576/);
    assert.match(r.emitErrors[1].message, /not JSON-serializable/);
  });

  it("10,000 emits fail the invocation", async () => {
    const r = await run(`export default { run() { for (let i = 0; i < 10000; i++) this.$emit(i); } }`);
    assert.match(r.error?.message ?? "", /more than 1000 \$emit calls/);
    assert.deepEqual(r.emits, []);
  });

  it("console is captured with levels and formatting, and limited", async () => {
    const r = await run(`export default { run() {
      console.log("a", 1, { b: [1, "x"] }, null); console.info("%s=%d", "n", 42); console.warn(new Error("w").message);
      console.error(undefined); console.debug("long", "é".repeat(5000));
      for (let i = 0; i < 200; i++) console.log(i); } }`);
    assert.deepEqual(r.logs.slice(0, 4).map((l) => [l.level, l.msg]), [
      ["log", "a 1 { b: [ 1, 'x' ] } null"],
      ["info", "n=42"],
      ["warn", "w"],
      ["error", "undefined"],
    ]);
    assert.equal(r.logs[4].level, "debug");
    assert.ok(Buffer.byteLength(r.logs[4].msg) <= 4096 && r.logs[4].msg.startsWith("long éé"));
    assert.equal(r.logs.length, 101);
    assert.equal(r.logs[100].msg, "105 more console line(s) dropped (limit 100 per invocation)");
  });

  it("http.respond: first call wins, numeric-string status, invalid status throws", async () => {
    const r = await run(`export default { props: { http: { type: "$.interface.http", customResponse: true } }, run() {
      this.http.respond({ status: "201", headers: { "x-a": "1", n: 2 }, body: { ok: true, endpoint: this.http.endpoint } });
      this.http.respond({ status: 500, body: "ignored" }); } }`, { props: { http: { endpoint: "https://e.example/x" } } });
    assert.deepEqual(r.response, { status: 201, headers: { "x-a": "1", n: "2" }, body: { ok: true, endpoint: "https://e.example/x" } });
    const bad = await run(`export default { props: { http: "$.interface.http" }, run() { this.http.respond({ status: 99 }); } }`);
    assert.match(bad.error?.message ?? "", /status must be an integer from 200 to 599/);
    assert.equal(bad.response, undefined);
  });
});

describe("invoke: sandbox globals and provided modules", () => {
  it("require is absent, process the sandbox's stand-in; URL, TextEncoder, structuredClone, crypto.randomUUID work", async () => {
    const r = await run(`export default { run() {
      const u = new URL("../b?x=1#h", "https://user@example.com:8080/a/c");
      u.searchParams.append("y", "a b");
      const p = new URLSearchParams({ q: "é&" });
      const bytes = new TextEncoder().encode("héllo");
      const clone = structuredClone({ d: new Date(0), m: new Map([[1, 2]]) });
      this.$emit({ proc: typeof process, req: typeof require, href: u.href, host: u.host, x: u.searchParams.get("x"),
        p: p.toString(), len: bytes.length, back: new TextDecoder().decode(bytes), clone: clone.m.get(1) + clone.d.getTime(),
        uuid: /^[0-9a-f-]{36}$/.test(crypto.randomUUID()), invalid: URL.canParse("nope") }); } }`);
    assert.equal(r.error, undefined, r.error?.message);
    assert.deepEqual(events(r), [{ proc: "object", req: "undefined", href: "https://user@example.com:8080/b?x=1&y=a+b#h",
      host: "example.com:8080", x: "1", p: "q=%C3%A9%26", len: 6, back: "héllo", clone: 2, uuid: true, invalid: false }]);
  });

  it("fetch to 127.0.0.1 is refused, and allowed when in fetchAllow (redirects followed)", async () => {
    const code = `export default { async run(url) { try { const res = await fetch(url, { method: "POST", body: "hi" });
      this.$emit({ status: res.status, url: res.url, redirected: res.redirected, body: await res.json(), x: res.headers.get("x-test") });
      } catch (e) { this.$emit({ error: e.name + ": " + e.message }); } } }`;
    const refused = await run(code, { event: `${origin}/json` });
    assert.match(events(refused)[0].error, /^TypeError: .*loopback or private address/);
    const allowed = await run(code, { event: `${origin}/redirect`, fetchAllow: allow });
    assert.deepEqual(events(allowed)[0], {
      status: 200, url: `${origin}/json?via=redirect`, redirected: true, x: "yes",
      body: { method: "GET", url: "/json?via=redirect", body: "", type: null },
    });
  });

  it("axios: GET with params, POST JSON, non-2xx rejects with response", async () => {
    const r = await run(`import axios from "axios";
      export default { async run(base) {
        const get = await axios.get(base + "/json", { params: { a: 1, b: "x y" } });
        const post = await axios.create({ baseURL: base }).post("/json", { k: "v" });
        let failed; try { await axios({ url: base + "/missing" }); } catch (e) { failed = { is: e.isAxiosError, status: e.response.status, data: e.response.data }; }
        this.$emit({ get: get.data.url, status: get.status, h: get.headers["x-test"], post: post.data, failed });
      } }`, { event: origin, fetchAllow: allow });
    assert.equal(r.error, undefined, r.error?.message);
    assert.deepEqual(events(r)[0], {
      get: "/json?a=1&b=x+y", status: 200, h: "yes",
      post: { method: "POST", url: "/json", body: '{"k":"v"}', type: "application/json" },
      failed: { is: true, status: 404, data: { error: "nope" } },
    });
  });

  it("crypto: createHash and createHmac match node:crypto", async () => {
    const r = await run(`import crypto, { createHmac } from "crypto";
      export default { run() { this.$emit([crypto.createHash("sha256").update("a").update("b").digest("hex"),
        createHmac("sha1", "key").update("msg").digest("base64"), crypto.createHash("md5").update("x").digest().toString("hex"),
        crypto.timingSafeEqual(new Uint8Array([1]), new Uint8Array([1]))]); } }`);
    assert.deepEqual(events(r)[0], [
      createHash("sha256").update("ab").digest("hex"),
      createHmac("sha1", "key").update("msg").digest("base64"),
      createHash("md5").update("x").digest("hex"),
      true,
    ]);
  });

  it("fast-xml-parser parses RSS and Atom", async () => {
    const r = await run(`import { XMLParser } from "fast-xml-parser";
      export default { run(e) { const p = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@_" });
        this.$emit(p.parse(e.rss)); this.$emit(p.parse(e.atom)); this.$emit(new XMLParser().parse(e.rss).rss.channel.item[0].guid); } }`,
    { event: { rss: RSS, atom: ATOM } });
    assert.equal(r.error, undefined, r.error?.message);
    const [rss, atom, plainGuid] = events(r);
    assert.equal(rss.rss["@_version"], "2.0");
    assert.equal(rss.rss.channel.title, "Example & Co");
    assert.deepEqual(rss.rss.channel.item[0].guid, { "#text": "id-1", "@_isPermaLink": "false" });
    assert.equal(rss.rss.channel.item[0].description, "<p>Hello <b>world</b></p>");
    assert.equal(rss.rss.channel.item[0]["dc:creator"], "Ann");
    assert.equal(rss.rss.channel.item[1].title, "Second – A");
    assert.equal(rss.rss.channel.item[1].guid, 42);
    assert.equal(atom.feed.entry.link[1]["@_href"], "https://example.com/entry");
    assert.deepEqual(atom.feed.title, { "#text": "Atom example", "@_type": "text" });
    assert.equal(atom.feed.entry.author.name, "Bob");
    assert.equal(plainGuid, "id-1");
  });

  it("the shipped RSS component reads a feed over @pipedream/platform axios", async () => {
    const code = listShippedComponents().find((c) => c.key === "rss-new-item-in-feed")!.code;
    const r = await run(code, { props: { url: `${origin}/feed` }, fetchAllow: allow });
    assert.equal(r.error, undefined, r.error?.message);
    assert.deepEqual(r.emits.map((e) => e.meta.id), ["id-1", "42"]);
    assert.equal(JSON.parse(r.emits[0].json).author, "Ann");
  });
});

describe("invoke: @pipedream/platform", () => {
  it("getFileStream and getFileStreamAndMetadata read an http(s) URL; transformConfigForOauth; define* helpers", async () => {
    const r = await run(
      `import { getFileStream, getFileStreamAndMetadata, transformConfigForOauth, defineAction, defineSource } from "@pipedream/platform";
      import { defineApp } from "@pipedream/types";
      export default defineSource({ async run(origin) {
        const chunks = []; for await (const c of await getFileStream(origin + "/feed")) chunks.push(c);
        const text = new TextDecoder().decode(chunks[0]);
        const { stream, metadata } = await getFileStreamAndMetadata(origin + "/feed");
        let n = 0; await new Promise((done) => stream.on("data", (c) => { n += c.length; }).on("end", done));
        let refused; try { await getFileStream("/etc/passwd"); } catch (e) { refused = e.name; }
        this.$emit({ starts: text.slice(0, 5), n, metadata, refused,
          oauth: transformConfigForOauth({ method: "post", url: "/x", baseURL: "https://api.example.com", params: { a: 1 }, data: { b: 2 } }),
          oauthGet: transformConfigForOauth({ url: "https://api.example.com/y" }),
          helpers: [typeof defineAction({}), typeof defineApp({})] });
      } })`,
      { event: origin, fetchAllow: allow },
    );
    assert.equal(r.error, undefined, r.error?.message);
    const [e] = events(r);
    assert.equal(e.starts, "<?xml");
    assert.equal(e.n, RSS.length);
    assert.deepEqual(e.metadata, { size: RSS.length, contentType: "application/rss+xml", name: "feed" });
    assert.equal(e.refused, "ConfigurationError");
    // the method as given, "get" when none is (as Pipedream's: signers compare it as written)
    assert.deepEqual(e.oauth, { method: "post", url: "https://api.example.com/x?a=1", data: { b: 2 } });
    assert.deepEqual(e.oauthGet, { method: "get", url: "https://api.example.com/y" });
    assert.deepEqual(e.helpers, ["object", "object"]);
  });
});

describe("invoke: web body globals", () => {
  it("a fetch a run leaves unawaited is aborted when the run ends", { timeout: 20_000 }, async () => {
    const closed = hangClosed("left");
    // the run returns once the server has the request (so it is surely out), without awaiting it
    const r = await run(`export default { async run(url) {
      fetch(url + "/hang/left").catch(() => {});
      while ((await (await fetch(url + "/arrived/left")).text()) !== "true") await new Promise((r) => setTimeout(r, 5));
      this.$emit({ ok: 1 }); } }`, {
      event: origin,
      fetchAllow: allow,
    });
    assert.equal(r.error, undefined, r.error?.message);
    await closed;
  });

  it("Blob, File, FormData (sent as multipart/form-data) and Request work with fetch", async () => {
    const r = await run(
      `export default { async run(origin) {
        const blob = new Blob(["ab", new Uint8Array([99])], { type: "Text/Plain" });
        const form = new FormData(); form.append("a", "1"); form.append("file", new File(["hi"], "x.txt", { type: "text/plain" }));
        const sent = await (await fetch(origin + "/echo", { method: "POST", body: form })).json();
        const viaRequest = await (await fetch(new Request(origin + "/echo", { method: "PUT", body: blob }))).json();
        this.$emit({ blob: [blob.size, blob.type, await blob.text(), await blob.slice(1).text()], formHas: form.has("file"),
          multipart: sent.type.startsWith("multipart/form-data; boundary=") && sent.body.includes('name="file"; filename="x.txt"') && sent.body.includes("\\r\\n\\r\\n1\\r\\n"),
          request: [viaRequest.method, viaRequest.body, viaRequest.type] });
      } }`,
      { event: origin, fetchAllow: allow },
    );
    assert.equal(r.error, undefined, r.error?.message);
    assert.deepEqual(events(r)[0], { blob: [3, "text/plain", "abc", "bc"], formHas: true, multipart: true, request: ["PUT", "abc", "text/plain"] });
  });
});

describe("invoke: what real packages use: WHATWG streams, TextEncoder.encodeInto, Hash#copy", () => {
  it("ReadableStream, WritableStream, TransformStream, the queuing strategies and the text streams are globals, as in Node", async () => {
    const r = await run(
      `export default { async run() {
        const chunks = [new Uint8Array([0x68, 0xc3]), new Uint8Array([0xa9, 0xe2, 0x82]), new Uint8Array([0xac])];
        const source = new ReadableStream({ start(c) { for (const x of chunks) c.enqueue(x); c.close(); } });
        const upper = new TransformStream({ transform(s, c) { c.enqueue(s.toUpperCase()); } });
        const seen = [];
        await source.pipeThrough(new TextDecoderStream()).pipeThrough(upper)
          .pipeTo(new WritableStream({ write(s) { seen.push(s); } }, new CountQueuingStrategy({ highWaterMark: 2 })));
        const encoded = [];
        for await (const b of ReadableStream.from(["a", "\u00e9"]).pipeThrough(new TextEncoderStream())) encoded.push([...b]);
        this.$emit({ text: seen.join(""), encoded, bytes: new ByteLengthQueuingStrategy({ highWaterMark: 8 }).size(new Uint8Array(3)),
          names: [ReadableStream.name, TextDecoderStream.name, typeof ReadableStreamDefaultReader, typeof WritableStreamDefaultWriter] });
      } }`,
    );
    assert.equal(r.error, undefined, r.error?.message);
    assert.deepEqual(events(r)[0], { text: "HÉ€", encoded: [[0x61], [0xc3, 0xa9]], bytes: 3, names: ["ReadableStream", "TextDecoderStream", "function", "function"] });
  });

  it("a fetch response's body and a Blob are streams; looking at res.body leaves text() usable", async () => {
    const r = await run(
      `export default { async run(origin) {
        const res = await fetch(origin + "/json?x=1");
        const reader = res.body.getReader();
        const parts = [];
        for (let c = await reader.read(); !c.done; c = await reader.read()) parts.push(new TextDecoder().decode(c.value));
        const other = await fetch(origin + "/json?x=2");
        const looked = other.body instanceof ReadableStream && other.bodyUsed;
        const blob = [];
        for await (const c of new Blob(["ab"]).stream()) blob.push([...c]);
        this.$emit({ read: JSON.parse(parts.join("")).url, used: res.bodyUsed, looked, text: JSON.parse(await other.text()).url,
          empty: new Response(null).body, blob });
      } }`,
      { event: origin, fetchAllow: allow },
    );
    assert.equal(r.error, undefined, r.error?.message);
    assert.deepEqual(events(r)[0], { read: "/json?x=1", used: true, looked: false, text: "/json?x=2", empty: null, blob: [[97, 98]] });
  });

  it("TextEncoder.encodeInto writes whole characters only and says how much it read and wrote", async () => {
    const r = await run(`export default { run() {
      const small = new Uint8Array(4);
      const a = new TextEncoder().encodeInto("a\u00e9\u{1F600}", small);
      const big = new Uint8Array(16);
      const b = new TextEncoder().encodeInto("a\u00e9\u{1F600}", big);
      this.$emit({ a, small: [...small], b, big: [...big.subarray(0, b.written)] });
    } }`);
    assert.equal(r.error, undefined, r.error?.message);
    assert.deepEqual(events(r)[0], {
      a: { read: 2, written: 3 }, small: [0x61, 0xc3, 0xa9, 0],
      b: { read: 4, written: 7 }, big: [0x61, 0xc3, 0xa9, 0xf0, 0x9f, 0x98, 0x80],
    });
  });

  it("crypto: a hash's copy() digests what was fed so far, and each goes on apart", async () => {
    const r = await run(`import crypto from "crypto";
      export default { run() {
        const h = crypto.createHash("sha256").update("a");
        const twin = h.copy();
        this.$emit({ twin: twin.update("c").digest("hex"), h: h.update("b").digest("hex") });
      } }`);
    assert.equal(r.error, undefined, r.error?.message);
    const hex = (s: string) => createHash("sha256").update(s).digest("hex");
    assert.deepEqual(events(r)[0], { twin: hex("ac"), h: hex("ab") });
  });

  it("a context that never names a stream class never loads them", async () => {
    const probe = `Object.getOwnPropertyDescriptor(globalThis, "ReadableStream")`;
    const r = await run(
      `export default { async run() {
        const before = typeof ${probe}.get;
        const touched = typeof ReadableStream;
        this.$emit({ before, touched, after: typeof ${probe}.value });
      } }`,
    );
    assert.equal(r.error, undefined, r.error?.message);
    assert.deepEqual(events(r)[0], { before: "function", touched: "function", after: "function" });
  });
});

describe("invoke: sources of one owner and code share an isolate", () => {
  const bombable = `export default { props: { db: "$.service.db" }, run(event) {
    if (event === "loop") for (;;) {}
    if (event === "bomb") { const keep = []; for (;;) keep.push(new Array(1e6).fill(1)); }
    globalThis.seen = (globalThis.seen ?? 0) + 1;
    this.db.set("n", (this.db.get("n") ?? 0) + 1);
    this.$emit({ seen: globalThis.seen, n: this.db.get("n") });
  } }`;

  it("each source keeps its own globals and db; a hang costs only its own context, a memory bomb its siblings' warmth", async () => {
    const codeHash = `shared-${process.pid}`;
    const owner = `owner-${process.pid}`;
    const a = (c: Parameters<typeof run>[1] = {}) => run(bombable, { sourceId: "shared-a", codeHash, owner, ...c });
    const b = (c: Parameters<typeof run>[1] = {}) => run(bombable, { sourceId: "shared-b", codeHash, owner, ...c });
    // another owner's source of the same code never shares with them
    const other = (c: Parameters<typeof run>[1] = {}) => run(bombable, { sourceId: "shared-c", codeHash, owner: "someone-else", ...c });
    assert.deepEqual(events(await a({ event: 1 })), [{ seen: 1, n: 1 }]);
    assert.deepEqual(events(await b({ event: 1 })), [{ seen: 1, n: 1 }]);
    assert.deepEqual(events(await other({ event: 1 })), [{ seen: 1, n: 1 }]);
    assert.deepEqual(events(await a({ event: 2, db: { n: 1 } })), [{ seen: 2, n: 2 }], "warm: a's global and db carried on, b's didn't leak in");
    // an endless loop in a: a's context goes, b stays warm
    const hung = await a({ event: "loop", limits: { timeoutMs: 300 } });
    assert.equal(hung.error?.name, "TimeoutError");
    assert.deepEqual(events(await b({ event: 2, db: { n: 1 } })), [{ seen: 2, n: 2 }]);
    // a memory bomb in a ends the isolate a and b share: b starts cold; the other owner's is untouched
    const bombed = await a({ event: "bomb" });
    assert.equal(bombed.error?.name, "OutOfMemoryError");
    assert.deepEqual(events(await b({ event: 3, db: { n: 2 }, dbEpoch: 2 })), [{ seen: 1, n: 3 }], "b starts cold from the db the host gave it");
    assert.deepEqual(events(await other({ event: 2, db: { n: 1 } })), [{ seen: 2, n: 2 }]);
  });

  it("sources whose code holds a lot of memory spread over isolates instead of running one out of memory", async () => {
    // about 16 MB each at load, against the harness's 64 MB limit: four can't share one isolate
    const heavy = `const big = Array.from({ length: 400000 }, (_, i) => "item-" + i);
      export default { run() { this.$emit({ n: big.length }); } }`;
    const codeHash = `heavy-${process.pid}`;
    const owner = `heavy-owner-${process.pid}`;
    for (const id of ["h1", "h2", "h3", "h4", "h5"]) {
      const r = await run(heavy, { sourceId: `heavy-${id}`, codeHash, owner });
      assert.equal(r.error, undefined, `${id}: ${r.error?.message}`);
      assert.deepEqual(events(r), [{ n: 400000 }]);
    }
  });
});
