import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { createSource, eventsOf, startApp, waitEvents, waitFor, type TestApp } from "./helpers.ts";

// App events (docs/connecting-accounts.md, "App events"): what Slack or Shopify send to a connected
// account's events_url runs the apphook sources bound to that account. The components are our
// own, shaped like Pipedream's Slack and Shopify apphook sources (their code is never here).

/** shaped like @pipedream/slack's message sources: computed eventNames(), run(event) gets Slack's inner event */
const SLACK_SOURCE = `
const slack = {
  type: "app",
  app: "slack",
  propDefinitions: { conversation: { type: "string", label: "Channel", async options() { return []; } } },
  methods: { mySlackId() { return this.$auth.oauth_uid; } },
};
export default {
  key: "fixture-slack-new-message",
  name: "New Message (fixture)",
  version: "0.0.1",
  type: "source",
  dedupe: "unique",
  props: {
    slack,
    db: "$.service.db",
    conversations: { propDefinition: [slack, "conversation"], type: "string[]", label: "Channels", optional: true },
    slackApphook: {
      type: "$.interface.apphook",
      appProp: "slack",
      async eventNames() { return this.conversations || ["message"]; },
    },
  },
  methods: {
    processEvent(event) {
      if (event.type !== "message") return;
      return event;
    },
  },
  async run(event) {
    event = await this.processEvent(event);
    if (event) this.$emit(event, { id: event.client_msg_id, summary: "New message", ts: Date.now() });
  },
};`;

/** shaped like @pipedream/shopify's customer-data-request: fixed eventNames, run(event) gets the request */
const SHOPIFY_SOURCE = `
const shopify = { type: "app", app: "shopify", propDefinitions: {}, methods: {} };
export default {
  key: "fixture-shopify-customer-data-request",
  name: "Customer Data Request (fixture)",
  version: "0.0.1",
  type: "source",
  props: {
    shopify,
    shopifyApphook: { type: "$.interface.apphook", appProp: "shopify", eventNames: ["customers/data_request"] },
  },
  async run(event) {
    this.$emit(event.body, { summary: "Customer has requested information", ts: Date.now() });
  },
};`;

const SIGNING_SECRET = "8f742231b10e8888abcd99yyyzzz85a5";

function slackRequest(body: unknown, secret = SIGNING_SECRET, ts = Math.floor(Date.now() / 1000)) {
  const raw = JSON.stringify(body);
  const signature = `v0=${createHmac("sha256", secret).update(`v0:${ts}:${raw}`).digest("hex")}`;
  return { key: null, raw, headers: { "content-type": "application/json", "x-slack-request-timestamp": String(ts), "x-slack-signature": signature } };
}

const messageEvent = (text: string, extra: Record<string, unknown> = {}) => ({
  token: "legacy",
  team_id: "T1",
  type: "event_callback",
  event_id: `Ev${text}`,
  event: { type: "message", channel: "C1", channel_type: "channel", user: "U1", text, ts: "1.000", client_msg_id: `m-${text}`, ...extra },
});

const pathOf = (url: string) => new URL(url).pathname;

