import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readdirSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { assertErrorEnvelope, createSource, serveFiles, startApp, waitEvents, type FileServer, type TestApp } from "./helpers.ts";
import { startRegistry, type FixturePackage, type LocalRegistry } from "./fixtures/npm-registry.ts";

// Components as people write them: npm packages (installed at save from a registry, here a
// local one), Node's modules inside the sandbox, and files of their own beside component_url.

const PACKAGES: FixturePackage[] = [
  { name: "pad-it", version: "1.0.0", files: { "index.js": `module.exports = (s) => "v1:" + s;` } },
  { name: "pad-it", version: "2.0.0", files: { "index.js": `module.exports = (s) => "v2:" + s;` } },
  {
    name: "node-mix",
    version: "1.0.0",
    dependencies: { "pad-it": "^2.0.0" },
    files: {
      "index.js": `const { EventEmitter } = require("events"); const util = require("util"); const pad = require("pad-it");
        const { StringDecoder } = require("string_decoder"); const path = require("path");
        module.exports = function mix(x) {
          const e = new EventEmitter(); let out; e.on("x", (v) => { out = util.format("%s!", v); }); e.emit("x", x);
          return { out, pad: pad(x), b64: Buffer.from(x).toString("base64"), dec: new StringDecoder("utf8").write(Buffer.from("é")), joined: path.join("/a", "b") };
        };`,
    },
  },
  {
    name: "http-getter",
    version: "1.0.0",
    files: {
      "index.js": `const http = require("http");
        module.exports = (url) => new Promise((resolve, reject) => {
          http.get(url, { headers: { "x-from": "http-getter" } }, (res) => {
            let body = ""; res.setEncoding("utf8");
            res.on("data", (c) => { body += c; });
            res.on("end", () => resolve({ status: res.statusCode, body, type: res.headers["content-type"] }));
          }).on("error", reject);
        });`,
    },
  },
  { name: "native-addon", version: "1.0.0", gypfile: true, files: { "index.js": `module.exports = require("./build/Release/addon.node");`, "binding.gyp": "{}" } },
  { name: "fs-lazy", version: "1.0.0", files: { "index.js": `const fs = require("fs"); module.exports = { ok: () => "loaded", read: () => fs.readFileSync("/etc/passwd", "utf8") };` } },
  // what real packages expect of Node (the AWS SDK's config loader, Shopify's client): a missing
  // file fails as Node fails (ENOENT, a promise rejects, a callback gets it), a write outside /tmp
  // as on a read-only disk, and url has URL
  {
    name: "node-faithful",
    version: "1.0.0",
    files: {
      "index.js": `const fs = require("fs"); const fsp = require("fs/promises"); const url = require("url");
        module.exports = async () => {
          const out = {};
          out.promise = await fs.promises.readFile("/home/x/.aws/config", "utf8").then(() => "read", (e) => e.code);
          out.fsp = await fsp.stat("/nope").then(() => "found", (e) => e.code + " " + e.syscall + " " + e.path);
          out.callback = await new Promise((r) => fs.readFile("/nope", (e) => r(e && e.code)));
          out.exists = fs.existsSync("/nope");
          try { fs.writeFileSync("/srv/x", "y"); } catch (e) { out.write = e.code; }
          out.url = new url.URL("https://shop.example/admin?x=1").searchParams.get("x");
          out.parsed = url.parse("http://a.example:8080/p?q=2").port;
          out.path = url.fileURLToPath("file:///srv/app/index.js");
          // an optional dependency that isn't installed: the save works, the require fails when it runs
          try { require("source-map-not-installed"); out.optional = "found"; } catch (e) { out.optional = e.code; }
          // and one required outside any try, on a path that isn't taken (escodegen's source-map)
          const whenAsked = () => require("not-installed-either").SourceNode;
          out.lazy = typeof whenAsked;
          return out;
        };`,
    },
  },
  // shaped like got 12+ (ESM): named imports of node:url's urlToHttpOptions and of node:http2,
  // which the sandbox lacks (a stand-in that fails only when called)
  {
    name: "got-shaped",
    version: "16.0.0",
    type: "module",
    main: "index.js",
    files: {
      "index.js": `import { urlToHttpOptions } from "node:url";
        import http2 from "node:http2";
        import { connect } from "node:http2";
        export const options = (u) => ({ ...urlToHttpOptions(new URL(u)) });
        export const h2 = () => { try { connect("https://a.example"); return "connected"; } catch (e) { return e.message; } };
        import { Http2ServerResponse, constants as h2c } from "node:http2";
        export const h2type = typeof http2;
        export const isH2 = (d) => d instanceof Http2ServerResponse;
        export const h2const = typeof h2c.NGHTTP2_CANCEL;`,
    },
  },
  // shaped like Pipedream's component packages (@pipedream/helper_functions imports moment,
  // @pipedream/slack form-data): an action file imports packages its package.json doesn't declare
  {
    name: "@pipedream/undeclared_app",
    version: "0.3.0",
    type: "module",
    main: "undeclared_app.app.mjs",
    files: {
      "undeclared_app.app.mjs": `export default { type: "app", app: "undeclared_app" };`,
      "actions/pad/pad.mjs": `import pad from "pad-it";
        import { hello } from "@fixture/scoped";
        import axios from "axios";
        import { axios as platformAxios } from "@pipedream/platform";
        export default { key: "undeclared_app-pad", name: "Pad", type: "action", version: "0.0.1", props: {},
          async run() { return pad("x") + " " + hello() + " " + typeof axios.get + " " + typeof platformAxios; } };`,
    },
  },
  // the same import in any other package is that package's bug, as in Node
  { name: "undeclared-other", version: "1.0.0", type: "module", main: "index.mjs", files: { "index.mjs": `import pad from "pad-it"; export default pad;` } },
  // shaped like axios: 1.x imports TextEncoder from "util"; 0.x (and 1.x before 1.7) picks its
  // http adapter only when Object.prototype.toString.call(process) is "[object process]"
  {
    name: "axios-shaped",
    version: "1.6.8",
    type: "module",
    main: "index.mjs",
    files: {
      "index.mjs": `import { TextEncoder, TextDecoder, inherits } from "util";
        import legacy from "./legacy.cjs";
        export default () => ({ bytes: new TextEncoder().encode("hé").length, text: new TextDecoder().decode(new TextEncoder().encode("hé")),
          inherits: typeof inherits, legacy: legacy() });`,
      "legacy.cjs": `const util = require("util");
        module.exports = () => ({ isNode: Object.prototype.toString.call(process) === "[object process]", decoder: typeof util.TextDecoder,
          same: util.TextEncoder === TextEncoder, format: util.format("%s!", "x") });`,
    },
  },
  // ~1.2 MB each, incompressible enough: two of them pass a 1 MiB cache cap
  { name: "big-a", version: "1.0.0", files: { "index.js": `module.exports = "a";`, "blob.txt": noise(1_200_000, 1) } },
  { name: "big-b", version: "1.0.0", files: { "index.js": `module.exports = "b";`, "blob.txt": noise(1_200_000, 2) } },
  { name: "@fixture/scoped", version: "1.0.0", type: "module", main: "index.mjs", files: { "index.mjs": `export const hello = () => "scoped";` } },
  // CommonJS as Node runs it: sloppy unless the file says "use strict" (slackify-html assigns an
  // undeclared global; others write to frozen objects, use \`with\`, legacy octals, a plain call's this)
  {
    name: "sloppy-cjs",
    version: "1.0.0",
    files: {
      "index.js": `// no "use strict" here
        entities = require("./entities");
        function self() { return this === globalThis; }
        var frozen = Object.freeze({ a: 1 });
        frozen.a = 2;
        with (Math) { var biggest = max(1, 2); }
        module.exports = { decode: (s) => entities.decode(s), plainThis: self(), frozen: frozen.a, octal: 010, biggest,
          leaked: typeof globalThis.entities, strict: require("./strict.js")(), dirname: typeof __dirname, beside: require("./strict.js").beside };`,
      // its own Buffer, declared as a module may (shadowing the bundle's)
      "entities.js": `let Buffer = require("buffer").Buffer; exports.decode = (s) => Buffer.from(s.replace(/&amp;/g, "&")).toString();`,
      "strict.js": `/* says so */ "use strict";
        const path = require("path");
        module.exports = function () { try { undeclared = 1; return "assigned"; } catch (e) { return e.name; } };
        // a file named from __dirname (pg-format), both ways
        module.exports.beside = [require(__dirname + "/entities.js").decode("&amp;"), typeof require(path.join(__dirname, "entities.js")).decode];`,
    },
  },
];

