import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { resolveConfig } from "../src/config.ts";
import { buildApp, type App } from "../src/app.ts";
import {
  assertErrorEnvelope, assertRecentSeconds, createSource, detailFields, eventsOf, startApp, waitEvents, waitFor, type TestApp,
} from "./helpers.ts";

// Webhooks (docs/api.md, "Webhooks"): managing them, and the signed, retried, ordered POSTs of
// the events they are subscribed to, received by a real HTTP server on 127.0.0.1.

const WEBHOOK_FIELDS = ["active", "created_at", "description", "id", "name", "secret", "updated_at", "url", "user_id"];

/** Emits what the run's event lists: {emits: [{event, meta?}]} (as in events.test.ts). */
const EMITTER = `
export default {
  props: { db: "$.service.db" },
  run(event) {
    for (const e of (event && event.emits) || []) this.$emit(e.event, e.meta);
  },
};`;

interface User {
  id: string;
  key: string;
}

interface Received {
  path: string;
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

interface Receiver {
  origin: string;
  hostPort: string;
  received: Received[];
  /** what arrived at `path` so far */
  at(path: string): Received[];
  /** paths answered 503 for now, whatever their name says */
  down: Set<string>;
  close(): Promise<void>;
}

/**
 * A webhook receiver on 127.0.0.1 (port 0). `/flaky...` answers 500 to its first two requests,
 * `/fail...` always 500, `/picky...` 500 when the body mentions "reject"; anything else 200.
 */
async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const down = new Set<string>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = (req.url ?? "/").split("?")[0];
      const body = Buffer.concat(chunks).toString("utf8");
      received.push({ path, method: req.method ?? "", headers: req.headers, body, at: Date.now() });
      const n = received.filter((r) => r.path === path).length;
      let status = 200;
      if (path.startsWith("/flaky") && n <= 2) status = 500;
      if (path.startsWith("/fail")) status = 500;
      if (path.startsWith("/picky") && body.includes("reject")) status = 500;
      if (down.has(path)) status = 503;
      res.writeHead(status, { "content-type": "text/plain" }).end(status === 200 ? "ok" : "no");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hostPort: `127.0.0.1:${port}`,
    received,
    at: (path) => received.filter((r) => r.path === path),
    down,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const qs = (params: Record<string, string>) => new URLSearchParams(params).toString();
const sign = (secret: string, body: string) => "sha256=" + createHmac("sha256", secret).update(body).digest("hex");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function createWebhook(t: TestApp, user: User, params: Record<string, string>) {
  const res = await t.request("POST", `/v1/webhooks?${qs(params)}`, { key: user.key });
  assert.equal(res.status, 200, res.text);
  return res.body.data as { id: string; secret: string; url: string; name: string; description: string; user_id: string };
}

async function subscribe(t: TestApp, user: User, emitterId: string, listenerId: string) {
  const res = await t.request("POST", `/v1/subscriptions?${qs({ emitter_id: emitterId, listener_id: listenerId })}`, { key: user.key });
  assert.equal(res.status, 200, res.text);
  return res.body.data;
}

async function run(t: TestApp, user: User, sourceId: string, ...emits: { event: unknown; meta?: unknown }[]) {
  const res = await t.request("POST", `/v1/sources/${sourceId}/run`, { key: user.key, body: { event: { emits } } });
  assert.equal(res.status, 202, res.text);
}

/** waits until `path` has received at least `n` requests; returns them in arrival order */
const waitReceived = (r: Receiver, path: string, n: number, ms = 10_000) =>
  waitFor(async () => (r.at(path).length >= n ? r.at(path) : undefined), ms, `${n} POSTs to ${path}`);

describe("webhooks", () => {
  let t: TestApp;
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver();
    t = await startApp({ TRIBUTARY_FETCH_ALLOW: receiver.hostPort, TRIBUTARY_WEBHOOK_BACKOFF_MS: "50,50,50,50" });
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  async function listWebhooks(user: User, query = ""): Promise<any> {
    const res = await t.request("GET", `/v1/users/me/webhooks${query}`, { key: user.key });
    assert.equal(res.status, 200, res.text);
    return res.body;
  }

  // ---- managing --------------------------------------------------------------------------------

  it("POST /webhooks?url&name&description: 200 with the webhook and its secret", async () => {
    const user = await t.newUser();
    const url = "https://hooks.example.com/in?token=abc";
    const res = await t.request("POST", `/v1/webhooks?${qs({ url, name: "My hook", description: "where events go" })}`, { key: user.key });
    assert.equal(res.status, 200, res.text);
    assert.match(String(res.headers["content-type"]), /^application\/json; charset=utf-8/i);
    const w = res.body.data;
    assert.deepEqual(Object.keys(w).sort(), WEBHOOK_FIELDS);
    assert.match(w.id, /^wh_[A-Za-z0-9_-]{8,22}$/);
    assert.equal(w.user_id, user.id);
    assert.equal(w.name, "My hook");
    assert.equal(w.description, "where events go");
    assert.equal(w.url, url);
    assert.equal(w.active, true);
    assert.equal(typeof w.secret, "string");
    assert.ok(w.secret.length >= 16, "the secret is long enough to be unguessable");
    assertRecentSeconds(w.created_at, "created_at");
    assertRecentSeconds(w.updated_at, "updated_at");
    const again = await createWebhook(t, user, { url });
    assert.notEqual(again.id, w.id);
    assert.notEqual(again.secret, w.secret, "each webhook has its own secret");
    const plainHttp = await createWebhook(t, user, { url: "http://hooks.example.com/plain" });
    assert.equal(plainHttp.url, "http://hooks.example.com/plain");
  });

  it("bad or missing url is 400 invalid_request and creates nothing", async () => {
    const user = await t.newUser();
    for (const query of ["", "?name=x", `?${qs({ url: "" })}`, `?${qs({ url: "ftp://x" })}`, `?${qs({ url: "not a url" })}`, `?${qs({ url: "file:///etc/passwd" })}`]) {
      const res = await t.request("POST", `/v1/webhooks${query}`, { key: user.key });
      assertErrorEnvelope(res, 400, "invalid_request");
      assert.ok(detailFields(res).includes("url"), `${query}: ${res.text}`);
    }
    assertErrorEnvelope(await t.request("POST", `/v1/webhooks?${qs({ url: "https://x.example" })}`, { key: null }), 401, "unauthorized");
    assert.equal((await listWebhooks(user)).page_info.total_count, 0);
  });

  it("GET /users/me/webhooks: the caller's only, newest first, paginated, never the secret", async () => {
    const user = await t.newUser();
    const other = await t.newUser();
    const made = [];
    for (let i = 1; i <= 3; i++) made.push(await createWebhook(t, user, { url: `https://example.com/${i}`, name: `h${i}`, description: `d${i}` }));
    await createWebhook(t, other, { url: "https://example.com/theirs", name: "theirs" });

    const all = await listWebhooks(user);
    assert.deepEqual(all.data.map((w: any) => w.name), ["h3", "h2", "h1"]);
    assert.equal(all.page_info.total_count, 3);
    assert.equal(all.page_info.count, 3);
    for (const w of all.data) {
      assert.deepEqual(Object.keys(w).sort(), WEBHOOK_FIELDS.filter((f) => f !== "secret"));
      assert.equal(w.user_id, user.id);
    }
    const { secret: _secret, ...shown } = made[2];
    assert.deepEqual(all.data[0], shown);
    for (const m of made) assert.ok(!JSON.stringify(all).includes(m.secret), "no secret in the list");

    const first = await listWebhooks(user, "?limit=2");
    assert.deepEqual(first.data.map((w: any) => w.name), ["h3", "h2"]);
    assert.equal(first.page_info.total_count, 3);
    assert.equal(first.page_info.count, 2);
    assert.equal(Buffer.from(first.page_info.end_cursor, "base64url").toString(), made[1].id);
    const second = await listWebhooks(user, `?limit=2&after=${first.page_info.end_cursor}`);
    assert.deepEqual(second.data.map((w: any) => w.name), ["h1"]);
    assert.equal(second.page_info.start_cursor, second.page_info.end_cursor);
    const back = await listWebhooks(user, `?limit=1&before=${second.page_info.start_cursor}`);
    assert.deepEqual(back.data.map((w: any) => w.name), ["h2"]);
    const empty = await listWebhooks(user, `?after=${second.page_info.end_cursor}`);
    assert.deepEqual(empty.page_info, { total_count: 3, count: 0, start_cursor: "", end_cursor: "" });
    for (const q of ["limit=0", "limit=101", "after=%%%"]) {
      assertErrorEnvelope(await t.request("GET", `/v1/users/me/webhooks?${q}`, { key: user.key }), 400, "invalid_request");
    }
    const theirs = await listWebhooks(other);
    assert.deepEqual(theirs.data.map((w: any) => w.name), ["theirs"]);
  });

  it("DELETE /webhooks/{id}: {id, deleted: true}, then 404; another user's is 404 and stays", async () => {
    const user = await t.newUser();
    const other = await t.newUser();
    const mine = await createWebhook(t, user, { url: "https://example.com/mine" });
    const theirs = await createWebhook(t, other, { url: "https://example.com/theirs" });
    const src = await createSource(t, EMITTER, {}, user.key);
    await subscribe(t, user, src.id, mine.id);

    assertErrorEnvelope(await t.request("DELETE", `/v1/webhooks/${theirs.id}`, { key: user.key }), 404, "not_found");
    assert.equal((await listWebhooks(other)).page_info.total_count, 1, "another user's webhook stays");
    assertErrorEnvelope(await t.request("DELETE", "/v1/webhooks/wh_doesnotexist000", { key: user.key }), 404, "not_found");

    const del = await t.request("DELETE", `/v1/webhooks/${mine.id}`, { key: user.key });
    assert.equal(del.status, 200, del.text);
    assert.deepEqual(del.body, { data: { id: mine.id, deleted: true } });
    assertErrorEnvelope(await t.request("DELETE", `/v1/webhooks/${mine.id}`, { key: user.key }), 404, "not_found");
    assert.equal((await listWebhooks(user)).page_info.total_count, 0);
    const subs = await t.request("GET", "/v1/users/me/subscriptions", { key: user.key });
    assert.deepEqual(subs.body.data, [], "its subscriptions went with it");
  });

  it("a webhook is a listener: subscribing your own works; another user's is 404", async () => {
    const user = await t.newUser();
    const other = await t.newUser();
    const src = await createSource(t, EMITTER, {}, user.key);
    const mine = await createWebhook(t, user, { url: `${receiver.origin}/unused` });
    const theirs = await createWebhook(t, other, { url: `${receiver.origin}/unused` });
    const sub = await subscribe(t, user, src.id, mine.id);
    assert.match(sub.id, /^sub_/);
    assert.equal(sub.emitter_id, src.id);
    assert.equal(sub.listener_id, mine.id);
    assert.equal(sub.event_name, "");
    const res = await t.request("POST", `/v1/subscriptions?${qs({ emitter_id: src.id, listener_id: theirs.id })}`, { key: user.key });
    assertErrorEnvelope(res, 404, "not_found");
    assertErrorEnvelope(
      await t.request("POST", `/v1/subscriptions?${qs({ emitter_id: src.id, listener_id: "wh_doesnotexist000" })}`, { key: user.key }),
      404,
      "not_found",
    );
    const subs = await t.request("GET", "/v1/users/me/subscriptions", { key: user.key });
    assert.deepEqual(subs.body.data.map((s: any) => s.listener_id), [mine.id]);
  });

  // ---- delivering --------------------------------------------------------------------------------

  it("an emitted event is POSTed as the event summary item, with its id and an HMAC signature", async () => {
    const user = await t.newUser();
    const src = await createSource(t, EMITTER, {}, user.key);
    const hook = await createWebhook(t, user, { url: `${receiver.origin}/ok-signed` });
    await subscribe(t, user, src.id, hook.id);
    await run(t, user, src.id, { event: { hello: "world", n: 1 }, meta: { id: "e-1", summary: "the first" } });

    const [got] = await waitReceived(receiver, "/ok-signed", 1);
    assert.equal(got.method, "POST");
    assert.match(String(got.headers["content-type"]), /^application\/json/);
    const body = JSON.parse(got.body);
    assert.deepEqual(Object.keys(body).sort(), ["event", "id", "indexed_at_ms", "metadata"]);
    assert.match(body.id, /^\d+-\d+$/);
    assert.equal(typeof body.indexed_at_ms, "number");
    assert.deepEqual(body.event, { hello: "world", n: 1 });
    assert.equal(body.metadata.emitter_id, src.id);
    assert.equal(body.metadata.name, "");
    assert.equal(body.metadata.id, "e-1");
    assert.equal(body.metadata.summary, "the first");
    assert.equal(typeof body.metadata.emit_id, "string");
    // the same item the event list shows
    const [listed] = await eventsOf(t, src.id, "", user.key);
    assert.deepEqual(body, listed);

    assert.equal(got.headers["x-tributary-event-id"], body.id);
    assert.equal(got.headers["x-tributary-signature"], sign(hook.secret, got.body));
    assert.notEqual(got.headers["x-tributary-signature"], sign("not-the-secret", got.body));

    await sleep(600);
    assert.equal(receiver.at("/ok-signed").length, 1, "a 2xx is not retried");
  });

  it("an event over 1 KB is POSTed whole, never truncated", async () => {
    const user = await t.newUser();
    const src = await createSource(t, EMITTER, {}, user.key);
    const hook = await createWebhook(t, user, { url: `${receiver.origin}/ok-big` });
    await subscribe(t, user, src.id, hook.id);
    const big = { text: "é".repeat(3000) };
    await run(t, user, src.id, { event: big });
    const [got] = await waitReceived(receiver, "/ok-big", 1);
    assert.deepEqual(JSON.parse(got.body).event, big);
    assert.equal(got.headers["x-tributary-signature"], sign(hook.secret, got.body));
  });

  it("events arrive in emit order, across runs", async () => {
    const user = await t.newUser();
    const src = await createSource(t, EMITTER, {}, user.key);
    const hook = await createWebhook(t, user, { url: `${receiver.origin}/ok-ordered` });
    await subscribe(t, user, src.id, hook.id);
    await run(t, user, src.id, { event: "a" }, { event: "b" });
    await run(t, user, src.id, { event: "c" });
    await run(t, user, src.id, { event: "d" }, { event: "e" });
    const got = await waitReceived(receiver, "/ok-ordered", 5);
    const bodies = got.map((r) => JSON.parse(r.body));
    assert.deepEqual(bodies.map((b) => b.event), ["a", "b", "c", "d", "e"]);
    const listed = (await eventsOf(t, src.id, "", user.key)).reverse(); // oldest first
    assert.deepEqual(bodies.map((b) => b.id), listed.map((i) => i.id));
  });

  it("a receiver answering 500 twice then 200 gets the same event 3 times, then no more", async () => {
    const user = await t.newUser();
    const src = await createSource(t, EMITTER, {}, user.key);
    const hook = await createWebhook(t, user, { url: `${receiver.origin}/flaky-1` });
    await subscribe(t, user, src.id, hook.id);
    await run(t, user, src.id, { event: { retry: "me" } });
    const got = await waitReceived(receiver, "/flaky-1", 3);
    assert.equal(new Set(got.map((r) => r.body)).size, 1, "the same body each time");
    assert.equal(new Set(got.map((r) => r.headers["x-tributary-event-id"])).size, 1, "the same event id each time");
    assert.deepEqual(JSON.parse(got[0].body).event, { retry: "me" });
    for (const r of got) assert.equal(r.headers["x-tributary-signature"], sign(hook.secret, r.body));
    await sleep(1000); // 20 backoff periods
    assert.equal(receiver.at("/flaky-1").length, 3, "delivered once it got a 2xx");
  });

  it("a receiver that always fails gets exactly 5 tries", async () => {
    const user = await t.newUser();
    const src = await createSource(t, EMITTER, {}, user.key);
    const hook = await createWebhook(t, user, { url: `${receiver.origin}/fail-always` });
    await subscribe(t, user, src.id, hook.id);
    await run(t, user, src.id, { event: { doomed: true } });
    const got = await waitReceived(receiver, "/fail-always", 5);
    assert.equal(new Set(got.map((r) => r.headers["x-tributary-event-id"])).size, 1);
    await sleep(1000); // 20 backoff periods
    assert.equal(receiver.at("/fail-always").length, 5, "gives up after 5 tries");
  });

  it("a failing event holds later ones back until it is given up on; order is kept", async () => {
    const user = await t.newUser();
    const src = await createSource(t, EMITTER, {}, user.key);
    const hook = await createWebhook(t, user, { url: `${receiver.origin}/picky` });
    await subscribe(t, user, src.id, hook.id);
    await run(t, user, src.id, { event: "reject this" }, { event: "accept this" });
    const got = await waitReceived(receiver, "/picky", 6);
    assert.deepEqual(got.map((r) => JSON.parse(r.body).event), [...Array(5).fill("reject this"), "accept this"]);
    await sleep(600);
    assert.equal(receiver.at("/picky").length, 6);
  });

  it("a webhook subscribed to a workflow gets its events as {raw_event}", async () => {
    const user = await t.newUser();
    const wf = await t.request("POST", "/v1/workflows", {
      key: user.key,
      body: {
        name: "to a webhook",
        trigger: { type: "http" },
        steps: [{ name: "send", code: "export default { async run({ steps, $ }) { $.send.emit({ raw_event: steps.trigger.event.body }); } };" }],
      },
    });
    assert.equal(wf.status, 200, wf.text);
    const w = wf.body.data;
    const hook = await createWebhook(t, user, { url: `${receiver.origin}/ok-workflow` });
    await subscribe(t, user, w.id, hook.id);
    const hit = await t.request("POST", new URL(w.trigger.endpoint_url).pathname, { key: null, body: { from: "workflow" } });
    assert.equal(hit.status, 200, hit.text);
    const [got] = await waitReceived(receiver, "/ok-workflow", 1);
    const body = JSON.parse(got.body);
    assert.deepEqual(body.event, { raw_event: { from: "workflow" } });
    assert.equal(body.metadata.emitter_id, w.id);
    assert.equal(got.headers["x-tributary-signature"], sign(hook.secret, got.body));
  });

  it("a deleted webhook receives nothing more", async () => {
    const user = await t.newUser();
    const src = await createSource(t, EMITTER, {}, user.key);
    const hook = await createWebhook(t, user, { url: `${receiver.origin}/ok-deleted` });
    await subscribe(t, user, src.id, hook.id);
    await run(t, user, src.id, { event: 1 });
    await waitReceived(receiver, "/ok-deleted", 1);
    assert.equal((await t.request("DELETE", `/v1/webhooks/${hook.id}`, { key: user.key })).status, 200);
    await run(t, user, src.id, { event: 2 });
    await waitEvents(t, src.id, 2, "", 10_000, user.key);
    await sleep(1000);
    assert.equal(receiver.at("/ok-deleted").length, 1);
  });
});

describe("webhooks without TRIBUTARY_FETCH_ALLOW", () => {
  let t: TestApp;
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver();
    t = await startApp({ TRIBUTARY_WEBHOOK_BACKOFF_MS: "50,50,50,50" });
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  it("a webhook at 127.0.0.1 never receives anything (loopback is refused)", async () => {
    const user = await t.newUser();
    const src = await createSource(t, EMITTER, {}, user.key);
    const hook = await createWebhook(t, user, { url: `${receiver.origin}/refused` });
    await subscribe(t, user, src.id, hook.id);
    await run(t, user, src.id, { event: { secret: "stays inside" } });
    await waitEvents(t, src.id, 1, "", 10_000, user.key);
    await sleep(1500); // every try (50 ms apart) is long over
    assert.deepEqual(receiver.received, []);
  });

  it("GET /webhooks/{id}/deliveries says why a refused address got nothing: failed, with last_error", async () => {
    const user = await t.newUser();
    const src = await createSource(t, EMITTER, {}, user.key);
    const hook = await createWebhook(t, user, { url: `${receiver.origin}/refused-history` });
    await subscribe(t, user, src.id, hook.id);
    await run(t, user, src.id, { event: { n: 1 } });
    const [event] = await waitEvents(t, src.id, 1, "", 10_000, user.key);
    const d = await waitFor(async () => {
      const res = await t.request("GET", `/v1/webhooks/${hook.id}/deliveries`, { key: user.key });
      assert.equal(res.status, 200, res.text);
      return res.body.data[0]?.status === "failed" ? res.body.data[0] : undefined;
    }, 10_000, "the delivery to fail");
    assert.equal(d.event_id, event.id);
    assert.equal(d.emitter_id, src.id);
    assert.equal(d.attempts, 5);
    assert.equal(d.last_status_code, null);
    assert.match(d.last_error, /loopback or private address/);
    assert.equal(d.next_attempt_at_ms, null);
    assert.equal(d.delivered_at_ms, null);
    assert.deepEqual(receiver.received, []);
  });
});

describe("a webhook lane that goes during a POST (its partition changed hands)", () => {
  it("a delivery that went through is done: the next owner doesn't send it again", async () => {
    // a receiver that holds /held requests until the test lets them go
    const got: string[] = [];
    const held: Array<() => void> = [];
    const server = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        got.push(JSON.parse(body).event.n);
        const answer = () => res.writeHead(200).end("ok");
        if (req.url === "/held" && got.length === 1) held.push(answer);
        else answer();
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as AddressInfo).port;
    const t = await startApp({ TRIBUTARY_FETCH_ALLOW: `127.0.0.1:${port}`, TRIBUTARY_WEBHOOK_BACKOFF_MS: "50,50,50,50" });
    try {
      const user = await t.newUser();
      const src = await createSource(t, EMITTER, {}, user.key);
      const hook = await createWebhook(t, user, { url: `http://127.0.0.1:${port}/held` });
      await subscribe(t, user, src.id, hook.id);
      await run(t, user, src.id, { event: { n: "first" } });
      await waitFor(async () => held.length === 1 || undefined, 10_000, "the POST to arrive");
      // the lane goes while the POST is under way, then the POST succeeds
      const deliveries = t.app.core.runtime.deliveries;
      deliveries.drop(hook.id);
      held[0]!();
      await waitFor(async () => {
        const res = await t.request("GET", `/v1/webhooks/${hook.id}/deliveries`, { key: user.key });
        return res.body.data[0]?.status === "delivered" || undefined;
      }, 10_000, "the delivery recorded as delivered");
      // the next owner reads what waits in the store, and a later event comes after it
      deliveries.wake(hook.id);
      await run(t, user, src.id, { event: { n: "second" } });
      await waitFor(async () => got.includes("second") || undefined, 10_000, "the second event").catch((e) => { throw new Error(`${e.message}: got ${JSON.stringify(got)}`); });
      assert.deepEqual(got, ["first", "second"]);
    } finally {
      await t.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});

describe("a webhook whose receiver keeps failing", () => {
  let t: TestApp;
  before(async () => {
    // loopback without TRIBUTARY_FETCH_ALLOW: every try fails at once
    t = await startApp({ TRIBUTARY_WEBHOOK_BACKOFF_MS: "200,200,200,200", TRIBUTARY_WEBHOOK_MAX_PENDING: "3" });
  });
  after(async () => t.close());

  it("past TRIBUTARY_WEBHOOK_MAX_PENDING waiting deliveries, the oldest are dropped and say so in its history", async () => {
    const user = await t.newUser();
    const src = await createSource(t, `export default { async run() { for (let i = 0; i < 10; i++) this.$emit({ i }); } };`, {}, user.key);
    const hook = await createWebhook(t, user, { url: "http://127.0.0.1:9/dead" });
    await subscribe(t, user, src.id, hook.id);
    await run(t, user, src.id, { event: {} });
    await waitEvents(t, src.id, 10, "", 10_000, user.key);
    const history = await waitFor(async () => {
      const res = await t.request("GET", `/v1/webhooks/${hook.id}/deliveries?limit=50`, { key: user.key });
      const rows = res.body.data as { status: string; last_error: string | null }[];
      return rows.length === 10 && rows.every((r) => r.status === "failed") ? rows : undefined;
    }, 20_000, "every delivery to end");
    const dropped = history.filter((r) => /^dropped: more than 3 deliveries waited/.test(r.last_error ?? ""));
    assert.equal(dropped.length, 7, JSON.stringify(history));
    // the 3 kept were each tried 5 times, as ever
    assert.equal(history.filter((r) => /loopback or private address/.test(r.last_error ?? "")).length, 3);
  });
});

describe("webhooks across a restart", () => {
  const env = (r: Receiver) => ({ TRIBUTARY_FETCH_ALLOW: r.hostPort, TRIBUTARY_WEBHOOK_BACKOFF_MS: "300,300,300,300" });
  let t: TestApp;
  let second: App | undefined;
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver();
    t = await startApp(env(receiver));
  });
  after(async () => {
    await second?.close();
    await t.close();
    await receiver.close();
  });

  it("a delivery still owed at shutdown is sent after the restart, in order", async () => {
    const user = await t.newUser();
    const src = await createSource(t, EMITTER, {}, user.key);
    const hook = await createWebhook(t, user, { url: `${receiver.origin}/ok-restart` });
    await subscribe(t, user, src.id, hook.id);
    receiver.down.add("/ok-restart");
    await run(t, user, src.id, { event: "a" }, { event: "b" });
    await waitReceived(receiver, "/ok-restart", 1);
    await t.app.close();
    const triesBefore = receiver.at("/ok-restart").length;
    receiver.down.delete("/ok-restart");

    second = await buildApp(
      resolveConfig({ TRIBUTARY_DATA_DIR: t.dataDir, TRIBUTARY_ADMIN_KEY: t.adminKey, TRIBUTARY_PUBLIC_URL: "http://tributary.test", ...t.storeEnv, ...env(receiver) }),
      { logger: false },
    );
    const got = await waitFor(async () => {
      const ok = receiver.at("/ok-restart").slice(triesBefore).map((r) => JSON.parse(r.body).event);
      return ok.includes("b") ? ok : undefined;
    }, 10_000, "both events after the restart");
    assert.deepEqual(got, ["a", "b"], "delivered once each after the restart, a before b");
    const all = receiver.at("/ok-restart").map((r) => JSON.parse(r.body).event);
    assert.ok(all.indexOf("b") > all.lastIndexOf("a"), `b only once a went through: ${all.join(",")}`);
    assert.ok(all.filter((e) => e === "a").length <= 5, "at most 5 tries in all");
  });
});

describe("webhook details and delivery history", () => {
  let t: TestApp;
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver();
    t = await startApp({ TRIBUTARY_FETCH_ALLOW: receiver.hostPort, TRIBUTARY_WEBHOOK_BACKOFF_MS: "50,50,50,50" });
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  const history = async (user: User, id: string, query = "") => {
    const res = await t.request("GET", `/v1/webhooks/${id}/deliveries${query}`, { key: user.key });
    assert.equal(res.status, 200, res.text);
    return res.body;
  };

  /** waits until every delivery of the webhook's history (at least n) is no longer pending */
  const settled = (user: User, id: string, n: number) =>
    waitFor(async () => {
      const body = await history(user, id, "?limit=100");
      return body.data.length >= n && body.data.every((d: any) => d.status !== "pending") ? body.data : undefined;
    }, 15_000, `${n} settled deliveries of ${id}`);

  it("GET /webhooks/{id}: the webhook without its secret; another user's and unknown ids are 404; 401 without a key", async () => {
    const user = await t.newUser();
    const other = await t.newUser();
    const hook = await createWebhook(t, user, { url: `${receiver.origin}/detail`, name: "detail", description: "d" });
    const res = await t.request("GET", `/v1/webhooks/${hook.id}`, { key: user.key });
    assert.equal(res.status, 200, res.text);
    const { secret: _secret, ...expected } = hook as any;
    assert.deepEqual(res.body.data, expected);
    assert.deepEqual(Object.keys(res.body.data).sort(), WEBHOOK_FIELDS.filter((f) => f !== "secret"));
    assert.equal(res.text.includes("whsec_"), false);
    assertErrorEnvelope(await t.request("GET", `/v1/webhooks/${hook.id}`, { key: other.key }), 404, "not_found");
    assertErrorEnvelope(await t.request("GET", "/v1/webhooks/wh_doesnotexist00", { key: user.key }), 404, "not_found");
    assertErrorEnvelope(await t.request("GET", "/v1/webhooks/dc_notawebhook000", { key: user.key }), 404, "not_found");
    assertErrorEnvelope(await t.request("GET", `/v1/webhooks/${hook.id}`, { key: null }), 401, "unauthorized");
    const include = await t.request("GET", `/v1/webhooks/${hook.id}?include=id,url`, { key: user.key });
    assert.deepEqual(include.body.data, { id: hook.id, url: hook.url });
    const doc = (await t.request("GET", "/v1/openapi.json")).body;
    assert.ok(doc.paths["/v1/webhooks/{id}"]?.get, "GET /v1/webhooks/{id} in the OpenAPI document");
    assert.ok(doc.paths["/v1/webhooks/{id}/deliveries"]?.get, "deliveries in the OpenAPI document");
  });

  it("GET /webhooks/{id}/deliveries: newest first, delivered after retries, failed after 5 tries, paginated", async () => {
    const user = await t.newUser();
    const src = await createSource(t, EMITTER, {}, user.key);
    const ok = await createWebhook(t, user, { url: `${receiver.origin}/flaky-history` });
    const bad = await createWebhook(t, user, { url: `${receiver.origin}/fail-history` });
    await subscribe(t, user, src.id, ok.id);
    await subscribe(t, user, src.id, bad.id);
    const started = Date.now();
    await run(t, user, src.id, { event: { n: 1 } }, { event: { n: 2 } }, { event: { n: 3 } });
    const events = (await waitEvents(t, src.id, 3, "", 10_000, user.key)).reverse();

    const delivered = await settled(user, ok.id, 3);
    assert.deepEqual(delivered.map((d: any) => d.event_id), events.map((e) => e.id).reverse(), "newest first");
    const fields = ["attempts", "created_at_ms", "delivered_at_ms", "emitter_id", "event_id", "id", "last_error", "last_status_code", "next_attempt_at_ms", "status"];
    for (const d of delivered) {
      assert.deepEqual(Object.keys(d).sort(), fields);
      assert.equal(d.status, "delivered");
      assert.equal(d.emitter_id, src.id);
      assert.equal(d.last_status_code, 200);
      assert.equal(d.last_error, null);
      assert.equal(d.next_attempt_at_ms, null);
      assert.ok(d.created_at_ms >= started - 1000 && d.delivered_at_ms >= d.created_at_ms, JSON.stringify(d));
    }
    // the receiver answered 500 twice, so the oldest took 3 tries and the others one each
    assert.deepEqual(delivered.map((d: any) => d.attempts), [1, 1, 3]);

    const failed = await settled(user, bad.id, 3);
    for (const d of failed) {
      assert.equal(d.status, "failed");
      assert.equal(d.attempts, 5);
      assert.equal(d.last_status_code, 500);
      assert.equal(d.last_error, "HTTP 500");
      assert.equal(d.delivered_at_ms, null);
      assert.equal(d.next_attempt_at_ms, null);
    }

    // paging: limit, after, before; page_info as the other lists
    const first = await history(user, ok.id, "?limit=2");
    assert.equal(first.page_info.total_count, 3);
    assert.equal(first.page_info.count, 2);
    assert.deepEqual(first.data.map((d: any) => d.id), delivered.slice(0, 2).map((d: any) => d.id));
    const next = await history(user, ok.id, `?limit=2&after=${first.page_info.end_cursor}`);
    assert.deepEqual(next.data.map((d: any) => d.id), [delivered[2].id]);
    const back = await history(user, ok.id, `?limit=2&before=${next.page_info.start_cursor}`);
    assert.deepEqual(back.data.map((d: any) => d.id), first.data.map((d: any) => d.id));
    // another webhook's cursor is no position in this list
    const foreign = await history(user, bad.id, "?limit=1");
    assertErrorEnvelope(await t.request("GET", `/v1/webhooks/${ok.id}/deliveries?after=${foreign.page_info.start_cursor}`, { key: user.key }), 400, "invalid_request");
  });

  it("GET /webhooks/{id}/deliveries: bad paging is 400 with details, others' ids 404, no key 401; history goes with the webhook", async () => {
    const user = await t.newUser();
    const other = await t.newUser();
    const src = await createSource(t, EMITTER, {}, user.key);
    const hook = await createWebhook(t, user, { url: `${receiver.origin}/ok-history-gone` });
    await subscribe(t, user, src.id, hook.id);
    const empty = await history(user, hook.id);
    assert.deepEqual(empty, { page_info: { total_count: 0, count: 0, start_cursor: "", end_cursor: "" }, data: [] });
    for (const q of ["limit=0", "limit=101", "limit=abc", "after=%%%", "after=x&before=y"]) {
      const res = await t.request("GET", `/v1/webhooks/${hook.id}/deliveries?${q}`, { key: user.key });
      assertErrorEnvelope(res, 400, "invalid_request");
      assert.ok(detailFields(res).length > 0, res.text);
    }
    assertErrorEnvelope(await t.request("GET", `/v1/webhooks/${hook.id}/deliveries`, { key: other.key }), 404, "not_found");
    assertErrorEnvelope(await t.request("GET", "/v1/webhooks/wh_doesnotexist00/deliveries", { key: user.key }), 404, "not_found");
    assertErrorEnvelope(await t.request("GET", `/v1/webhooks/${hook.id}/deliveries`, { key: null }), 401, "unauthorized");

    await run(t, user, src.id, { event: { n: 1 } });
    await settled(user, hook.id, 1);
    assert.equal((await t.request("DELETE", `/v1/webhooks/${hook.id}`, { key: user.key })).status, 200);
    assertErrorEnvelope(await t.request("GET", `/v1/webhooks/${hook.id}/deliveries`, { key: user.key }), 404, "not_found");
    const rows = await t.app.store.webhookDeliveries.list(hook.id, { limit: 10 });
    assert.deepEqual(rows?.items, [], "its history was deleted with it");
  });
});

describe("webhook delivery history store", () => {
  let t: TestApp;
  before(async () => (t = await startApp()));
  after(() => t.close());

  it("trim keeps only a webhook's newest rows, and no other webhook's are touched", async () => {
    const store = t.app.store.webhookDeliveries;
    const row = (id: string, webhook_id: string) => ({
      id, webhook_id, user_id: "u_x", event_id: `1-${id}`, emitter_id: "dc_x", status: "delivered" as const, attempts: 1,
      last_status_code: 200, last_error: null, next_attempt_at_ms: null, created_at_ms: Date.now(), delivered_at_ms: Date.now(),
    });
    for (let i = 0; i < 6; i++) await store.record(row(`d_a${i}`, "wh_trim_a"));
    await store.record(row("d_b0", "wh_trim_b"));
    // a second record of the same id updates it in place
    await store.record({ ...row("d_a5", "wh_trim_a"), status: "failed", attempts: 5, last_status_code: null, last_error: "why" });
    await store.trim("wh_trim_a", 3);
    const a = await store.list("wh_trim_a", { limit: 10 });
    assert.deepEqual(a?.items.map((r) => r.id), ["d_a5", "d_a4", "d_a3"]);
    assert.equal(a?.total, 3);
    assert.deepEqual([a?.items[0].status, a?.items[0].attempts, a?.items[0].last_error], ["failed", 5, "why"]);
    assert.equal((await store.list("wh_trim_b", { limit: 10 }))?.total, 1);
    assert.equal(await store.deleteWebhook("wh_trim_a"), 3);

    // deliveries still owed (a receiver down, a backlog) are newer than the oldest ones that end:
    // trimming keeps the finished rows the history is for, and never drops a pending one
    for (let i = 0; i < 5; i++) await store.record(row(`d_c${i}`, "wh_trim_c"));
    for (let i = 0; i < 5; i++) await store.record({ ...row(`d_p${i}`, "wh_trim_c"), status: "pending", delivered_at_ms: null, last_status_code: null });
    await store.record({ ...row("d_c4", "wh_trim_c"), status: "failed", attempts: 5, last_status_code: 503, last_error: "HTTP 503" });
    await store.trim("wh_trim_c", 3);
    const c = await store.list("wh_trim_c", { limit: 20 });
    assert.deepEqual(c?.items.map((r) => r.id), ["d_p4", "d_p3", "d_p2", "d_p1", "d_p0", "d_c4", "d_c3", "d_c2"]);
  });
});

describe("webhook delivery history while a delivery waits to be tried again", () => {
  let t: TestApp;
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver();
    t = await startApp({ TRIBUTARY_FETCH_ALLOW: receiver.hostPort, TRIBUTARY_WEBHOOK_BACKOFF_MS: "600000,600000,600000,600000" });
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  it("a failed try leaves the delivery pending with attempts, last_status_code, last_error and next_attempt_at_ms", async () => {
    const user = await t.newUser();
    const src = await createSource(t, EMITTER, {}, user.key);
    const hook = await createWebhook(t, user, { url: `${receiver.origin}/fail-pending` });
    await subscribe(t, user, src.id, hook.id);
    const started = Date.now();
    await run(t, user, src.id, { event: { n: 1 } }, { event: { n: 2 } });
    const list = await waitFor(async () => {
      const res = await t.request("GET", `/v1/webhooks/${hook.id}/deliveries`, { key: user.key });
      assert.equal(res.status, 200, res.text);
      return res.body.data.length === 2 && res.body.data[1].attempts === 1 ? res.body.data : undefined;
    }, 10_000, "the first try");
    const [later, first] = list;
    assert.equal(first.status, "pending");
    assert.equal(first.last_status_code, 500);
    assert.equal(first.last_error, "HTTP 500");
    assert.ok(first.next_attempt_at_ms >= started + 600_000 && first.next_attempt_at_ms <= Date.now() + 600_000, JSON.stringify(first));
    assert.equal(first.delivered_at_ms, null);
    // the later one is held back behind it, not tried yet
    assert.equal(later.status, "pending");
    assert.equal(later.attempts, 0);
    assert.equal(later.last_status_code, null);
    assert.equal(later.last_error, null);
    assert.equal(receiver.at("/fail-pending").length, 1);
  });
});

describe("TRIBUTARY_WEBHOOK_BACKOFF_MS", () => {
  it("takes 4 waits in ms, none longer than a timer can wait", async () => {
    const { resolveConfig } = await import("../src/config.ts");
    assert.deepEqual(resolveConfig({ TRIBUTARY_WEBHOOK_BACKOFF_MS: "1,2,3,4" }).webhookBackoffMs, [1, 2, 3, 4]);
    for (const bad of ["1,2,3", "1,2,3,x", "1,2,3,-4", `1,2,3,${2 ** 31}`]) {
      assert.throws(() => resolveConfig({ TRIBUTARY_WEBHOOK_BACKOFF_MS: bad }), /TRIBUTARY_WEBHOOK_BACKOFF_MS/, bad);
    }
  });
});
