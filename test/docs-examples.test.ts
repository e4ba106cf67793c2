import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import {
  assertErrorEnvelope, endpointPath, eventsOf, serveFiles, startApp, waitEvents, waitFor, type FileServer, type TestApp,
} from "./helpers.ts";
import { startRegistry, type FixturePackage, type LocalRegistry } from "./fixtures/npm-registry.ts";

// docs/writing-components.md says what components can do: every ```js block of it that is a
// component (has `export default` or `module.exports`) is saved here as it is written, and must
// save (200), or be refused (422) when its fence says `fails`. A block whose fence says
// `file=<path>` is served at that path, and saved from its URL (component_url), so its relative
// imports resolve. Most examples are also deployed and run, to check that they do what the page
// says. npm packages come from a local registry of small stand-ins named like the ones the page
// imports, never from the public registry.

const ROOT = join(import.meta.dirname, "..");
const PAGE = readFileSync(join(ROOT, "docs", "writing-components.md"), "utf8");

interface Block {
  lang: string;
  /** words of the fence's info string after the language */
  flags: string[];
  file?: string;
  code: string;
  /** 1-based line of the opening fence */
  line: number;
}

function fencedBlocks(md: string): Block[] {
  const lines = md.split("\n");
  const out: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)[ \t]*(.*)$/.exec(lines[i]);
    if (!open) continue;
    const line = i + 1;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]); i++) body.push(lines[i]);
    const flags = open[2].split(/\s+/).filter(Boolean);
    const file = flags.find((f) => f.startsWith("file="))?.slice("file=".length);
    out.push({ lang: open[1], flags, file, code: body.join("\n") + "\n", line });
  }
  return out;
}

const BLOCKS = fencedBlocks(PAGE);
const COMPONENTS = BLOCKS.filter((b) => b.lang === "js" && /\bexport default\b|\bmodule\.exports\b/.test(b.code));
const keyOf = (b: Block) => /\bkey:\s*"([^"]+)"/.exec(b.code)?.[1];
const fails = (b: Block) => b.flags.includes("fails");
const label = (b: Block) => `${keyOf(b) ?? "(no key)"} at line ${b.line}${b.file ? ` (${b.file})` : ""}`;

/** The component block with this key; the tests below run what the page shows. */
function example(key: string): Block {
  const found = COMPONENTS.filter((b) => keyOf(b) === key);
  assert.equal(found.length, 1, `the page should have one example with key "${key}"`);
  return found[0];
}

// Stand-ins for the packages the page imports: same names, the API the examples use.
const PACKAGES: FixturePackage[] = [
  {
    name: "uuid",
    version: "9.0.1",
    files: {
      "index.js": `exports.v4 = function v4() {
        const b = crypto.getRandomValues(new Uint8Array(16));
        b[6] = (b[6] & 0x0f) | 0x40; b[8] = (b[8] & 0x3f) | 0x80;
        const h = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
        return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
      };`,
    },
  },
  {
    name: "lodash",
    version: "4.17.21",
    files: {
      "index.js": `function chunk(array, size) { const out = []; for (let i = 0; i < array.length; i += size) out.push(array.slice(i, i + size)); return out; }
        module.exports = { chunk, VERSION: "4.17.21" };`,
    },
  },
  { name: "lodash", version: "3.10.1", files: { "index.js": `module.exports = { chunk: () => { throw new Error("not the pinned version"); } };` } },
  {
    name: "@sindresorhus/slugify",
    version: "2.2.1",
    type: "module",
    main: "index.js",
    files: { "index.js": `export default function slugify(s) { return String(s).toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, ""); }` },
  },
  { name: "bcrypt", version: "5.1.1", gypfile: true, files: { "index.js": `module.exports = require("./build/Release/bcrypt_lib.node");`, "binding.gyp": "{}" } },
];

/** A stand-in for the APIs the examples call (GitHub, a JSON feed, an echo), on 127.0.0.1. */
interface Api {
  origin: string;
  hostPort: string;
  feed: Array<{ id: number; title: string; published: string }>;
  seen: Array<{ path: string; query: Record<string, string>; authorization?: string }>;
  close(): Promise<void>;
}

