import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { assertErrorEnvelope, detailFields, startApp, waitEvents, waitFor, type Reply, type TestApp } from "./helpers.ts";

// additionalProps(existingProps) as Pipedream calls it: with the prop definitions as they stand
// (the component's own and those it added last time), which components change in place
// (`existingProps.x.hidden = false`, `.optional = true`) besides returning new props. What they
// change shows in the reloaded props and counts in validation. Pipedream-shaped fixtures of our
// own: a source shaped like Calendly's new-event-scheduled, a step like Notion's append-block.

/** hides and makes optional the props its scope doesn't use, and adds one prop */
const SCOPED_SOURCE = `
const app = {
  type: "app", app: "planner",
  propDefinitions: {
    organization: { type: "string", label: "Organization" },
    user: { type: "string", label: "User" },
  },
  methods: {
    scopeProps(props, scope) {
      props.organization.hidden = scope === "me";
      props.organization.optional = scope === "me";
      props.user.hidden = scope !== "user";
      props.user.optional = scope !== "user";
      return scope === "user" ? { since: props.since ?? { type: "integer", label: "Since", optional: true } } : {};
    },
  },
};
export default {
  key: "scoped-events", name: "Scoped events", version: "0.1.0",
  props: {
    app,
    db: "$.service.db",
    scope: { type: "string", options: ["me", "user"], reloadProps: true },
    organization: { propDefinition: [app, "organization"], optional: true, hidden: true },
    user: { propDefinition: [app, "user"], description: "whose events", optional: true, hidden: true },
  },
  async additionalProps(existingProps) {
    // a prop it added last time is among the existing ones: seen, and given again
    if (existingProps.since) existingProps.since.description = "seen before";
    return this.app.scopeProps(existingProps, this.scope);
  },
  async run() {
    this.$emit({ scope: this.scope, organization: this.organization, user: this.user, since: this.since });
  },
};`;

/** shows only the block props its blockTypes name; returns nothing new */
const BLOCKS_ACTION = `export default {
  key: "append-blocks", name: "Append blocks", version: "0.1.0", type: "action",
  props: {
    blockTypes: { type: "string[]", reloadProps: true, options: ["texts", "urls"] },
    texts: { type: "string[]", label: "Texts", hidden: true },
    urls: { type: "string[]", label: "URLs", hidden: true },
  },
  additionalProps(currentProps) {
    for (const prop of ["texts", "urls"]) currentProps[prop].hidden = !this.blockTypes.includes(prop);
    return {};
  },
  async run({ $ }) {
    $.send.emit({ raw_event: { texts: this.texts ?? null, urls: this.urls ?? null } });
    return "ok";
  },
};`;

