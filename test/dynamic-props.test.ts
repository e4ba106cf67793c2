import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { assertErrorEnvelope, detailFields, startApp, waitEvents, type Reply, type TestApp } from "./helpers.ts";

// Dynamic props (docs/writing-components.md, "Dynamic props"), black-box through the API with real runners: a prop's
// options() run in the sandbox with the props configured so far (an app prop with its account's
// $auth), and additionalProps() for components with reloadProps props, whose union is what a
// source's configured_props are checked against.

const PD = join(import.meta.dirname, "fixtures", "components", "pd-repos");
const TOKEN = `tok-${Math.random().toString(36).slice(2)}`;
const REPOS = Array.from({ length: 7 }, (_, i) => ({ id: 100 + i, full_name: `ada/repo-${i}` }));

/** The API options() calls (a token it checks) and the Pipedream-shaped component's files. */
function fixtureServer(): Promise<{ server: Server; origin: string; hostPort: string; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    seen.push(`${url.pathname}${url.search}`);
    if (url.pathname.startsWith("/files/")) {
      const name = url.pathname.slice("/files/".length);
      if (!/^[a-z-]+\.(app\.)?mjs$/.test(name)) return void res.writeHead(404).end();
      return void res.writeHead(200, { "content-type": "application/javascript" }).end(readFileSync(join(PD, name)));
    }
    if (url.pathname === "/repos") {
      if (req.headers.authorization !== `Bearer ${TOKEN}`) return void res.writeHead(401, { "content-type": "application/json" }).end('{"message":"bad token"}');
      const page = Number(url.searchParams.get("page") ?? "1");
      const q = url.searchParams.get("q") ?? "";
      const owner = url.searchParams.get("owner") ?? "";
      const hits = REPOS.filter((r) => r.full_name.includes(q) && r.full_name.startsWith(owner));
      return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(hits.slice((page - 1) * 5, page * 5)));
    }
    res.writeHead(404).end();
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, origin: `http://127.0.0.1:${port}`, hostPort: `127.0.0.1:${port}`, seen });
    }),
  );
}

const OPTIONS_COMPONENT = `
const demo = {
  type: "app",
  app: "demo",
  propDefinitions: {
    item: {
      type: "string",
      label: "Item",
      async options({ page, prefix }) { return [prefix + "-" + page, { label: "Fixed", value: 7 }]; },
    },
  },
  methods: { hello() { return "hi " + this.$auth.name; } },
};
export default {
  key: "dyn-options",
  name: "Dynamic options",
  version: "0.1.0",
  props: {
    demo,
    fixed: { type: "string", options: ["red", { label: "Blue", value: "blue" }] },
    plain: { type: "string", async options() { return ["a", "b", { label: "C", value: { n: 3 } }]; } },
    kind: { type: "string", optional: true },
    item: { propDefinition: [demo, "item", (c) => ({ prefix: c.kind ?? "none" })] },
    paged: {
      type: "string",
      async options({ prevContext }) {
        const at = prevContext.next ?? 0;
        const options = [at, at + 1].map((n) => ({ label: "Item " + n, value: n }));
        return at >= 4 ? { options } : { options, context: { next: at + 2 } };
      },
    },
    search: {
      type: "string",
      useQuery: true,
      async options({ query }) { return ["apple", "banana", "cherry"].filter((f) => f.includes(query ?? "")); },
    },
    whoami: {
      type: "string",
      async options() { return [this.demo.$auth.name ?? "nobody", this.demo.hello(), this.shout("x")]; },
    },
    remote: {
      type: "string",
      async options() {
        const res = await fetch(this.demo.$auth.base_url + "/repos", { headers: { authorization: "Bearer " + this.demo.$auth.token } });
        if (!res.ok) throw new Error("the API said " + res.status);
        return (await res.json()).map((r) => ({ label: r.full_name, value: r.id }));
      },
    },
    broken: { type: "string", async options() { throw new Error("no access to the list"); } },
    slow: { type: "string", async options() { await new Promise((r) => setTimeout(r, 60000)); return []; } },
    odd: { type: "string", async options() { return [{ nolabel: true }]; } },
    bare: { type: "string" },
  },
  methods: { shout(s) { return s.toUpperCase() + "!"; } },
  async run() {},
};`;