function noise(n: number, seed: number): string {
  let x = seed;
  let out = "";
  while (out.length < n) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out += x.toString(36);
  }
  return out.slice(0, n);
}

const MAIN = `import padV1 from "pad-it@1.0.0";
import mix from "node-mix";
import get from "http-getter";
import { hello } from "@fixture/scoped";
import fsLazy from "fs-lazy";
import nodeFaithful from "node-faithful";
export default {
  props: { url: { type: "string" } },
  async run() {
    let fsErr;
    try { fsLazy.read(); } catch (e) { fsErr = e.message; }
    this.$emit({ pad: padV1("a"), mix: mix("hi"), http: await get(this.url), scoped: hello(), fs: fsLazy.ok(), fsErr, node: await nodeFaithful() });
  },
};`;

let registry: LocalRegistry;
let web: Server;
let webOrigin = "";
let t: TestApp;

before(async () => {
  registry = await startRegistry(PACKAGES);
  web = createServer((req, res) => res.writeHead(200, { "content-type": "text/plain" }).end(`hello ${req.headers["x-from"]}`));
  await new Promise<void>((r) => web.listen(0, "127.0.0.1", r));
  webOrigin = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
  t = await startApp({
    TRIBUTARY_NPM_REGISTRY: registry.url,
    TRIBUTARY_FETCH_ALLOW: `${registry.hostPort},${new URL(webOrigin).host}`,
  });
});
after(async () => {
  await t.close();
  await registry.close();
  await new Promise((r) => web.close(r));
});