describe("additionalProps(existingProps)", () => {
  let t: TestApp;
  let user: { id: string; key: string };
  const call = (method: string, url: string, body?: unknown): Promise<Reply> => t.request(method, url, { key: user.key, body });
  const byName = (r: Reply) => Object.fromEntries(r.body.data.configurable_props.map((p: { name: string }) => [p.name, p]));

  before(async () => {
    t = await startApp();
    user = await t.newUser();
  });
  after(() => t.close());

  it("a source: its static props are passed, changed in place, and the changes show and count", async () => {
    const saved = await call("POST", "/v1/components", { component_code: SCOPED_SOURCE });
    assert.equal(saved.status, 200, saved.text);
    const id = saved.body.data.id as string;
    assert.equal(byName(saved).organization.hidden, true, "a static hidden prop is described so");

    const me = await call("POST", `/v1/components/${id}/props/reload`, { configured_props: { scope: "me" } });
    assert.equal(me.status, 200, me.text);
    assert.deepEqual(me.body.data.configurable_props.map((p: { name: string }) => p.name), ["app", "db", "scope", "organization", "user"]);
    assert.deepEqual(byName(me).organization, { name: "organization", type: "string", label: "Organization", optional: true, hidden: true });

    const scoped = await call("POST", `/v1/components/${id}/props/reload`, { configured_props: { scope: "user" } });
    assert.equal(scoped.status, 200, scoped.text);
    const props = byName(scoped);
    assert.deepEqual(props.user, { name: "user", type: "string", label: "User", description: "whose events", optional: false, hidden: false });
    assert.deepEqual(props.organization, { name: "organization", type: "string", label: "Organization", optional: false, hidden: false });
    assert.deepEqual(props.since, { name: "since", type: "integer", label: "Since", optional: true });

    // validation follows: with scope "user", user and organization are required
    const create = (configured: unknown) => call("POST", "/v1/sources/", { component_id: id, configured_props: configured });
    const missing = await create({ scope: "user" });
    assertErrorEnvelope(missing, 400, "invalid_request");
    assert.deepEqual(detailFields(missing).sort(), ["configured_props.organization", "configured_props.user"]);
    const ok = await create({ scope: "user", organization: "acme", user: "ada", since: 5 });
    assert.equal(ok.status, 200, ok.text);
    // an update runs additionalProps() with the prop it added last time among the existing ones
    const updated = await call("PUT", `/v1/sources/${ok.body.data.id}`, { configured_props: { since: 6 } });
    assert.equal(updated.status, 200, updated.text);
    assert.equal((await call("POST", `/v1/sources/${ok.body.data.id}/run`)).status, 202);
    const [ran] = await waitEvents(t, ok.body.data.id, 1, "", 10_000, user.key);
    assert.deepEqual(ran.event, { scope: "user", organization: "acme", user: "ada", since: 6 });
    // ...and with scope "me" neither is (hidden and optional'd)
    assert.equal((await create({ scope: "me" })).status, 200);
  });

  it("the prop it added last time is in existingProps (a form editing a source asks with it)", async () => {
    const saved = await call("POST", "/v1/components", { component_code: SCOPED_SOURCE });
    const src = await call("POST", "/v1/sources/", { component_id: saved.body.data.id, configured_props: { scope: "user", organization: "o", user: "u" } });
    assert.equal(src.status, 200, src.text);
    const again = await call("POST", `/v1/components/${saved.body.data.id}/props/reload`, { source_id: src.body.data.id });
    assert.equal(again.status, 200, again.text);
    assert.equal(byName(again).since.description, "seen before");
  });

  it("a workflow step: hidden static props unhidden by additionalProps() are required and reach this", async () => {
    const saved = await call("POST", "/v1/components", { component_code: BLOCKS_ACTION });
    assert.equal(saved.status, 200, saved.text);
    const id = saved.body.data.id as string;
    const reload = await call("POST", `/v1/components/${id}/props/reload`, { configured_props: { blockTypes: ["urls"] } });
    assert.equal(reload.status, 200, reload.text);
    assert.equal(byName(reload).texts.hidden, true);
    assert.equal(byName(reload).urls.hidden, false);

    const workflow = (props: unknown) => call("POST", "/v1/workflows", { name: "blocks", trigger: { type: "http" }, steps: [{ name: "append", component_id: id, props }] });
    // hidden props, though not optional, are never required
    const hiddenOnly = await workflow({ blockTypes: [] });
    assert.equal(hiddenOnly.status, 200, hiddenOnly.text);
    const refused = await workflow({ blockTypes: ["urls"] });
    assertErrorEnvelope(refused, 400, "invalid_request");
    assert.deepEqual(detailFields(refused), ["steps[0].props.urls"]);
    const ok = await workflow({ blockTypes: ["urls"], urls: ["https://example.com/a.png"] });
    assert.equal(ok.status, 200, ok.text);
    const w = ok.body.data;
    const res = await t.request("POST", new URL(w.trigger.endpoint_url).pathname, { key: null, body: {} });
    assert.equal(res.status, 200, res.text);
    const event = await waitFor(async () => {
      const errors = await call("GET", `/v1/workflows/${w.id}/$errors/event_summaries?expand=event`);
      if (errors.body.data.length > 0) return { error: errors.body.data[0].event.error };
      const events = await call("GET", `/v1/workflows/${w.id}/event_summaries?expand=event`);
      return events.body.data.length > 0 ? { event: events.body.data[0].event.raw_event } : undefined;
    }, 10_000, "the workflow's event");
    assert.deepEqual(event, { event: { texts: null, urls: ["https://example.com/a.png"] } });
  });
});