const RELOAD_COMPONENT = `
export default {
  key: "dyn-reload",
  name: "Reloading props",
  version: "0.1.0",
  props: {
    mode: { type: "string", label: "Mode", reloadProps: true, options: ["simple", "advanced"] },
    timer: { type: "$.interface.timer", default: { intervalSeconds: 600 } },
  },
  async additionalProps(previous) {
    if (this.mode !== "advanced") return {};
    return {
      depth: { type: "integer", label: "Depth", min: 1, max: 9 },
      level: { type: "string", label: "Level", optional: true, async options() { return ["low", "high"]; } },
      mode: { type: "integer", label: "never replaces the static mode" },
      token: { type: "string", label: "Token", secret: true, optional: true },
      note: { type: "string", label: "Note", optional: true },
      acct: { type: "app", app: "github", optional: true },
      store: { type: "data_store", optional: true },
    };
  },
  async run() {
    if (this.store) await this.store.set("k", "v");
    this.$emit({
      mode: this.mode, depth: this.depth, level: this.level, token: this.token, note: this.note,
      acct: this.acct?.$auth?.oauth_access_token, store: this.store ? await this.store.get("k") : undefined,
    });
  },
};`;

describe("dynamic props", () => {
  let t: TestApp;
  let fx: Awaited<ReturnType<typeof fixtureServer>>;
  let ada: { id: string; key: string };
  let bob: { id: string; key: string };
  let optionsId: string;
  let reloadId: string;
  let adaAccount: string;
  let bobAccount: string;

  const call = (method: string, url: string, user: { key: string }, body?: unknown): Promise<Reply> => t.request(method, url, { key: user.key, body });
  const options = (prop: string, body: unknown = {}, user = ada, id = optionsId) =>
    call("POST", `/v1/components/${id}/props/${encodeURIComponent(prop)}/options`, user, body);
  const labels = (r: Reply) => r.body.data.options.map((o: { label: string }) => o.label);

  before(async () => {
    fx = await fixtureServer();
    t = await startApp({ TRIBUTARY_FETCH_ALLOW: fx.hostPort, TRIBUTARY_PROPS_TIMEOUT_MS: "1500" });
    ada = await t.newUser();
    bob = await t.newUser();
    const save = async (user: { key: string }, code: string) => {
      const r = await call("POST", "/v1/components", user, { component_code: code });
      assert.equal(r.status, 200, r.text);
      return r.body.data.id as string;
    };
    optionsId = await save(ada, OPTIONS_COMPONENT);
    reloadId = await save(ada, RELOAD_COMPONENT);
    const account = async (user: { key: string }, app: string, auth: Record<string, unknown>) => {
      const r = await call("POST", "/v1/accounts", user, { app, name: app, auth });
      assert.equal(r.status, 200, r.text);
      return r.body.data.id as string;
    };
    adaAccount = await account(ada, "demo", { name: "Ada", token: TOKEN, base_url: fx.origin });
    bobAccount = await account(bob, "demo", { name: "Bob", token: TOKEN, base_url: fx.origin });
  });
  after(async () => {
    await t.close();
    fx.server.closeAllConnections();
    await new Promise((r) => fx.server.close(r));
  });

  it("GET component says which props load options, take a query or reload the props", async () => {
    const r = await call("GET", `/v1/components/${optionsId}`, ada);
    const byName = Object.fromEntries(r.body.data.configurable_props.map((p: { name: string }) => [p.name, p]));
    assert.equal(byName.plain.remoteOptions, true);
    assert.equal(byName.item.remoteOptions, true, "a propDefinition's options are the app's");
    assert.equal(byName.search.useQuery, true);
    assert.equal(byName.fixed.remoteOptions, undefined);
    assert.equal(byName.bare.remoteOptions, undefined);
    const reload = await call("GET", `/v1/components/${reloadId}`, ada);
    assert.equal(reload.body.data.configurable_props[0].reloadProps, true);
  });

  it("options: a static list and strings become {label, value}; {label, value} objects pass", async () => {
    const fixed = await options("fixed");
    assert.equal(fixed.status, 200, fixed.text);
    assert.deepEqual(fixed.body, { data: { options: [{ label: "red", value: "red" }, { label: "Blue", value: "blue" }] } });
    const plain = await options("plain");
    assert.deepEqual(plain.body.data.options, [{ label: "a", value: "a" }, { label: "b", value: "b" }, { label: "C", value: { n: 3 } }]);
    assert.equal(plain.body.data.context, undefined);
  });

  it("options: pages with the context each page gives back", async () => {
    const seen: number[] = [];
    let body: Record<string, unknown> = {};
    for (let pages = 0; pages < 10; pages++) {
      const r = await options("paged", body);
      assert.equal(r.status, 200, r.text);
      seen.push(...r.body.data.options.map((o: { value: number }) => o.value));
      if (!r.body.data.context) break;
      body = { prev_context: r.body.data.context };
    }
    assert.deepEqual(seen, [0, 1, 2, 3, 4, 5]);
  });

  it("options: the query searches", async () => {
    assert.deepEqual(labels(await options("search", { query: "an" })), ["banana"]);
    assert.deepEqual(labels(await options("search", { query: "" })), ["apple", "banana", "cherry"]);
  });

  it("options: a propDefinition runs the app's options, with the fields its function makes of the configured props", async () => {
    assert.deepEqual(labels(await options("item", { page: 2, configured_props: { kind: "fruit" } })), ["fruit-2", "Fixed"]);
    assert.deepEqual((await options("item")).body.data.options[0], { label: "none-0", value: "none-0" });
  });

  it("options: this is the configured props as a run has them: the account's $auth, app methods, the component's methods", async () => {
    const r = await options("whoami", { configured_props: { demo: { authProvisionId: adaAccount } } });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(labels(r), ["Ada", "hi Ada", "X!"]);
  });

  it("options: fetch reaches an allowed local API with the account's token", async () => {
    const r = await options("remote", { configured_props: { demo: { authProvisionId: adaAccount } } });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.data.options.slice(0, 2), [{ label: "ada/repo-0", value: 100 }, { label: "ada/repo-1", value: 101 }]);
  });

  it("options: another user's account in configured_props is not used", async () => {
    const r = await options("whoami", { configured_props: { demo: { authProvisionId: bobAccount } } });
    assert.equal(r.status, 200, r.text);
    assert.equal(labels(r)[0], "nobody");
    const remote = await options("remote", { configured_props: { demo: { authProvisionId: bobAccount } } });
    assertErrorEnvelope(remote, 422, "invalid_component");
  });

  it("options: a throw, an unreadable answer, no such prop, a prop without options: 422 invalid_component, stack-free", async () => {
    const broken = await options("broken");
    assertErrorEnvelope(broken, 422, "invalid_component");
    assert.match(broken.body.error.message, /no access to the list/);
    assert.doesNotMatch(broken.body.error.message, /\n|at .*component\.mjs|\.ts:/);
    assertErrorEnvelope(await options("odd"), 422, "invalid_component");
    const missing = await options("nope");
    assertErrorEnvelope(missing, 422, "invalid_component");
    assert.match(missing.body.error.message, /no prop "nope"/);
    const bare = await options("bare");
    assertErrorEnvelope(bare, 422, "invalid_component");
    assert.match(bare.body.error.message, /has no options/);
    // the component still answers after its failures
    assert.equal((await options("plain")).status, 200);
  });

  it("options: one that doesn't answer within the limit (TRIBUTARY_PROPS_TIMEOUT_MS) is a clear 422", async () => {
    const r = await options("slow");
    assertErrorEnvelope(r, 422, "invalid_component");
    assert.match(r.body.error.message, /did not answer within 1500 ms/);
    assert.equal((await options("plain")).status, 200, "the next question is answered");
  });

  it("options: bad bodies are 400 invalid_request; another user's component is 404; no key is 401", async () => {
    for (const body of [{ configured_props: "x" }, { configured_props: [1] }, { query: 5 }, { page: -1 }, { page: 1.5 }, { prev_context: [] }]) {
      assertErrorEnvelope(await options("plain", body), 400, "invalid_request");
    }
    assertErrorEnvelope(await call("POST", `/v1/components/${optionsId}/props/plain/options`, ada), 400, "invalid_request");
    assertErrorEnvelope(await options("plain", {}, bob), 404, "not_found");
    assertErrorEnvelope(await options("plain", {}, ada, "sc_doesnotexist0000"), 404, "not_found");
    assertErrorEnvelope(await t.request("POST", `/v1/components/${optionsId}/props/plain/options`, { key: null, body: {} }), 401, "unauthorized");
  });

  it("reload: the static props plus those additionalProps() adds for the configured values, described as GET describes props", async () => {
    const simple = await call("POST", `/v1/components/${reloadId}/props/reload`, ada, { configured_props: { mode: "simple" } });
    assert.equal(simple.status, 200, simple.text);
    assert.deepEqual(simple.body.data.configurable_props.map((p: { name: string }) => p.name), ["mode", "timer"]);
    const advanced = await call("POST", `/v1/components/${reloadId}/props/reload`, ada, { configured_props: { mode: "advanced" } });
    assert.equal(advanced.status, 200, advanced.text);
    const props = advanced.body.data.configurable_props;
    assert.deepEqual(props.map((p: { name: string }) => p.name), ["mode", "timer", "depth", "level", "token", "note", "acct", "store"]);
    assert.deepEqual(props[2], { name: "depth", type: "integer", label: "Depth", min: 1, max: 9 });
    assert.deepEqual(props[3], { name: "level", type: "string", label: "Level", optional: true, remoteOptions: true });
    assert.equal(props[0].type, "string", "a static prop is never replaced");
    // an added prop's options are asked like any other's
    const level = await options("level", { configured_props: { mode: "advanced" } }, ada, reloadId);
    assert.deepEqual(labels(level), ["low", "high"]);
  });

  it("reload: bad bodies 400, a component without reloadProps 422, another user's component 404", async () => {
    assertErrorEnvelope(await call("POST", `/v1/components/${reloadId}/props/reload`, ada, { configured_props: "x" }), 400, "invalid_request");
    assertErrorEnvelope(await call("POST", `/v1/components/${optionsId}/props/reload`, ada, {}), 422, "invalid_component");
    assertErrorEnvelope(await call("POST", `/v1/components/${reloadId}/props/reload`, bob, {}), 404, "not_found");
  });

  it("a source's configured_props are checked against the union: refused without the reload, accepted with it", async () => {
    const create = (props: unknown) => call("POST", "/v1/sources/", ada, { component_id: reloadId, configured_props: props });
    const refused = await create({ mode: "simple", depth: 3 });
    assertErrorEnvelope(refused, 400, "invalid_request");
    assert.deepEqual(detailFields(refused), ["configured_props.depth"]);
    const badValue = await create({ mode: "advanced", depth: 30 });
    assertErrorEnvelope(badValue, 400, "invalid_request");
    assert.deepEqual(detailFields(badValue), ["configured_props.depth"]);
    assert.deepEqual(detailFields(await create({ mode: "advanced" })), ["configured_props.depth"], "an added prop is required as a static one is");
    const account = await call("POST", "/v1/accounts", ada, { app: "github", auth: { oauth_access_token: "gho_added" } });
    const store = await call("POST", "/v1/data_stores", ada, { name: "added-store" });
    assert.equal(store.status, 200, store.text);
    const ok = await create({
      mode: "advanced", depth: 3, level: "high", token: "tok-SECRET", note: "enc:v1:not-sealed",
      acct: { authProvisionId: account.body.data.id }, store: { dataStoreId: store.body.data.id },
    });
    assert.equal(ok.status, 200, ok.text);
    // the added props' values: shown (the secret one masked), and in the run's this by their type
    assert.deepEqual(ok.body.data.configured_props.depth, 3);
    assert.equal(ok.body.data.configured_props.token, "********");
    assert.equal(ok.body.data.configured_props.note, "enc:v1:not-sealed");
    assert.equal(ok.body.data.configured_props.$added, undefined);
    assert.ok(!ok.text.includes("tok-SECRET"));
    assert.equal((await call("POST", `/v1/sources/${ok.body.data.id}/run`, ada)).status, 202);
    const [ran] = await waitEvents(t, ok.body.data.id, 1, "", 10_000, ada.key);
    assert.deepEqual(ran.event, { mode: "advanced", depth: 3, level: "high", token: "tok-SECRET", note: "enc:v1:not-sealed", acct: "gho_added", store: "v" });
    // the account is in use by the source through its added prop
    assertErrorEnvelope(await call("DELETE", `/v1/accounts/${account.body.data.id}`, ada), 409, "conflict");
    // "$added" is no prop a client may set
    assert.deepEqual(detailFields(await create({ mode: "simple", $added: [] })), ["configured_props.$added"]);
    // an update is checked against the union for its values, the stored ones included
    const id = ok.body.data.id;
    const still = await call("PUT", `/v1/sources/${id}`, ada, { configured_props: { depth: 4 } });
    assert.equal(still.status, 200, still.text);
    const back = await call("PUT", `/v1/sources/${id}`, ada, { configured_props: { mode: "simple", depth: 4 } });
    assertErrorEnvelope(back, 400, "invalid_request");
    assert.deepEqual(detailFields(back), ["configured_props.depth"]);
  });

  it("source_id: a form editing a source asks with its stored values, its secrets too; another user's source is 404", async () => {
    const code = `export default {
      props: {
        token: { type: "string", secret: true },
        repo: { type: "string", async options() { return ["repo-for-" + this.token]; } },
      },
      async run() {},
    };`;
    const comp = await call("POST", "/v1/components", ada, { component_code: code });
    assert.equal(comp.status, 200, comp.text);
    const id = comp.body.data.id as string;
    const src = await call("POST", "/v1/sources/", ada, { component_id: id, configured_props: { token: "s3cret", repo: "x" } });
    assert.equal(src.status, 200, src.text);
    assert.equal(src.body.data.configured_props.token, "********");
    // the form holds the secret as shown: the stored one is what options() sees
    const asked = await call("POST", `/v1/components/${id}/props/repo/options`, ada, { source_id: src.body.data.id, configured_props: { token: "********" } });
    assert.equal(asked.status, 200, asked.text);
    assert.deepEqual(labels(asked), ["repo-for-s3cret"]);
    // a value typed in the form wins over the stored one
    assert.deepEqual(labels(await call("POST", `/v1/components/${id}/props/repo/options`, ada, { source_id: src.body.data.id, configured_props: { token: "new" } })), ["repo-for-new"]);
    const bobs = await call("POST", "/v1/sources/", bob, { component_code: code, configured_props: { token: "bob-secret", repo: "y" } });
    assertErrorEnvelope(await call("POST", `/v1/components/${id}/props/repo/options`, ada, { source_id: bobs.body.data.id }), 404, "not_found");
    const other = await call("POST", "/v1/sources/", ada, { component_code: "export default { props: {}, async run() {} };" });
    assert.equal(other.status, 200, other.text);
    assertErrorEnvelope(await call("POST", `/v1/components/${id}/props/repo/options`, ada, { source_id: other.body.data.id }), 400, "invalid_request");
    assertErrorEnvelope(await call("POST", `/v1/components/${id}/props/repo/options`, ada, { source_id: 5 }), 400, "invalid_request");
  });

  it("a workflow step's props are checked against the union too, for a saved component and for a step's own code", async () => {
    const workflow = (props: unknown, step: Record<string, unknown> = { component_id: reloadId }) =>
      call("POST", "/v1/workflows", ada, { name: "wf", steps: [{ name: "s", ...step, props }] });
    const refused = await workflow({ mode: "simple", depth: 3 });
    assertErrorEnvelope(refused, 400, "invalid_request");
    assert.deepEqual(detailFields(refused), ["steps[0].props.depth"]);
    const ok = await workflow({ mode: "advanced", depth: 3 });
    assert.equal(ok.status, 200, ok.text);
    const inline = { code: RELOAD_COMPONENT.replace('key: "dyn-reload"', 'key: "dyn-reload-step"').replace('timer: { type: "$.interface.timer", default: { intervalSeconds: 600 } },', "") };
    assert.deepEqual(detailFields(await workflow({ mode: "simple", depth: 3 }, inline)), ["steps[0].props.depth"]);
    const inlineOk = await workflow({ mode: "advanced", depth: 2 }, inline);
    assert.equal(inlineOk.status, 200, inlineOk.text);
  });

  it("a Pipedream-shaped component: the app file's propDefinition options call _makeRequest / axios with the account's $auth", async () => {
    const saved = await call("POST", "/v1/components", ada, { component_url: `${fx.origin}/files/new-repo.mjs` });
    assert.equal(saved.status, 200, saved.text);
    const id = saved.body.data.id;
    const repo = saved.body.data.configurable_props.find((p: { name: string }) => p.name === "repo");
    assert.deepEqual(repo, { name: "repo", type: "string", label: "Repository", description: "One of your repositories", remoteOptions: true, useQuery: true });
    const account = await call("POST", "/v1/accounts", ada, { app: "repohub", auth: { oauth_access_token: TOKEN, base_url: fx.origin } });
    const configured = { repohub: { authProvisionId: account.body.data.id } };
    const first = await options("repo", { configured_props: configured }, ada, id);
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(labels(first), REPOS.slice(0, 5).map((r) => r.full_name));
    const second = await options("repo", { configured_props: configured, page: 1 }, ada, id);
    assert.deepEqual(labels(second), REPOS.slice(5).map((r) => r.full_name));
    const searched = await options("repo", { configured_props: configured, query: "repo-3" }, ada, id);
    assert.deepEqual(searched.body.data.options, [{ label: "ada/repo-3", value: 103 }]);
    assert.ok(fx.seen.includes("/repos?page=1&q=repo-3&owner="), fx.seen.join(" "));
    // propDefinition's function of the configured props narrows by owner
    const none = await options("repo", { configured_props: { ...configured, owner: "bob" } }, ada, id);
    assert.deepEqual(none.body.data.options, []);
    // an account the API doesn't take: its refusal is the message
    const stale = await call("POST", "/v1/accounts", ada, { app: "repohub", auth: { oauth_access_token: "revoked", base_url: fx.origin } });
    const refused = await options("repo", { configured_props: { repohub: { authProvisionId: stale.body.data.id } } }, ada, id);
    assertErrorEnvelope(refused, 422, "invalid_component");
    assert.match(refused.body.error.message, /^options\(\) of prop "repo" failed: .*401/);
  });
});