async function runOnce(app: TestApp, code: string, props: Record<string, unknown> = {}) {
  const source = await createSource(app, code, { configured_props: props });
  assert.equal((await app.request("POST", `/v1/sources/${source.id}/run`)).status, 202);
  const [first] = await Promise.race([waitEvents(app, source.id, 1), waitEvents(app, source.id, 1, "$errors").then((e) => Promise.reject(new Error(JSON.stringify(e[0].event))))]);
  return first.event;
}

describe("npm packages in components", () => {
  it("a component importing packages (pinned, scoped, with dependencies, Node's modules and http) saves and runs", async () => {
    const got = await runOnce(t, MAIN, { url: `${webOrigin}/x` });
    assert.equal(got.pad, "v1:a", "the pinned version");
    assert.deepEqual(got.mix, { out: "hi!", pad: "v2:hi", b64: "aGk=", dec: "é", joined: "/a/b" }, "a dependency's own version of pad-it, events, util, Buffer, string_decoder, path");
    assert.deepEqual(got.http, { status: 200, body: "hello http-getter", type: "text/plain" });
    assert.equal(got.scoped, "scoped");
    assert.equal(got.fs, "loaded");
    assert.match(got.fsErr, /^ENOENT: no such file or directory, open '\/etc\/passwd'$/);
    assert.deepEqual(got.node, {
      promise: "ENOENT",
      fsp: "ENOENT stat /nope",
      callback: "ENOENT",
      exists: false,
      write: "EROFS",
      url: "1",
      parsed: "8080",
      path: "/srv/app/index.js",
      optional: "MODULE_NOT_FOUND",
      lazy: "function",
    });
  });

  it("packages one of Pipedream's component packages imports without declaring them are installed for it; in another package such an import fails the save", async () => {
    const got = await runOnce(t, `import pad from "@pipedream/undeclared_app/actions/pad/pad.mjs";
      export default { async run() { this.$emit(await pad.run.call(this, { $: {} })); } }`);
    assert.equal(got, "v2:x scoped function function", "pad-it's latest and @fixture/scoped, neither declared by the package; axios and @pipedream/platform the sandbox's own");
    const refused = await t.request("POST", "/v1/components", { body: { component_code: `import pad from "undeclared-other"; export default { run() { this.$emit(pad("y")); } }` } });
    assert.equal(refused.status, 422);
    assert.match(refused.body.error.message, /cannot import "pad-it" \(undeclared-other\/index\.mjs:1:16\): it is not installed/);
  });

  it("the component keeps its code; saving again uses the cache (no tarball fetched twice)", async () => {
    const res = await t.request("POST", "/v1/components", { body: { component_code: MAIN } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.code, MAIN);
    const before = registry.hits.filter((h) => h.startsWith("/tarballs/")).length;
    const other = await t.request("POST", "/v1/components", { body: { component_code: `import pad from "pad-it@1.0.0"; export default { run() { this.$emit(pad("z")); } }` } });
    assert.equal(other.status, 200, other.text);
    assert.equal(registry.hits.filter((h) => h.startsWith("/tarballs/")).length, before);
  });

  it("a package that needs a native addon is refused, naming the package and why", async () => {
    const res = await t.request("POST", "/v1/components", { body: { component_code: `import a from "native-addon"; export default { run() {} }` } });
    assertErrorEnvelope(res, 422, "invalid_component");
    assert.match(res.body.error.message, /native-addon@1\.0\.0 needs a native addon \(binding\.gyp\)/);
  });

  it("a package the registry doesn't have, or a version it doesn't have, is refused naming it", async () => {
    const missing = await t.request("POST", "/v1/components", { body: { component_code: `import x from "no-such-package"; export default { run() {} }` } });
    assertErrorEnvelope(missing, 422, "invalid_component");
    assert.match(missing.body.error.message, /no-such-package is not in the registry/);
    const version = await t.request("POST", "/v1/components", { body: { component_code: `import x from "pad-it@9.9.9"; export default { run() {} }` } });
    assertErrorEnvelope(version, 422, "invalid_component");
    assert.match(version.body.error.message, /no version of pad-it matches "9\.9\.9"/);
  });

  it("a Node module the sandbox doesn't have, imported by the component itself, is refused naming it", async () => {
    for (const mod of ["worker_threads", "node:child_process", "dgram"]) {
      const res = await t.request("POST", "/v1/components", { body: { component_code: `import x from "${mod}"; export default { run() {} }` } });
      assertErrorEnvelope(res, 422, "invalid_component");
      assert.ok(res.body.error.message.includes(`"${mod}"`), res.body.error.message);
    }
  });

  it("Node's modules and Buffer work without any package", async () => {
    const got = await runOnce(
      t,
      `import { EventEmitter } from "node:events"; import { promisify } from "util"; import { Readable } from "stream"; import zlib from "zlib";
      import { randomFillSync, timingSafeEqual } from "crypto";
      export default { async run() {
        const chunks = []; for await (const c of Readable.from(["a", "b"])) chunks.push(c);
        const z = zlib.gunzipSync(zlib.gzipSync(Buffer.from("zip"))).toString();
        const sleep = promisify((ms, cb) => setTimeout(() => cb(null, ms), ms));
        this.$emit({ ee: typeof EventEmitter, chunks, z, slept: await sleep(1), rnd: randomFillSync(new Uint8Array(8)).length,
          eq: timingSafeEqual(Buffer.from("ab"), Buffer.from("ab")), buf: Buffer.concat([Buffer.from("x"), Buffer.from("y")]).toString() });
      } }`,
    );
    assert.deepEqual(got, { ee: "function", chunks: ["a", "b"], z: "zip", slept: 1, rnd: 8, eq: true, buf: "xy" });
  });
});

describe("Node's modules, as CommonJS and by subpath", () => {
  it("a CommonJS component requiring Node's modules is bundled as CommonJS", async () => {
    const got = await runOnce(t, `const zlib = require("zlib"); const { EventEmitter } = require("events");
      module.exports = { run() { this.$emit({ gz: typeof zlib.gzipSync, ee: typeof EventEmitter, flush: zlib.constants.Z_SYNC_FLUSH }); } };`);
    assert.deepEqual(got, { gz: "function", ee: "function", flush: 2 });
  });

  it("subpaths Node has (timers/promises, assert/strict) are Node's modules, never npm packages", async () => {
    const hits = registry.hits.length;
    const got = await runOnce(t, `import { setTimeout as sleep } from "timers/promises"; import assert from "assert/strict";
      export default { async run() { const v = await sleep(1, "slept"); assert.equal(1, 1); this.$emit(v); } }`);
    assert.equal(got, "slept");
    assert.equal(registry.hits.length, hits, "nothing asked of the registry");
  });

  it("node:crypto's Hash has copy(), its Hmac none, as in Node", async () => {
    const got = await runOnce(t, `import { createHash, createHmac } from "node:crypto";
      export default { run() {
        const h = createHash("sha256").update("a");
        const twin = h.copy().update("c");
        this.$emit({ twin: twin.digest("hex"), h: h.update("b").digest("hex"), hmac: typeof createHmac("sha256", "k").copy });
      } }`);
    const hex = (s: string) => createHash("sha256").update(s).digest("hex");
    assert.deepEqual(got, { twin: hex("ac"), h: hex("ab"), hmac: "undefined" });
  });

  it("http.Agent is an EventEmitter, as Node's", async () => {
    const got = await runOnce(t, `import http from "node:http";
      export default { run() {
        const agent = new http.Agent({ keepAlive: true });
        let heard = 0;
        agent.on("free", () => heard++);
        agent.emit("free");
        this.$emit({ heard, keepAlive: agent.keepAlive });
      } }`);
    assert.deepEqual(got, { heard: 1, keepAlive: true });
  });

  it("url.urlToHttpOptions is Node's, and node:http2's names import (got 12+ imports both by name)", async () => {
    const got = await runOnce(t, `import { options, h2, h2type, isH2, h2const } from "got-shaped";
      export default { run() {
        this.$emit({ plain: options("https://a.example:8443/p/q?x=1#h"), auth: options("http://us%40r:p%3Aw@[::1]/"), h2: h2(), h2type, isH2: isH2({}), h2const });
      } }`);
    assert.deepEqual(got.plain, { protocol: "https:", hostname: "a.example", hash: "#h", search: "?x=1", pathname: "/p/q", path: "/p/q?x=1", href: "https://a.example:8443/p/q?x=1#h", port: 8443 });
    assert.deepEqual(got.auth, { protocol: "http:", hostname: "::1", hash: "", search: "", pathname: "/", path: "/", href: "http://us%40r:p%3Aw@[::1]/", auth: "us@r:p:w" });
    assert.equal(got.h2, "http2.connect is not available in the sandbox");
    assert.equal(got.h2type, "function");
    assert.equal(got.isH2, false, "instanceof a missing module's class is false, not a TypeError");
    assert.equal(got.h2const, "function", "a missing module's constants load (each a stand-in)");
  });

  it("util has Node's TextEncoder and TextDecoder, and process says it is Node's to toString (axios picks its adapter by it)", async () => {
    const got = await runOnce(t, `import check from "axios-shaped";
      export default { run() { this.$emit({ ...check(), tag: Object.prototype.toString.call(process) }); } }`);
    assert.deepEqual(got, { bytes: 3, text: "hé", inherits: "function", legacy: { isNode: true, decoder: "function", same: true, format: "x!" }, tag: "[object process]" });
  });

  it("stream/web is the sandbox's own WHATWG streams (the globals)", async () => {
    const got = await runOnce(t, `import { ReadableStream, TextDecoderStream } from "node:stream/web";
      export default { async run() {
        const text = [];
        for await (const s of ReadableStream.from([new Uint8Array([104, 105])]).pipeThrough(new TextDecoderStream())) text.push(s);
        this.$emit({ same: ReadableStream === globalThis.ReadableStream, text: text.join("") });
      } }`);
    assert.deepEqual(got, { same: true, text: "hi" });
  });
});

describe("packages' CommonJS runs as in Node", () => {
  it("a CommonJS file without \"use strict\" runs sloppy (undeclared globals, with, octals); one that says it, and the component, stay strict; require(__dirname + file) works", async () => {
    const code = `import sloppy from "sloppy-cjs";
      export default { run() {
        let mine;
        try { componentGlobal = 1; mine = "assigned"; } catch (e) { mine = e.name; }
        this.$emit({ ...sloppy, decoded: sloppy.decode("a &amp; b"), mine });
      } };`;
    const event = await runOnce(t, code);
    assert.deepEqual(event, {
      plainThis: true, frozen: 1, octal: 8, biggest: 2, leaked: "object", strict: "ReferenceError", dirname: "string", beside: ["&", "function"],
      decoded: "a & b", mine: "ReferenceError",
    });
  });
});

describe("files beside component_url", () => {
  let files: FileServer;
  before(async () => {
    files = await serveFiles({
      "/c/main.mjs": `import { double } from "./lib/math.mjs"; export default { run() { this.$emit(double(21)); } }`,
      "/c/lib/math.mjs": `import { one } from "../one.mjs"; export const double = (x) => x * 2 * one;`,
      "/c/one.mjs": `export const one = 1;`,
    });
  });
  after(() => files.close());

  it("relative imports resolve against component_url, each file fetched under the guard", async () => {
    const app = await startApp({ TRIBUTARY_FETCH_ALLOW: files.hostPort });
    try {
      const res = await app.request("POST", "/v1/sources/", { body: { component_url: `${files.origin}/c/main.mjs` } });
      assert.equal(res.status, 200, res.text);
      assert.equal((await app.request("POST", `/v1/sources/${res.body.data.id}/run`)).status, 202);
      const [e] = await waitEvents(app, res.body.data.id, 1);
      assert.equal(e.event, 42);
      assert.deepEqual([...new Set(files.hits)].sort(), ["/c/lib/math.mjs", "/c/main.mjs", "/c/one.mjs"]);
    } finally {
      await app.close();
    }
  });

  it("without component_url a relative import is refused, naming it", async () => {
    const res = await t.request("POST", "/v1/components", { body: { component_code: `import x from "./x.mjs"; export default { run() {} }` } });
    assertErrorEnvelope(res, 422, "invalid_component");
    assert.match(res.body.error.message, /"\.\/x\.mjs": relative imports need component_url/);
  });
});

describe("settings", () => {
  it("TRIBUTARY_NPM=off: packages are refused, saying why; Node's modules still work", async () => {
    const app = await startApp({ TRIBUTARY_NPM: "off", TRIBUTARY_NPM_REGISTRY: registry.url, TRIBUTARY_FETCH_ALLOW: registry.hostPort });
    try {
      const hits = registry.hits.length;
      const res = await app.request("POST", "/v1/components", { body: { component_code: `import pad from "pad-it"; export default { run() {} }` } });
      assertErrorEnvelope(res, 422, "invalid_component");
      assert.match(res.body.error.message, /TRIBUTARY_NPM=off/);
      assert.equal(registry.hits.length, hits, "nothing asked of the registry");
      const got = await runOnce(app, `import { EventEmitter } from "events"; export default { run() { this.$emit(typeof EventEmitter); } }`);
      assert.equal(got, "function");
    } finally {
      await app.close();
    }
  });

  it("TRIBUTARY_NPM_CACHE_MB caps the package cache: the least recently used versions go, saved components still run", async () => {
    const app = await startApp({ TRIBUTARY_NPM_CACHE_MB: "1", TRIBUTARY_NPM_REGISTRY: registry.url, TRIBUTARY_FETCH_ALLOW: registry.hostPort });
    try {
      const cached = () => readdirSync(join(app.dataDir, "npm", "files")).filter((n) => !n.endsWith(".size"));
      const a = await createSource(app, `import a from "big-a"; export default { run() { this.$emit(a); } }`);
      assert.deepEqual(cached(), ["big-a@1.0.0"]);
      await createSource(app, `import b from "big-b"; export default { run() { this.$emit(b); } }`);
      assert.deepEqual(cached(), ["big-b@1.0.0"], "big-a was pruned to keep the cache under its cap");
      // the component saved with big-a keeps its bundle: it runs without the cache
      assert.equal((await app.request("POST", `/v1/sources/${a.id}/run`)).status, 202);
      assert.equal((await waitEvents(app, a.id, 1))[0].event, "a");
      // a new save that needs it fetches it again
      const fetched = registry.hits.filter((h) => h.includes("big-a")).length;
      await createSource(app, `import a from "big-a"; export default { run() { this.$emit(a + "!"); } }`);
      assert.ok(registry.hits.filter((h) => h.includes("big-a")).length > fetched);
    } finally {
      await app.close();
    }
  });

  it("TRIBUTARY_NPM_ALLOW limits the packages a component may import", async () => {
    const app = await startApp({ TRIBUTARY_NPM_ALLOW: "pad-it,@fixture/*", TRIBUTARY_NPM_REGISTRY: registry.url, TRIBUTARY_FETCH_ALLOW: registry.hostPort });
    try {
      const refused = await app.request("POST", "/v1/components", { body: { component_code: `import m from "node-mix"; export default { run() {} }` } });
      assertErrorEnvelope(refused, 422, "invalid_component");
      assert.match(refused.body.error.message, /node-mix is not among the packages this server allows/);
      const ok = await app.request("POST", "/v1/components", { body: { component_code: `import { hello } from "@fixture/scoped"; import p from "pad-it"; export default { run() {} }` } });
      assert.equal(ok.status, 200, ok.text);
    } finally {
      await app.close();
    }
  });
});
