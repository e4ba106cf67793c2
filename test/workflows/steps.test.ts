import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { assertErrorEnvelope, detailFields, startApp, waitFor, type Reply, type TestApp } from "../helpers.ts";
import { startRegistry, type LocalRegistry } from "../fixtures/npm-registry.ts";

// Workflow steps as Pipedream users write them (docs/writing-workflows.md): props on steps, `{{ }}`
// expressions, saved action components as steps, npm packages in steps, and GET giving back every
// step's code and props. Black-box through the API.

interface User {
  id: string;
  key: string;
}

const ACTION = `export default {
  key: "greet", name: "Greet", version: "0.1.0", type: "action",
  props: {
    greeting: { type: "string", default: "hello" },
    who: { type: "string" },
    times: { type: "integer", optional: true },
    token: { type: "string", secret: true, optional: true },
  },
  methods: { line() { return this.greeting + " " + this.who; } },
  async run({ steps, $ }) {
    $.export("token_length", this.token ? this.token.length : 0);
    return Array.from({ length: this.times ?? 1 }, () => this.line()).join(", ");
  },
};`;

/** emits what the steps before it returned */
const COLLECT = `export default { async run({ steps, $ }) { $.send.emit({ raw_event: steps }); } };`;

let t: TestApp;
let registry: LocalRegistry;

before(async () => {
  registry = await startRegistry([{ name: "shout", version: "1.0.0", files: { "index.js": `module.exports = (s) => String(s).toUpperCase() + "!";` } }]);
  t = await startApp({ TRIBUTARY_NPM_REGISTRY: registry.url, TRIBUTARY_FETCH_ALLOW: registry.hostPort });
});
after(async () => {
  await t.close();
  await registry.close();
});

async function call(user: User, method: string, url: string, body?: unknown): Promise<Reply> {
  return t.request(method, url, { key: user.key, ...(body === undefined ? {} : { body }) });
}

async function httpWorkflow(user: User, steps: unknown[]): Promise<any> {
  const res = await call(user, "POST", "/v1/workflows", { name: "wf", steps, trigger: { type: "http" } });
  assert.equal(res.status, 200, res.text);
  return res.body.data;
}

/** triggers the workflow and waits for its `n`th event (or its first error); returns the newest */
async function runOnce(user: User, w: any, body: unknown, n = 1): Promise<any> {
  const res = await t.request("POST", new URL(w.trigger.endpoint_url).pathname, { key: null, body });
  assert.equal(res.status, 200, res.text);
  return waitFor(async () => {
    const errors = await call(user, "GET", `/v1/workflows/${w.id}/$errors/event_summaries?expand=event`);
    if (errors.body.data.length > 0) return { error: errors.body.data[0].event.error };
    const events = await call(user, "GET", `/v1/workflows/${w.id}/event_summaries?expand=event`);
    return events.body.data.length >= n ? { event: events.body.data[0].event.raw_event } : undefined;
  }, 10_000, "the workflow's first event or error");
}