describe("app events delivered to apphook sources", () => {
  let t: TestApp;
  before(async () => (t = await startApp()));
  after(async () => t.close());

  async function account(user: { key: string }, app: string, auth: Record<string, unknown>) {
    const res = await t.request("POST", "/v1/accounts", { key: user.key, body: { app, auth } });
    assert.equal(res.status, 200, res.text);
    return res.body.data as { id: string; events_url: string };
  }

  it("a signed Slack Events API request at the account's events_url runs its Slack source with the inner event", async () => {
    const ada = await t.newUser();
    const slack = await account(ada, "slack", { oauth_access_token: "xoxb-fake", signing_secret: SIGNING_SECRET });
    assert.match(slack.events_url, /^http:\/\/tributary\.test\/app-events\/[0-9a-f]{32}$/);
    const src = await createSource(t, SLACK_SOURCE, { configured_props: { slack: { authProvisionId: slack.id } } }, ada.key);

    const res = await t.request("POST", pathOf(slack.events_url), slackRequest(messageEvent("hello")));
    assert.equal(res.status, 200, res.text);
    const [got] = await waitEvents(t, src.id, 1, "", 10_000, ada.key);
    assert.equal(got.event.text, "hello");
    assert.equal(got.event.channel, "C1");
    assert.equal(got.event.type, "message", "the run got Slack's inner event, not the envelope");
  });

  it("a wrong or stale signature is refused with 401 and delivers nothing", async () => {
    const ada = await t.newUser();
    const slack = await account(ada, "slack", { oauth_access_token: "xoxb-fake", signing_secret: SIGNING_SECRET });
    const src = await createSource(t, SLACK_SOURCE, { configured_props: { slack: { authProvisionId: slack.id } } }, ada.key);
    const path = pathOf(slack.events_url);

    const forged = await t.request("POST", path, slackRequest(messageEvent("forged"), "not-the-secret"));
    assert.equal(forged.status, 401, forged.text);
    assert.equal(forged.body.error.code, "unauthorized");
    const stale = await t.request("POST", path, slackRequest(messageEvent("stale"), SIGNING_SECRET, Math.floor(Date.now() / 1000) - 3600));
    assert.equal(stale.status, 401, stale.text);
    const unsigned = await t.request("POST", path, { key: null, body: messageEvent("unsigned") });
    assert.equal(unsigned.status, 401, unsigned.text);

    assert.equal((await t.request("POST", path, slackRequest(messageEvent("signed")))).status, 200);
    await waitEvents(t, src.id, 1, "", 10_000, ada.key);
    // the refused ones were refused before anything was accepted: only the signed one is there
    assert.deepEqual((await eventsOf(t, src.id, "", ada.key)).map((e) => e.event.text), ["signed"]);
  });

  it("url_verification is answered with its challenge", async () => {
    const ada = await t.newUser();
    const slack = await account(ada, "slack", { oauth_access_token: "xoxb-fake", signing_secret: SIGNING_SECRET });
    const res = await t.request("POST", pathOf(slack.events_url), slackRequest({ token: "x", challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P", type: "url_verification" }));
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P" });
  });

  it("an event reaches only the hooks whose event names it has", async () => {
    const ada = await t.newUser();
    const slack = await account(ada, "slack", { oauth_access_token: "xoxb-fake" });
    const props = (names?: string[]) => ({ configured_props: { slack: { authProvisionId: slack.id }, ...(names ? { slackApphook: names } : {}) } });
    const any = await createSource(t, SLACK_SOURCE, props(), ada.key);
    const reactions = await createSource(t, SLACK_SOURCE, props(["reaction_added"]), ada.key);
    const inC1 = await createSource(t, SLACK_SOURCE, props(["C1"]), ada.key);
    assert.deepEqual(reactions.configured_props.slackApphook, ["reaction_added"], "the names configured for the hook are shown");

    const deliver = async (name: string) => {
      const res = await t.request("POST", `/v1/accounts/${slack.id}/events`, { key: ada.key, body: { name, event: { type: name, text: name } } });
      assert.equal(res.status, 200, res.text);
      return (res.body.data.delivered as string[]).sort();
    };
    // a computed eventNames() is run in the sandbox with the source's props: the fixture's gives
    // the channels configured, else ["message"]
    const inC2 = await createSource(t, SLACK_SOURCE, { configured_props: { slack: { authProvisionId: slack.id }, conversations: ["C2"] } }, ada.key);
    assert.deepEqual(await deliver("message"), [any.id].sort());
    assert.deepEqual(await deliver("reaction_added"), [reactions.id].sort());
    assert.deepEqual(await deliver("C1"), [inC1.id].sort());
    assert.deepEqual(await deliver("C2"), [inC2.id].sort());
    // its configuration changed: asked again
    const moved = await t.request("PUT", `/v1/sources/${inC2.id}`, { key: ada.key, body: { configured_props: { slack: { authProvisionId: slack.id }, conversations: ["C3"] } } });
    assert.equal(moved.status, 200, moved.text);
    assert.deepEqual(await deliver("C2"), []);
    assert.deepEqual(await deliver("C3"), [inC2.id].sort());

    // through the events URL: a message in C1 goes by "message", "message.channel" and "C1"
    const res = await t.request("POST", pathOf(slack.events_url), { key: null, body: messageEvent("in-c1") });
    assert.equal(res.status, 200, res.text);
    const [got] = await waitEvents(t, inC1.id, 1, "", 10_000, ada.key);
    assert.equal(got.event.text, "in-c1");

    const bad = await t.request("POST", "/v1/sources/", { key: ada.key, body: { component_code: SLACK_SOURCE, ...props([""] as string[]) } });
    assert.equal(bad.status, 400, bad.text);
  });

  it("a Shopify webhook is delivered by its topic, signed with the app's secret, as the request", async () => {
    const ada = await t.newUser();
    const shop = await account(ada, "shopify", { oauth_access_token: "shpat_fake", shop_id: "fake-shop", webhook_secret: "shpss_secret" });
    const src = await createSource(t, SHOPIFY_SOURCE, { configured_props: { shopify: { authProvisionId: shop.id } } }, ada.key);
    const send = (topic: string, body: unknown, secret = "shpss_secret") => {
      const raw = Buffer.isBuffer(body) ? body : JSON.stringify(body);
      const hmac = createHmac("sha256", secret).update(raw).digest("base64");
      return t.request("POST", pathOf(shop.events_url), { key: null, raw, headers: { "content-type": "application/json", "x-shopify-topic": topic, "x-shopify-hmac-sha256": hmac } });
    };
    assert.equal((await send("customers/data_request", { n: 0 }, "wrong")).status, 401);
    assert.equal((await send("orders/create", { n: 1 })).status, 200);
    // signed over the bytes as they came, UTF-8 or not
    assert.equal((await send("orders/create", Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]))).status, 200);
    assert.equal((await send("customers/data_request", { shop_domain: "fake-shop.myshopify.com", customer: { id: 7 } })).status, 200);
    const [got] = await waitEvents(t, src.id, 1, "", 10_000, ada.key);
    assert.deepEqual(got.event, { shop_domain: "fake-shop.myshopify.com", customer: { id: 7 } });
    assert.equal((await eventsOf(t, src.id, "", ada.key)).length, 1, "orders/create is not an event it takes");
  });

  it("a Slack interaction (a form-encoded payload) goes by interaction_events names; a GitHub webhook by X-GitHub-Event, signed", async () => {
    const ada = await t.newUser();
    const slack = await account(ada, "slack", { oauth_access_token: "xoxb-fake" });
    const inC1 = await createSource(t, SLACK_SOURCE.replace('if (event.type !== "message") return;', ""), {
      configured_props: { slack: { authProvisionId: slack.id }, slackApphook: ["interaction_events:C1:approve"] },
    }, ada.key);
    const payload = { type: "block_actions", channel: { id: "C1" }, actions: [{ action_id: "approve" }], text: "clicked", client_msg_id: "i1" };
    const form = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
    const res = await t.request("POST", pathOf(slack.events_url), { key: null, raw: form, headers: { "content-type": "application/x-www-form-urlencoded" } });
    assert.equal(res.status, 200, res.text);
    const [got] = await waitEvents(t, inC1.id, 1, "", 10_000, ada.key);
    assert.deepEqual(got.event.actions, [{ action_id: "approve" }], "the run got the parsed payload");

    const github = await account(ada, "github", { oauth_access_token: "gho_fake", webhook_secret: "gh-secret" });
    const code = `export default {
      props: { github: { type: "app", app: "github" }, hook: { type: "$.interface.apphook", appProp: "github", eventNames: ["push"] } },
      run(event) { this.$emit({ event: event.headers["x-github-event"], ref: event.body.ref }); },
    };`;
    const src = await createSource(t, code, { configured_props: { github: { authProvisionId: github.id } } }, ada.key);
    const send = (name: string, secret: string) => {
      const raw = JSON.stringify({ ref: `refs/heads/${name}` });
      const sig = `sha256=${createHmac("sha256", secret).update(raw).digest("hex")}`;
      return t.request("POST", pathOf(github.events_url), { key: null, raw, headers: { "content-type": "application/json", "x-github-event": name, "x-hub-signature-256": sig } });
    };
    assert.equal((await send("push", "wrong")).status, 401);
    assert.equal((await send("issues", "gh-secret")).status, 200);
    assert.equal((await send("push", "gh-secret")).status, 200);
    const [push] = await waitEvents(t, src.id, 1, "", 10_000, ada.key);
    assert.deepEqual(push.event, { event: "push", ref: "refs/heads/push" });
    assert.equal((await eventsOf(t, src.id, "", ada.key)).length, 1, "issues is not an event it takes");
  });

  it("another user's sources and accounts are unaffected; unknown URLs and accounts are 404; bodies are bounded; the URL can be replaced", async () => {
    const ada = await t.newUser();
    const bob = await t.newUser();
    const adas = await account(ada, "slack", { oauth_access_token: "xoxb-ada" });
    const bobs = await account(bob, "slack", { oauth_access_token: "xoxb-bob" });
    const adaSrc = await createSource(t, SLACK_SOURCE, { configured_props: { slack: { authProvisionId: adas.id } } }, ada.key);
    const bobSrc = await createSource(t, SLACK_SOURCE, { configured_props: { slack: { authProvisionId: bobs.id } } }, bob.key);

    assert.equal((await t.request("POST", pathOf(adas.events_url), { key: null, body: messageEvent("for-ada") })).status, 200);
    await waitEvents(t, adaSrc.id, 1, "", 10_000, ada.key);
    const toAda = await t.request("POST", `/v1/accounts/${adas.id}/events`, { key: bob.key, body: { name: "message", event: { type: "message" } } });
    assert.equal(toAda.status, 404, toAda.text);
    assert.equal((await t.request("POST", `/v1/accounts/${bobs.id}/events`, { key: bob.key, body: { name: "message", event: messageEvent("for-bob").event } })).status, 200);
    const [bobs1] = await waitEvents(t, bobSrc.id, 1, "", 10_000, bob.key);
    assert.equal(bobs1.event.text, "for-bob");
    assert.deepEqual((await eventsOf(t, bobSrc.id, "", bob.key)).map((e) => e.event.text), ["for-bob"], "ada's event never reached bob's source");
    assert.deepEqual((await eventsOf(t, adaSrc.id, "", ada.key)).map((e) => e.event.text), ["for-ada"]);

    const unknown = await t.request("POST", `/app-events/${"0".repeat(32)}`, { key: null, body: messageEvent("x") });
    assert.equal(unknown.status, 404, unknown.text);
    const big = await t.request("POST", pathOf(adas.events_url), { key: null, body: { type: "event_callback", event: { type: "message", text: "x".repeat(600 * 1024) } } });
    assert.equal(big.status, 413, big.text);
    const noName = await t.request("POST", `/v1/accounts/${adas.id}/events`, { key: ada.key, body: { event: {} } });
    assert.equal(noName.status, 400, noName.text);

    // a leaked URL is replaced: the old one is gone, the new one delivers
    assert.equal((await t.request("POST", `/v1/accounts/${adas.id}/events_url`, { key: bob.key })).status, 404);
    const rotated = await t.request("POST", `/v1/accounts/${adas.id}/events_url`, { key: ada.key });
    assert.equal(rotated.status, 200, rotated.text);
    assert.notEqual(rotated.body.data.events_url, adas.events_url);
    assert.equal((await t.request("POST", pathOf(adas.events_url), { key: null, body: messageEvent("old-url") })).status, 404);
    assert.equal((await t.request("POST", pathOf(rotated.body.data.events_url), { key: null, body: messageEvent("new-url") })).status, 200);
    await waitEvents(t, adaSrc.id, 2, "", 10_000, ada.key);
    assert.deepEqual((await eventsOf(t, adaSrc.id, "", ada.key)).map((e) => e.event.text), ["new-url", "for-ada"]);
  });
  it("an event the app sends again after a failure part way reaches only the sources it missed (by the app's id of it)", async () => {
    const ada = await t.newUser();
    const slack = await account(ada, "slack", { oauth_access_token: "xoxb-fake", signing_secret: SIGNING_SECRET });
    // no dedupe of its own: each run of it is an event on its stream
    const code = `export default {
      props: { slack: { type: "app", app: "slack" }, hook: { type: "$.interface.apphook", appProp: "slack", eventNames: ["message"] } },
      run(event) { this.$emit({ text: event.text }); },
    };`;
    const props = { configured_props: { slack: { authProvisionId: slack.id } } };
    const first = await createSource(t, code, props, ada.key);
    const second = await createSource(t, code, props, ada.key);
    const path = pathOf(slack.events_url);

    // the second source's run can't be accepted once (the store failing): the first takes the
    // event, the app is answered an error and sends it again (Slack: the same event_id). Failed
    // where app hooks accept a run, not where sources are read: on PostgreSQL the inbox pump,
    // reading the inbox back, read the second source first and took the one failure.
    const runtime = t.app.core.runtime;
    const acceptRun = runtime.acceptRun;
    let failing = true;
    runtime.acceptRun = function (target, event) {
      if (target.source.id === second.id && failing) {
        failing = false;
        return Promise.reject(new Error("the store is unavailable"));
      }
      return acceptRun.call(this, target, event);
    };
    try {
      const failed = await t.request("POST", path, slackRequest(messageEvent("once")));
      assert.ok(failed.status >= 500, `${failed.status} ${failed.text}`);
    } finally {
      runtime.acceptRun = acceptRun;
    }
    assert.equal(failing, false, "the second source's acceptance failed");
    const retried = await t.request("POST", path, slackRequest(messageEvent("once")));
    assert.equal(retried.status, 200, retried.text);
    // once it reached every source, the same id again runs nothing; a new event runs both
    assert.equal((await t.request("POST", path, slackRequest(messageEvent("once")))).status, 200);
    assert.equal((await t.request("POST", path, slackRequest(messageEvent("later")))).status, 200);
    for (const src of [first, second]) {
      // a source's runs go in order: once "later" is there, every run of "once" before it has emitted
      const events = await waitFor(async () => {
        const got = await eventsOf(t, src.id, "", ada.key);
        return got.some((e) => e.event.text === "later") && got;
      }, 10_000, `"later" on ${src.id}`);
      assert.deepEqual(events.map((e) => e.event.text), ["later", "once"], `${src.id} ran "once" once`);
    }
  });

  it("accounts a node of the previous version made (no events key) have no events_url until edited, then each its own; their URL-less path is 404", async () => {
    const ada = await t.newUser();
    const made = await account(ada, "slack", { oauth_access_token: "xoxb-1" });
    const row = (await t.app.store.accounts.byId(made.id))!;
    for (const id of ["apn_oldnode1", "apn_oldnode2"]) await t.app.store.accounts.insert({ ...row, id, events_key: null });
    const listed = await t.request("GET", "/v1/accounts/apn_oldnode1", { key: ada.key });
    assert.equal(listed.status, 200, listed.text);
    assert.equal(listed.body.data.events_url, null);
    const urls: string[] = [];
    for (const id of ["apn_oldnode1", "apn_oldnode2"]) {
      const renamed = await t.request("PUT", `/v1/accounts/${id}`, { key: ada.key, body: { name: `renamed-${id}` } });
      assert.equal(renamed.status, 200, renamed.text);
      urls.push(renamed.body.data.events_url);
    }
    assert.ok(urls.every((u) => /\/app-events\/[0-9a-f]{32}$/.test(u)) && urls[0] !== urls[1], urls.join(" "));
    assert.equal((await t.request("POST", "/app-events/", { key: null, body: messageEvent("x") })).status, 404);
  });
});