async function startApi(): Promise<Api> {
  const api = { feed: [] as Api["feed"], seen: [] as Api["seen"] };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const query = Object.fromEntries(url.searchParams);
      api.seen.push({ path: url.pathname, query, authorization: req.headers.authorization });
      const json = (status: number, value: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
      if (url.pathname === "/repos/octo/hello") {
        if (req.headers.authorization !== "Bearer gho_docs") return json(401, { message: "Bad credentials" });
        return json(200, { full_name: "octo/hello", stargazers_count: 42 });
      }
      if (url.pathname === "/feed") return json(200, { items: api.feed });
      if (url.pathname === "/echo") return json(200, { method: req.method, query, body: body ? JSON.parse(body) : null, trace: req.headers["x-trace"] ?? null });
      if (url.pathname === "/status") return void res.writeHead(200, { "content-type": "text/plain" }).end("all good");
      json(404, { message: "Not Found" });
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    ...api,
    origin: `http://127.0.0.1:${port}`,
    hostPort: `127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

let registry: LocalRegistry;
let files: FileServer;
let api: Api;
let t: TestApp;

before(async () => {
  registry = await startRegistry(PACKAGES);
  files = await serveFiles(Object.fromEntries(BLOCKS.filter((b) => b.file).map((b) => [`/${b.file}`, b.code])));
  api = await startApi();
  t = await startApp({
    TRIBUTARY_NPM_REGISTRY: registry.url,
    TRIBUTARY_FETCH_ALLOW: [registry.hostPort, files.hostPort, api.hostPort].join(","),
  });
});
after(async () => {
  await t?.close();
  await Promise.all([registry?.close(), files?.close(), api?.close()]);
});

/** The fields POST /v1/components and /v1/sources take for a block: its code, or its URL. */
const codeOf = (b: Block) => (b.file ? { component_url: `${files.origin}/${b.file}` } : { component_code: b.code });

/** A source from the example with this key, configured with `props`. */
async function deploy(key: string, props: Record<string, unknown> = {}) {
  const res = await t.request("POST", "/v1/sources/", { body: { ...codeOf(example(key)), configured_props: props } });
  assert.equal(res.status, 200, `deploying ${key}: ${res.text}`);
  return res.body.data as { id: string; configured_props: Record<string, any> };
}

/** Whether the page says `text` (line breaks and runs of spaces count as one space). */
const pageSays = (text: string) => PAGE.replace(/\s+/g, " ").includes(text);

async function run(sourceId: string, body?: unknown) {
  const res = await t.request("POST", `/v1/sources/${sourceId}/run`, body === undefined ? {} : { body });
  assert.equal(res.status, 202, res.text);
}

/** Waits for n events on the stream; fails at once, with the error, if the run failed instead. */
async function events(sourceId: string, n: number, stream = ""): Promise<any[]> {
  return waitFor(async () => {
    const errors = stream === "$errors" ? [] : await eventsOf(t, sourceId, "$errors");
    if (errors.length > 0) throw new Error(`the source failed: ${JSON.stringify(errors[0].event)}`);
    const got = await eventsOf(t, sourceId, stream);
    return got.length >= n ? got : undefined;
  }, 15_000, `${n} events on "${stream}" of ${sourceId}`);
}

/** A request to a source's endpoint, as a client on the internet would make it. */
function call(source: { configured_props: Record<string, any> }, method: string, subpath = "", opts: { raw?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  return t.request(method, endpointPath(source) + subpath, { key: null, ...opts });
}

describe("docs/writing-components.md: the page", () => {
  it("has the examples this test runs, each a component with a key of its own", () => {
    assert.ok(COMPONENTS.length >= 20, `found ${COMPONENTS.length} component examples`);
    const keys = COMPONENTS.map(keyOf);
    assert.ok(keys.every(Boolean), `every example has a key: ${COMPONENTS.filter((b) => !keyOf(b)).map(label).join(", ")}`);
    assert.equal(new Set(keys).size, keys.length, "keys are unique");
    assert.ok(COMPONENTS.some(fails), "some examples are meant to fail");
  });

  it("links only inside the repository: to its own headings or to files that exist", () => {
    const slug = (h: string) => h.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
    const headings = new Set([...PAGE.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1])));
    // code blocks hold no links
    const prose = PAGE.replace(/^```[\s\S]*?^```$/gm, "");
    const targets = [...prose.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]);
    assert.ok(targets.length > 0);
    for (const target of targets) {
      assert.ok(!/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith("//"), `${target} points outside the repository`);
      if (target.startsWith("#")) assert.ok(headings.has(target.slice(1)), `no heading for ${target}`);
      else assert.ok(existsSync(join(ROOT, "docs", target.split("#")[0])), `${target} is not a file of the repository`);
    }
  });

  it("is linked from the README", () => {
    assert.ok(readFileSync(join(ROOT, "README.md"), "utf8").includes("](docs/writing-components.md)"), "README.md links docs/writing-components.md");
  });
});

describe("docs/writing-components.md: every component example saves (or is refused when marked fails)", () => {
  for (const b of COMPONENTS) {
    it(`${fails(b) ? "refuses" : "saves"} ${label(b)}`, async () => {
      const res = await t.request("POST", "/v1/components", { body: codeOf(b) });
      if (fails(b)) {
        assertErrorEnvelope(res, 422, "invalid_component");
      } else {
        assert.equal(res.status, 200, `${label(b)}: ${res.text}`);
        const key = keyOf(b);
        if (key) assert.equal((await t.request("GET", `/v1/components/${key}`)).body?.data?.id, res.body.data.id);
      }
    });
  }
});

describe("docs/writing-components.md: the examples do what the page says", () => {
  it("props: every problem is one 400 detail; defaults fill in; a secret is masked but the run sees it", async () => {
    const bad = await t.request("POST", "/v1/sources/", {
      body: { ...codeOf(example("docs-props")), configured_props: { limit: 101, sort: "random", ids: [1.5], nope: 1, apiKey: "k" } },
    });
    assertErrorEnvelope(bad, 400, "invalid_request");
    assert.deepEqual(
      bad.body.error.details.map((d: any) => `${d.field}: ${d.message}`).sort(),
      [
        "configured_props.ids: must be an array of integers",
        "configured_props.limit: must be <= 100",
        "configured_props.nope: is not a prop of this component",
        "configured_props.query: is required",
        'configured_props.sort: must be one of ["desc","asc"]',
      ],
    );
    const src = await deploy("docs-props", { query: "tributary", ids: [1, 2], apiKey: "s3cret" });
    assert.deepEqual(src.configured_props, { query: "tributary", ids: [1, 2], apiKey: "********" });
    await run(src.id);
    const [e] = await events(src.id, 1);
    assert.deepEqual(e.event, { query: "tributary", limit: 10, tags: [], ids: [1, 2], sort: "desc", hasKey: true });
  });

  it("an app prop with a connected account: the run's requests carry its $auth", async () => {
    const account = await t.request("POST", "/v1/accounts", { body: { app: "github", auth: { oauth_access_token: "gho_docs" } } });
    assert.equal(account.status, 200, account.text);
    const src = await deploy("docs-app", { github: { authProvisionId: account.body.data.id }, repo: "octo/hello", apiUrl: api.origin });
    assert.deepEqual(src.configured_props.github, { authProvisionId: account.body.data.id });
    await run(src.id);
    const [e] = await events(src.id, 1);
    assert.deepEqual(e.event, { repo: "octo/hello", stars: 42 });
    assert.equal(e.metadata.summary, "octo/hello: 42 stars");
    assert.equal(api.seen.find((s) => s.path === "/repos/octo/hello")?.authorization, "Bearer gho_docs");
  });

  it("a timer source: configured as intervalSeconds, shown as interval_seconds; /run gets a timer event", async () => {
    const src = await deploy("docs-timer", { timer: { intervalSeconds: 30 } });
    assert.deepEqual(src.configured_props.timer, { cron: null, interval_seconds: 30 });
    await run(src.id);
    const [e] = await events(src.id, 1);
    assert.equal(e.event.every, 30);
    assert.ok(Math.abs(e.event.at - Date.now() / 1000) < 60, `timestamp in epoch seconds: ${e.event.at}`);

    const cron = await deploy("docs-timer", { timer: { cron: "*/5 * * * *" } });
    assert.deepEqual(cron.configured_props.timer, { cron: "*/5 * * * *", interval_seconds: null });
    await run(cron.id);
    assert.equal((await events(cron.id, 1))[0].event.every, "*/5 * * * *");
  });

  it("an HTTP source: 200 {success: true}, then run gets the request; the summary names it", async () => {
    const src = await deploy("docs-http");
    const res = await call(src, "POST", "/orders?verbose=1", { body: { id: 7 } });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { success: true });
    const [e] = await events(src.id, 1);
    assert.deepEqual(e.event, { id: 7 });
    assert.equal(e.metadata.summary, "POST /orders");
  });

  it("customResponse: the client gets what run passed to respond(); a form body arrives parsed", async () => {
    const src = await deploy("docs-slash-command");
    const refused = await call(src, "GET");
    assert.equal(refused.status, 405);
    assert.equal(refused.headers.allow, "POST");
    assert.equal(refused.text, "POST only");
    assert.match(String(refused.headers["content-type"]), /^text\/plain/);

    const ok = await call(src, "POST", "", {
      raw: "command=%2Fdeploy&text=ship+it&user_name=ada",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    assert.equal(ok.status, 200);
    assert.equal(ok.headers["x-handled-by"], "tributary");
    assert.deepEqual(ok.body, { response_type: "ephemeral", text: "Got it: ship it" });
    const [e] = await events(src.id, 1);
    assert.deepEqual(e.event, { command: "/deploy", text: "ship it", user_name: "ada" });
    assert.equal(e.metadata.summary, "ada: ship it");
  });

  it("db: a counter kept across runs, its value as the emit's id", async () => {
    const src = await deploy("docs-counter");
    await run(src.id);
    await events(src.id, 1);
    await run(src.id);
    const got = await events(src.id, 2);
    assert.deepEqual(got.map((e) => e.event), [{ count: 2 }, { count: 1 }]);
    assert.deepEqual(got.map((e) => e.metadata.id), [2, 1]);
  });

  it("hooks: deploy and activate on create (with the endpoint), deactivate on disable, activate on enable", async () => {
    const src = await deploy("docs-hooks");
    const hooks = async () => (await eventsOf(t, src.id)).filter((e) => e.event.hook).map((e) => e.event.hook).reverse();
    assert.deepEqual(await hooks(), ["deploy", "activate"]);
    const activate = (await eventsOf(t, src.id)).find((e) => e.event.hook === "activate");
    assert.equal(activate.event.endpoint, src.configured_props.http.endpoint_url);

    assert.equal((await call(src, "POST", "", { body: { hello: 1 } })).status, 200);
    const ran = await waitFor(async () => (await eventsOf(t, src.id)).find((e) => e.event.body), 15_000, "a run");
    assert.deepEqual(ran.event, { body: { hello: 1 }, registered: src.configured_props.http.endpoint_url });

    assert.equal((await t.request("PUT", `/v1/sources/${src.id}`, { body: { active: false } })).status, 200);
    assert.equal((await t.request("PUT", `/v1/sources/${src.id}`, { body: { active: true } })).status, 200);
    assert.deepEqual(await hooks(), ["deploy", "activate", "deactivate", "activate"]);
  });

  it("a hook that throws ConfigurationError: 422 hook_failed with its message, and no source", async () => {
    const before = (await t.request("GET", "/v1/users/me/sources/?limit=1")).body.page_info.total_count;
    const res = await t.request("POST", "/v1/sources/", { body: { ...codeOf(example("docs-config-check")), configured_props: { channel: "general" } } });
    assertErrorEnvelope(res, 422, "hook_failed");
    assert.equal(res.body.error.message, 'the deploy hook failed: ConfigurationError: "general" is not a channel: it must start with #');
    assert.equal((await t.request("GET", "/v1/users/me/sources/?limit=1")).body.page_info.total_count, before);
    await deploy("docs-config-check", { channel: "#general" });
  });

  it("streams: default and big-orders; a throw lands on $errors with nothing emitted; console on $logs; a listener gets the payload", async () => {
    const orders = await deploy("docs-streams");
    const listener = await deploy("docs-listener");
    const sub = await t.request("POST", `/v1/subscriptions?emitter_id=${orders.id}&listener_id=${listener.id}&event_name=big-orders`);
    assert.equal(sub.status, 200, sub.text);

    assert.equal((await call(orders, "POST", "", { body: { id: 7, total: 1500, customer: "ada" } })).status, 200);
    assert.equal((await call(orders, "POST", "", { body: { id: 8, total: 5 } })).status, 200);
    const [err] = await waitEvents(t, orders.id, 1, "$errors", 15_000);
    assert.equal(err.event.error.name, "Error");
    assert.equal(err.event.error.message, "order 8 has no customer");
    assert.equal(err.event.invocation.kind, "run");
    assert.equal(typeof err.event.invocation.started_at, "number");

    // runs of one source commit in order: the failed one is after the good one
    assert.deepEqual((await eventsOf(t, orders.id)).map((e) => [e.event.id, e.metadata.id, e.metadata.summary]), [[7, 7, "order 7"]]);
    assert.deepEqual((await eventsOf(t, orders.id, "default")).map((e) => e.event.id), [7]);
    assert.deepEqual((await eventsOf(t, orders.id, "big-orders")).map((e) => [e.event.id, e.metadata.name]), [[7, "big-orders"]]);
    const logs = (await eventsOf(t, orders.id, "$logs")).flatMap((e) => e.event.lines.map((l: any) => `${l.level} ${l.msg}`)).sort();
    assert.deepEqual(logs, ["log order 7 total 1500", "log order 8 total 5"]);

    const [message] = await waitEvents(t, listener.id, 1, "", 15_000);
    assert.deepEqual(message.event, { text: "Order 7: 1500 from ada" });
  });

  it("polling with @pipedream/platform axios and dedupe unique: each item once, in ts order", async () => {
    api.feed.push({ id: 2, title: "second", published: "2026-01-02T00:00:00Z" }, { id: 1, title: "first", published: "2026-01-01T00:00:00Z" });
    const src = await deploy("docs-poll", { url: `${api.origin}/feed` });
    assert.deepEqual(src.configured_props.timer, { cron: null, interval_seconds: 900 });
    await run(src.id);
    await events(src.id, 2);
    await run(src.id);
    api.feed.unshift({ id: 3, title: "third", published: "2026-01-03T00:00:00Z" });
    await run(src.id);
    // /run only accepts the runs: the second may run after the third item appeared, so wait for
    // all three to have read the feed
    await waitFor(async () => api.seen.filter((s) => s.path === "/feed").length >= 3, 15_000, "three reads of the feed");
    const got = await events(src.id, 3);
    assert.deepEqual(got.map((e) => [e.event.id, e.metadata.id, e.metadata.summary, e.metadata.ts]), [
      [3, 3, "third", Date.parse("2026-01-03T00:00:00Z")],
      [2, 2, "second", Date.parse("2026-01-02T00:00:00Z")],
      [1, 1, "first", Date.parse("2026-01-01T00:00:00Z")],
    ]);
    assert.equal(api.seen.filter((s) => s.path === "/feed").length, 3);
    assert.ok(api.seen.filter((s) => s.path === "/feed").every((s) => s.query.limit === "50"));
  });

  it("fetch, axios and axios.post reach the same API", async () => {
    const src = await deploy("docs-requests", { url: `${api.origin}/echo` });
    await run(src.id);
    const [e] = await events(src.id, 1);
    assert.deepEqual(e.event, {
      viaFetch: { method: "GET", query: {}, body: null, trace: null },
      viaAxios: { method: "GET", query: { page: "2" }, body: null, trace: null },
      status: 200,
      posted: { method: "POST", query: {}, body: { hello: "world" }, trace: "docs" },
    });
  });

  it("crypto and fast-xml-parser: a signed XML order is emitted, a badly signed one fails onto $errors", async () => {
    const src = await deploy("docs-signed-xml", { secret: "whsec_docs" });
    const xml = `<?xml version="1.0"?><order id="A-17"><item>book</item><total>12.5</total></order>`;
    const sign = (body: string) => createHmac("sha256", "whsec_docs").update(body).digest("hex");
    const ok = await call(src, "POST", "", { raw: xml, headers: { "content-type": "application/xml", "x-signature": sign(xml) } });
    assert.equal(ok.status, 200);
    const [e] = await events(src.id, 1);
    assert.deepEqual(e.event, { item: "book", total: 12.5, "@_id": "A-17" });
    assert.equal(e.metadata.id, "A-17");

    await call(src, "POST", "", { raw: xml, headers: { "content-type": "application/xml", "x-signature": sign(xml + " ") } });
    const [err] = await waitEvents(t, src.id, 1, "$errors", 15_000);
    assert.equal(err.event.error.message, "bad signature");
  });

  it("npm packages (plain, pinned, scoped) are installed at save from the registry and run", async () => {
    const src = await deploy("docs-npm");
    assert.ok(registry.hits.some((h) => h.startsWith("/tarballs/lodash-4.17.21")), "the pinned lodash was installed");
    assert.ok(!registry.hits.some((h) => h.startsWith("/tarballs/lodash-3.10.1")), "not another version");
    assert.equal(
      (await call(src, "POST", "", { body: [{ title: "Hello World" }, { title: "Second post" }, { title: "Third" }] })).status,
      200,
    );
    const got = await events(src.id, 2);
    assert.deepEqual(got.map((e) => e.event).reverse(), [
      { batch: [{ title: "Hello World" }, { title: "Second post" }], slug: "hello-world" },
      { batch: [{ title: "Third" }], slug: "third" },
    ]);
    for (const e of got) assert.match(String(e.metadata.id), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("a package that needs a native addon is refused, as the page says", async () => {
    const res = await t.request("POST", "/v1/components", { body: codeOf(example("docs-native")) });
    assertErrorEnvelope(res, 422, "invalid_component");
    assert.equal(res.body.error.message, "bcrypt@5.1.1 needs a native addon (binding.gyp), which the sandbox can't load");
    assert.ok(pageSays(res.body.error.message), "the page quotes the message");
  });

  it("Node's modules: events, zlib, crypto, timers/promises, path, util", async () => {
    const src = await deploy("docs-node");
    await run(src.id);
    const [e] = await events(src.id, 1);
    assert.deepEqual(e.event, {
      heard: "pong",
      unpacked: true,
      smaller: true,
      token: 32,
      digest: "qZk+NkcGgWq6PiVxeFDCbJzQ2J0=",
      same: true,
      file: "/reports/q1.csv",
      line: "cart has 3 items",
    });
  });

  it("Node's http client goes through the guarded fetch", async () => {
    const src = await deploy("docs-node-http", { url: `${api.origin}/status` });
    await run(src.id);
    const [e] = await events(src.id, 1);
    assert.deepEqual(e.event, { status: 200, type: "text/plain", length: "all good".length });
  });

  it("a component that imports node:child_process is refused with the page's message", async () => {
    const res = await t.request("POST", "/v1/components", { body: codeOf(example("docs-child-process")) });
    assertErrorEnvelope(res, 422, "invalid_component");
    assert.equal(res.body.error.message, `cannot import "node:child_process": Node's child_process module is not available in the sandbox`);
    assert.ok(pageSays(res.body.error.message), "the page quotes the message");
  });

  it("/tmp: a file written and read back, a download streamed into /tmp and read back as a stream", async () => {
    const src = await deploy("docs-tmp", { url: `${api.origin}/status` });
    await run(src.id);
    const [e] = await events(src.id, 1);
    assert.deepEqual(e.event, { data: { saved: true }, bytes: "all good".length, size: "all good".length, files: ["data.json", "file"] });
  });

  it("several files: relative imports resolve against component_url", async () => {
    const src = await deploy("docs-files");
    assert.equal((await call(src, "POST", "", { body: { id: 3, total: 12.5 } })).status, 200);
    const [e] = await events(src.id, 1);
    assert.deepEqual(e.event, { id: 3, text: "Order 3: 12.50 EUR" });
    // saved as code (by someone who hasn't saved it from its URL already), the same module is refused
    const other = await t.newUser();
    const res = await t.request("POST", "/v1/components", { key: other.key, body: { component_code: example("docs-files").code } });
    assertErrorEnvelope(res, 422, "invalid_component");
    assert.match(res.body.error.message, /cannot import "\.\/lib\/orders\.mjs": relative imports need component_url/);
  });

  it("an apphook prop needs no value; the source deploys and runs", async () => {
    const src = await deploy("docs-apphook");
    assert.deepEqual(src.configured_props, {});
    await run(src.id, { event: { ping: 1 } });
    assert.deepEqual((await events(src.id, 1))[0].event, { ping: 1 });
  });
});
