import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createAnalyzer } from "./analyzer.ts";
import { listShippedComponents } from "./registry-files.ts";

// A short budget keeps the timeout cases quick; real components describe in milliseconds.
const analyzer = createAnalyzer({ timeoutMs: 1000 });
after(() => analyzer.close());

const rejectsWith = (code: string, message: RegExp) =>
  assert.rejects(analyzer.analyze(code), (e: { code?: string; message?: string }) => {
    assert.equal(e.code, "invalid_component");
    assert.match(e.message ?? "", message);
    return true;
  });

describe("shipped components", () => {
  const shipped = new Map(listShippedComponents().map((c) => [c.key, c.code]));

  it("are the four that docs/api.md's registry section lists", () => {
    assert.deepEqual(
      [...shipped.keys()],
      ["emit-on-subscription", "http-new-requests", "rss-new-item-in-feed", "schedule-custom-interval"],
    );
  });

  it("each describes itself with its file's key", async () => {
    for (const [key, code] of shipped) {
      const meta = await analyzer.analyze(code);
      assert.equal(meta.key, key);
      assert.equal(meta.version, "0.0.1");
      assert.equal(meta.type, "source");
      assert.ok(meta.name && meta.description, key);
      assert.equal(meta.hasRun, true, key);
    }
  });

  it("rss-new-item-in-feed: url + timer (900 s), deduped unique", async () => {
    const meta = await analyzer.analyze(shipped.get("rss-new-item-in-feed")!);
    assert.deepEqual(
      meta.props.map((p) => [p.name, p.type]),
      [["url", "string"], ["timer", "$.interface.timer"]],
    );
    assert.equal(meta.props[0].label, "Feed URL");
    assert.deepEqual(meta.props[1].default, { intervalSeconds: 900 });
    assert.equal(meta.dedupe, "unique");
    assert.deepEqual(meta.methods, ["fetchFeed"]);
  });

  it("http-new-requests, schedule-custom-interval, emit-on-subscription props", async () => {
    const http = await analyzer.analyze(shipped.get("http-new-requests")!);
    assert.deepEqual(http.props, [{ name: "http", type: "$.interface.http" }]);
    const schedule = await analyzer.analyze(shipped.get("schedule-custom-interval")!);
    assert.equal(schedule.props[0].type, "$.interface.timer");
    assert.deepEqual(schedule.props[0].default, { intervalSeconds: 60 });
    const sub = await analyzer.analyze(shipped.get("emit-on-subscription")!);
    assert.deepEqual(sub.props, []);
  });
});

describe("component forms", () => {
  it("ESM default export, with props in declaration order and shorthands expanded", async () => {
    const meta = await analyzer.analyze(`
      export default {
        key: "k", name: "N", version: "1", description: "d", dedupe: "last",
        props: {
          db: "$.service.db",
          count: { type: "integer", min: 1, max: 5, default: 2, optional: true, options: async () => [] },
          token: { type: "string", secret: true, label: "Token", extra: () => 1 },
          hook: { type: "$.interface.http", customResponse: true },
        },
        hooks: { deploy() {}, activate: async () => {}, other() {} },
        methods: { a() {}, b: 1 },
      };`);
    assert.deepEqual(meta, {
      key: "k",
      name: "N",
      version: "1",
      description: "d",
      type: "source",
      props: [
        { name: "db", type: "$.service.db" },
        // a dynamic options() is not described, only said to be there (remoteOptions: docs/api.md, "Dynamic props")
        { name: "count", type: "integer", optional: true, min: 1, max: 5, remoteOptions: true, default: 2 },
        { name: "token", type: "string", label: "Token", secret: true },
        { name: "hook", type: "$.interface.http", customResponse: true },
      ],
      dedupe: "last",
      hooks: ["deploy", "activate"],
      methods: ["a"],
      hasRun: false,
    });
  });

  it("CommonJS module.exports, with require of provided modules", async () => {
    const meta = await analyzer.analyze(`
      const { defineComponent } = require("@pipedream/platform");
      const qs = require("querystring");
      module.exports = defineComponent({ name: qs.stringify({ a: "b c" }), run() {} });`);
    assert.equal(meta.name, "a=b%20c");
    assert.equal(meta.hasRun, true);
  });

  it("defineComponent as a global and imported; Pipedream's propDefinition resolved", async () => {
    const global = await analyzer.analyze(`export default defineSource(defineComponent({ name: "g" }));`);
    assert.equal(global.name, "g");
    const imported = await analyzer.analyze(`
      import { defineComponent, DEFAULT_POLLING_SOURCE_TIMER_INTERVAL, ConfigurationError } from "@pipedream/platform";
      import { defineSource } from "@pipedream/types";
      const app = { type: "app", app: "rss", propDefinitions: { url: { type: "string", label: "URL" } } };
      export default defineSource(defineComponent({
        name: String(DEFAULT_POLLING_SOURCE_TIMER_INTERVAL) + new ConfigurationError("x").name,
        props: { rss: app, url: { propDefinition: [app, "url"], description: "mine" } },
      }));`);
    assert.equal(imported.name, "900ConfigurationError");
    assert.deepEqual(imported.props, [
      { name: "rss", type: "app", app: "rss" },
      { name: "url", type: "string", label: "URL", description: "mine" },
    ]);
  });

  it("every provided module links", async () => {
    const meta = await analyzer.analyze(`
      import axios from "axios";
      import crypto, { createHash, createHmac, randomUUID } from "crypto";
      import querystring, { parse } from "querystring";
      import { URL, URLSearchParams } from "url";
      import { XMLParser } from "fast-xml-parser";
      const client = axios.create({ baseURL: "https://example.com" });
      const parser = new XMLParser({ ignoreAttributes: false });
      export default { name: [typeof client.get, typeof crypto.createHash, typeof createHmac,
        typeof randomUUID, typeof createHash, typeof querystring.parse, parse("a=1").a,
        typeof URL, typeof URLSearchParams, typeof parser.parse].join() };`);
    assert.equal(meta.name, "function,function,function,function,function,function,1,function,function,function");
  });

  it("no require in ESM; process is the sandbox's stand-in, with an empty env while analyzed", async () => {
    const meta = await analyzer.analyze(`export default { name: typeof process + "/" + typeof require + "/" + JSON.stringify(process.env) };`);
    assert.equal(meta.name, "object/undefined/{}");
  });
});

