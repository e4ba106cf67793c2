// The runner's invoke end to end, on a real runner: the sandbox's globals and provided modules
// (fetch, axios, crypto, @pipedream/platform, web bodies and streams), against a local HTTP
// server.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createHash, createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { deflateRawSync, gzipSync } from "node:zlib";
import { ATOM, RSS } from "./fixtures/feeds.ts";
import { events, harness, testRunner } from "./fixtures/invoke-harness.ts";
import { listShippedComponents } from "./registry-files.ts";


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
    // compressed as servers do: fetch hands the code the text; a small body that inflates past the cap is cut
    if (req.url === "/gzip") return void res.writeHead(200, { "content-encoding": "gzip", "content-type": "application/json", "set-cookie": ["a=1", "b=2"] }).end(gzipSync(JSON.stringify({ zipped: true, headers: req.headers })));
    if (req.url === "/raw-deflate") return void res.writeHead(200, { "content-encoding": "deflate" }).end(deflateRawSync("raw"));
    if (req.url === "/twice") return void res.writeHead(200, { "content-encoding": "gzip, gzip" }).end(gzipSync(gzipSync("twice")));
    // a gzip body without its trailer: fetch gives what it holds
    if (req.url === "/cut") return void res.writeHead(200, { "content-encoding": "gzip" }).end(gzipSync("cut short").subarray(0, -8));
    if (req.url === "/range") return void res.writeHead(206).end(String(req.headers["accept-encoding"]));
    if (req.url === "/bomb") return void res.writeHead(200, { "content-encoding": "gzip" }).end(gzipSync(Buffer.alloc(11 * 1024 * 1024)));
    // bodies text() reads differently from bytes(): a byte order mark, bytes that aren't UTF-8
    if (req.url === "/bom") return void res.writeHead(200).end(Buffer.from([0xef, 0xbb, 0xbf, 0x68, 0x69]));
    if (req.url === "/latin1") return void res.writeHead(200).end(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    if (req.url === "/teapot") return void res.writeHead(418, "Short And Stout").end();
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

const { run } = harness(runner);

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

  it("TextDecoder takes UTF-16 and windows-1252 (latin1) as Node's does (got 12+ makes a utf-16le one when it loads)", async () => {
    // each case: [label, bytes, options, chunks for {stream: true} or undefined]
    const cases: [string, number[], { fatal?: boolean; ignoreBOM?: boolean }, number[] | undefined][] = [
      ["utf-16le", [0xff, 0xfe, 0x68, 0x00, 0xe9, 0x00, 0x3d, 0xd8, 0x00, 0xde], {}, undefined],
      ["utf-16le", [0xff, 0xfe, 0x68, 0x00], { ignoreBOM: true }, undefined],
      ["UTF-16", [0x68, 0x00, 0x3d, 0xd8, 0x00, 0xde, 0x69], {}, [3, 5, 7]],
      ["utf-16be", [0x00, 0x68, 0xd8, 0x3d, 0xde, 0x00], {}, undefined],
      ["utf-16le", [0x00, 0xdc, 0x68, 0x00], {}, undefined],
      ["latin1", [0x68, 0xe9, 0x80, 0x9f, 0xff], {}, undefined],
      ["ascii", [0x41, 0x93, 0x94], {}, undefined],
    ];
    const r = await run(`export default { run(cases) {
      const out = cases.map(([label, bytes, opts, cuts]) => {
        const d = new TextDecoder(label, opts);
        if (!cuts) return [d.encoding, d.decode(new Uint8Array(bytes))];
        let text = "", at = 0;
        for (const c of cuts) { text += d.decode(new Uint8Array(bytes.slice(at, c)), { stream: c < bytes.length }); at = c; }
        return [d.encoding, text + d.decode()];
      });
      let fatal; try { new TextDecoder("utf-16le", { fatal: true }).decode(new Uint8Array([0x00, 0xdc])); } catch (e) { fatal = e.name; }
      let unknown; try { new TextDecoder("klingon"); } catch (e) { unknown = e.name; }
      this.$emit({ out, fatal, unknown, utf8: new TextDecoder().encoding });
    } }`, { event: cases });
    assert.equal(r.error, undefined, r.error?.message);
    const node = cases.map(([label, bytes, opts, cuts]) => {
      const d = new TextDecoder(label, opts);
      if (!cuts) return [d.encoding, d.decode(new Uint8Array(bytes))];
      let text = "";
      let at = 0;
      for (const c of cuts) {
        text += d.decode(new Uint8Array(bytes.slice(at, c)), { stream: c < bytes.length });
        at = c;
      }
      return [d.encoding, text + d.decode()];
    });
    assert.deepEqual(events(r)[0], { out: node, fatal: "TypeError", unknown: "RangeError", utf8: "utf-8" });
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

  it("fetch decodes a gzip body (raw deflate, two codings, a cut trailer too), gives the server's reason phrase, lists each set-cookie, sends fetch's default headers, and cuts a body that inflates past the cap", async () => {
    const r = await run(`export default { async run(base) {
      const res = await fetch(base + "/gzip", { headers: { "user-agent": "mine" } });
      const body = await res.json();
      let bomb; try { await fetch(base + "/bomb"); } catch (e) { bomb = e.name + ": " + e.message; }
      const text = async (path, init) => (await fetch(base + path, init)).text();
      const others = [await text("/raw-deflate"), await text("/twice"), await text("/cut"), await text("/range", { headers: { range: "bytes=0-3" } })];
      const teapot = await fetch(base + "/teapot");
      this.$emit({ status: res.status, statusText: res.statusText, teapot: [teapot.status, teapot.statusText], zipped: body.zipped, ua: body.headers["user-agent"], accept: body.headers.accept,
        encoding: body.headers["accept-encoding"], cookies: res.headers.getSetCookie(), bomb, others });
    } }`, { event: origin, fetchAllow: allow });
    assert.equal(r.error, undefined, r.error?.message);
    assert.deepEqual(events(r)[0], {
      status: 200, statusText: "OK", teapot: [418, "Short And Stout"], zipped: true, ua: "mine", accept: "*/*", encoding: "gzip, deflate",
      cookies: ["a=1", "b=2"], bomb: "RangeError: response body is larger than 10485760 bytes",
      others: ["raw", "twice", "cut short", "identity"],
    });
  });

  it("axios: GET with params, POST JSON, non-2xx rejects with response", async () => {
    const r = await run(`import axios from "axios";
      export default { async run(base) {
        const get = await axios.get(base + "/json", { params: { a: 1, b: "x y" } });
        const post = await axios.create({ baseURL: base }).post("/json", { k: "v" });
        let failed; try { await axios({ url: base + "/missing" }); } catch (e) { failed = { is: e.isAxiosError, status: e.response.status, data: e.response.data }; }
        // data goes with a DELETE and a GET too, as Node's axios sends it (and fetch takes a GET's body here)
        const del = await axios.delete(base + "/json", { data: { d: 1 } });
        const getBody = await axios({ method: "get", url: base + "/json", data: { g: 1 } });
        const fetched = await (await fetch(base + "/json", { method: "GET", body: "b" })).json();
        this.$emit({ get: get.data.url, status: get.status, h: get.headers["x-test"], post: post.data, failed, del: del.data.body, getBody: getBody.data.body, fetched: fetched.body });
      } }`, { event: origin, fetchAllow: allow });
    assert.equal(r.error, undefined, r.error?.message);
    assert.deepEqual(events(r)[0], {
      get: "/json?a=1&b=x+y", status: 200, h: "yes",
      post: { method: "POST", url: "/json", body: '{"k":"v"}', type: "application/json" },
      failed: { is: true, status: 404, data: { error: "nope" } },
      del: '{"d":1}', getBody: '{"g":1}', fetched: "b",
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

  it("a response's text(), bytes(), clone() and body agree with the bytes sent: UTF-8, a byte order mark, bytes that aren't UTF-8", async () => {
    const r = await run(
      `export default { async run(origin) {
        const read = async (path) => {
          const [a, b, c, d] = await Promise.all([1, 2, 3, 4].map(() => fetch(origin + path)));
          const twin = c.clone();
          const streamed = [];
          for await (const chunk of d.body) streamed.push(...chunk);
          return { text: await a.text(), bytes: [...new Uint8Array(await b.arrayBuffer())], clone: [...(await twin.bytes())], cloneText: await c.text(), streamed };
        };
        const used = await fetch(origin + "/json");
        await used.text();
        let again;
        try { await used.bytes(); } catch (e) { again = e.constructor.name; }
        this.$emit({ utf8: await read("/json?q=%C3%A9"), bom: await read("/bom"), latin1: await read("/latin1"), again });
      } }`,
      { event: origin, fetchAllow: allow },
    );
    assert.equal(r.error, undefined, r.error?.message);
    const got = events(r)[0] as Record<string, { text: string; bytes: number[]; clone: number[]; cloneText: string; streamed: number[] }> & { again: string };
    const sent = [...Buffer.from(JSON.stringify({ method: "GET", url: "/json?q=%C3%A9", body: "", type: null }))];
    assert.deepEqual(got.utf8, { text: Buffer.from(sent).toString(), bytes: sent, clone: sent, cloneText: Buffer.from(sent).toString(), streamed: sent });
    // a byte order mark: text() drops it, the bytes keep it
    assert.deepEqual(got.bom, { text: "hi", bytes: [0xef, 0xbb, 0xbf, 0x68, 0x69], clone: [0xef, 0xbb, 0xbf, 0x68, 0x69], cloneText: "hi", streamed: [0xef, 0xbb, 0xbf, 0x68, 0x69] });
    // not UTF-8: text() has the replacement character, the bytes are as sent
    assert.deepEqual(got.latin1, { text: "caf\uFFFD", bytes: [0x63, 0x61, 0x66, 0xe9], clone: [0x63, 0x61, 0x66, 0xe9], cloneText: "caf\uFFFD", streamed: [0x63, 0x61, 0x66, 0xe9] });
    assert.equal(got.again, "TypeError");
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