describe("workflow steps with props", () => {
  it("an action saved as a component runs as a step with its props, defaults, methods, secrets and exports", async () => {
    const user = await t.newUser();
    const saved = await call(user, "POST", "/v1/components", { component_code: ACTION });
    assert.equal(saved.status, 200, saved.text);
    const w = await httpWorkflow(user, [
      { name: "greet", component_id: saved.body.data.id, props: { who: "{{steps.trigger.event.body.name}}", times: 2, token: "s3cret" } },
      { name: "collect", code: COLLECT },
    ]);
    const got = await runOnce(user, w, { name: "Ada" });
    assert.deepEqual(got.event, { greet: { $return_value: "hello Ada, hello Ada", token_length: 6 }, trigger: got.event.trigger });

    // GET gives the step back as it was written, the secret hidden
    const read = await call(user, "GET", `/v1/workflows/${w.id}`);
    assert.deepEqual(read.body.data.steps[0], { id: read.body.data.steps[0].id, name: "greet", component_id: saved.body.data.id, props: { who: "{{steps.trigger.event.body.name}}", times: 2, token: { secret: true } } });
    assert.equal(read.body.data.steps[1].code, COLLECT);
    assert.ok(!read.text.includes("s3cret"));

    // PUT with the secret sent back as shown keeps it, found by the step's id even when renamed
    const steps = read.body.data.steps.map((s: any, i: number) => (i === 0 ? { ...s, name: "hello" } : s));
    const kept = await call(user, "PUT", `/v1/workflows/${w.id}`, { steps });
    assert.equal(kept.status, 200, kept.text);
    const again = await runOnce(user, kept.body.data, { name: "Bo" }, 2);
    assert.equal(again.event.hello.token_length, 6);
    // shown hidden with nothing to keep (a new step, no id): refused, never stored as the value
    const fresh = await call(user, "POST", "/v1/workflows", { name: "x", steps: [{ name: "g", component_id: saved.body.data.id, props: { who: "x", token: { secret: true } } }] });
    assertErrorEnvelope(fresh, 400, "invalid_request");
    assert.deepEqual(detailFields(fresh), ["steps[0].props.token"]);
  });

  it("a step's methods and run share one `this`, which still reaches its export's own fields", async () => {
    const user = await t.newUser();
    const code = `export default {
      base: 40,
      props: { add: { type: "integer", default: 1 } },
      methods: { total() { return this.base + this.add + this.extra; } },
      async run() { this.extra = 1; return this.total(); },
    };`;
    const w = await httpWorkflow(user, [{ name: "sum", code }, { name: "collect", code: COLLECT }]);
    const got = await runOnce(user, w, {});
    assert.equal(got.event.sum.$return_value, 42);
  });

  it("$.service.db in a step keeps its values across runs of the workflow", async () => {
    const user = await t.newUser();
    const code = `export default { props: { db: "$.service.db" }, async run() { const n = (this.db.get("n") ?? 0) + 1; this.db.set("n", n); return n; } };`;
    const w = await httpWorkflow(user, [{ name: "count", code }, { name: "collect", code: COLLECT }]);
    assert.equal((await runOnce(user, w, {})).event.count.$return_value, 1);
    assert.equal((await runOnce(user, w, {}, 2)).event.count.$return_value, 2);
  });

  it("a secret prop is never evaluated as an expression, nor echoed", async () => {
    const user = await t.newUser();
    const code = `export default { props: { pw: { type: "string", secret: true } }, async run() { return this.pw.length; } };`;
    const w = await httpWorkflow(user, [{ name: "s", code, props: { pw: "a{{b}}c" } }, { name: "collect", code: COLLECT }]);
    const got = await runOnce(user, w, {});
    assert.equal(got.event.s.$return_value, 7);
  });

  it("expressions: one whole expression keeps its type, several are put into text, process.env is in scope", async () => {
    const user = await t.newUser();
    const code = `export default {
      props: { n: { type: "integer" }, label: { type: "string" }, list: { type: "object", optional: true } },
      async run() { return { n: this.n, type: typeof this.n, label: this.label, list: this.list }; },
    };`;
    const w = await httpWorkflow(user, [
      { name: "first", code: `export default { async run({ steps }) { return { id: 7, tags: ["a", "b"] }; } };` },
      { name: "second", code, props: { n: "{{ steps.trigger.event.body.n * 2 }}", label: "id-{{steps.first.$return_value.id}} tags={{steps.first.$return_value.tags}} env={{typeof process.env}}", list: "{{steps.first.$return_value}}" } },
      { name: "collect", code: COLLECT },
    ]);
    const got = await runOnce(user, w, { n: 21 });
    assert.deepEqual(got.event.second.$return_value, { n: 42, type: "number", label: 'id-7 tags=["a","b"] env=object', list: { id: 7, tags: ["a", "b"] } });
  });

  it("a failing expression fails its step on $errors, naming the prop", async () => {
    const user = await t.newUser();
    const w = await httpWorkflow(user, [
      { name: "broken", code: `export default { props: { x: { type: "string" } }, async run() { return this.x; } };`, props: { x: "{{ steps.nope.$return_value.deep }}" } },
    ]);
    const got = await runOnce(user, w, {});
    assert.match(got.error.msg, /prop "x": \{\{steps\.nope\.\$return_value\.deep\}\} failed: TypeError/);
    assert.equal(got.error.cellId, w.steps[0].id);
    assert.equal(got.error.step, "broken");
  });

  it("an error's stack names the user's own lines, also in a step bundled with its imports", async () => {
    const user = await t.newUser();
    const w = await httpWorkflow(user, [
      { name: "first", code: `import shout from "shout";\nimport { createHash } from "crypto";\nexport default {\n  async run() {\n    const x = shout("a") + createHash("sha256");\n    throw new Error("on line six " + x.length);\n  },\n};\n` },
    ]);
    const got = await runOnce(user, w, {});
    assert.match(got.error.msg, /on line six/);
    assert.equal(got.error.step, "first");
    assert.match(got.error.stack, /component\.mjs:6:11\)/, got.error.stack);
  });

  it("a step's code may import npm packages and Node modules, bundled at save", async () => {
    const user = await t.newUser();
    const w = await httpWorkflow(user, [
      { name: "loud", code: `import shout from "shout"; import { createHash } from "crypto"; export default { async run({ steps }) { return shout(steps.trigger.event.body.word) + createHash("sha256").update("x").digest("hex").slice(0, 4); } };` },
      { name: "collect", code: COLLECT },
    ]);
    const got = await runOnce(user, w, { word: "hi" });
    assert.equal(got.event.loud.$return_value, "HI!2d71");
  });

  it("bad steps: unknown or missing props, a bad expression, two origins, a wrong type each name their field", async () => {
    const user = await t.newUser();
    const code = `export default { props: { n: { type: "integer" } }, async run() {} };`;
    const cases: Array<[unknown, string]> = [
      [{ name: "a", code, props: { n: 1, nope: 2 } }, "steps[0].props.nope"],
      [{ name: "a", code, props: {} }, "steps[0].props.n"],
      [{ name: "a", code, props: { n: "x" } }, "steps[0].props.n"],
      [{ name: "a", code, props: { n: "{{ steps.x + }}" } }, "steps[0].props.n"],
      [{ name: "a", code, key: "http-new-requests", props: { n: 1 } }, "steps[0].code"],
      [{ name: "a" }, "steps[0].code"],
      [{ name: "a", code, props: "n=1" }, "steps[0].props"],
    ];
    for (const [step, field] of cases) {
      const res = await call(user, "POST", "/v1/workflows", { name: "bad", steps: [step] });
      assertErrorEnvelope(res, 400, "invalid_request");
      assert.ok(detailFields(res).includes(field), `${JSON.stringify(step)}: ${res.text}`);
    }
  });

  it("another user's component or connected account in a step is 404, as one that doesn't exist", async () => {
    const owner = await t.newUser();
    const other = await t.newUser();
    const saved = await call(owner, "POST", "/v1/components", { component_code: ACTION });
    const theirs = await call(other, "POST", "/v1/workflows", { name: "x", steps: [{ name: "s", component_id: saved.body.data.id, props: { who: "me" } }] });
    assertErrorEnvelope(theirs, 404, "not_found");
    const account = await call(owner, "POST", "/v1/accounts", { app: "github", name: "gh", auth: { oauth_access_token: "tok" } });
    assert.equal(account.status, 200, account.text);
    const appStep = `export default { props: { github: { type: "app", app: "github" } }, async run() { return this.github.$auth.oauth_access_token; } };`;
    const foreign = await call(other, "POST", "/v1/workflows", { name: "x", steps: [{ name: "s", code: appStep, props: { github: { authProvisionId: account.body.data.id } } }] });
    assertErrorEnvelope(foreign, 404, "not_found");
    // the owner's own account reaches the step as this.github.$auth
    const w = await httpWorkflow(owner, [{ name: "s", code: appStep, props: { github: { authProvisionId: account.body.data.id } } }, { name: "collect", code: COLLECT }]);
    const got = await runOnce(owner, w, {});
    assert.equal(got.event.s.$return_value, "tok");
  });
});