describe("invalid components", () => {
  it("syntax error, with its line", () => rejectsWith("export default {\n  a: 1,,\n}", /syntax error.*component\.mjs:2:/));
  it("no default export", () => rejectsWith("export const x = 1;", /no default export object/));
  it("default export not an object", () => rejectsWith("export default 42;", /no default export object/));
  it("import of a module that isn't provided, named", () =>
    rejectsWith(`import leftPad from "left-pad"; export default {};`, /cannot import "left-pad": not a provided module/));
  it("node: builtins aren't provided either", () =>
    rejectsWith(`import fs from "node:fs"; export default {};`, /cannot import "node:fs"/));
  it("CommonJS require of a module that isn't provided", () =>
    rejectsWith(`const fs = require("fs"); module.exports = {};`, /cannot import "fs": not a provided module/));
  it("relative import", () => rejectsWith(`import x from "./x.mjs"; export default x;`, /relative imports need component_url/));
  it("top level that throws", () => rejectsWith(`throw new TypeError("boom");`, /TypeError: boom \(component\.mjs:1:7\)/));
  it("top-level await that never settles", () =>
    rejectsWith(`await new Promise(() => {}); export default {};`, /never settled/));
  it("bad props", () => rejectsWith(`export default { props: { a: "$.interface.nope" } };`, /prop "a"/));
});

describe("hostile components", () => {
  it("infinite loop at top level times out, and the next analyze works", async () => {
    await rejectsWith("while (true) {}", /timed out/);
    assert.equal((await analyzer.analyze(`export default { name: "next" };`)).name, "next");
  });

  it("infinite loop in a getter read while describing times out", async () => {
    await rejectsWith(`export default { get name() { for (;;); } };`, /timed out/);
  });

  it("memory bomb runs out of memory, and the next analyze works", async () => {
    // its own analyzer with time to spare: on a loaded machine (CI) the 1 s budget above can end
    // the bomb before the memory limit does, which would test the timeout instead
    const roomy = createAnalyzer({ timeoutMs: 30_000 });
    try {
      await assert.rejects(roomy.analyze("const a = []; while (true) a.push(new Array(4e6).fill(a.length));"), (e: { code?: string; message?: string }) => {
        assert.equal(e.code, "invalid_component");
        assert.match(e.message ?? "", /out of memory/);
        return true;
      });
      assert.equal((await roomy.analyze(`export default { name: "next" };`)).name, "next");
    } finally {
      await roomy.close();
    }
  });

  it("replaced builtins can't make the description malformed", async () => {
    const meta = await analyzer.analyze(`
      JSON.stringify = () => '{"ok":true,"meta":{"props":[{"name":1}],"hooks":"x","hasRun":"yes"}}';
      export default { name: "liar" };`);
    assert.deepEqual(meta, { type: "source", props: [], hooks: [], methods: [], hasRun: false });
    await rejectsWith(`JSON.stringify = () => "not json"; export default {};`, /could not be described/);
  });

  it("an error whose message getter never returns is cut off by the host deadline", async () => {
    await rejectsWith(`class E extends Error { get message() { for (;;); } }; throw new E();`, /timed out/);
    assert.equal((await analyzer.analyze(`export default { name: "next" };`)).name, "next");
  });
});
