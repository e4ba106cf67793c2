import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createSource, startApp, waitEvents, type TestApp } from "./helpers.ts";
import { connect } from "./sse-client.ts";

// GET /sources/{id}/sse on a real port (docs/api.md, "Live streams (SSE)").

const EMITTER = `export default { run(event) { for (const e of event.emits || []) this.$emit(e); } };`;


async function until(check: () => boolean, ms = 5000, what = "condition") {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("SSE", () => {
  let t: TestApp;
  let base: string;
  before(async () => {
    t = await startApp();
    await t.app.http.listen({ port: 0, host: "127.0.0.1" });
    const addr = t.app.http.server.address() as { port: number };
    base = `http://127.0.0.1:${addr.port}`;
  });
  after(() => t.close());

  const run = (id: string, emits: unknown[]) => t.request("POST", `/v1/sources/${id}/run`, { body: { event: { emits } } });

  it("streams each new event as id + data lines, in order, after a handshake comment", async () => {
    const src = await createSource(t, EMITTER);
    const c = await connect(`${base}/sources/${src.id}/sse`, { authorization: `Bearer ${t.adminKey}` });
    try {
      assert.equal(c.status, 200);
      assert.match(c.headers.get("content-type") ?? "", /^text\/event-stream/);
      assert.equal(c.headers.get("cache-control"), "no-store");
      assert.equal(c.headers.get("x-accel-buffering"), "no");
      await until(() => c.text().startsWith(":sse-handshake\n\n"), 5000, "handshake");
      await run(src.id, [{ n: 1 }, { n: 2 }]);
      await run(src.id, [{ n: 3 }]);
      await until(() => c.messages().length === 3, 5000, "3 messages");
      const msgs = c.messages();
      assert.deepEqual(msgs.map((m) => m.data.event), [{ n: 1 }, { n: 2 }, { n: 3 }]);
      assert.deepEqual(msgs.map((m) => m.id), msgs.map((m) => m.data.id));
      assert.doesNotMatch(c.text(), /^event:/m);
      assert.equal(msgs[0].data.metadata.emitter_id, src.id);
    } finally {
      c.close();
    }
  });

  it("never truncates, and ?event_name= picks another stream", async () => {
    const src = await createSource(t, `export default { run() { this.$emit({ big: "x".repeat(3000) }); this.$emit({ c: 1 }, { name: "custom" }); } };`);
    const c = await connect(`${base}/sources/${src.id}/sse?event_name=custom&access_token=${t.adminKey}`);
    const d = await connect(`${base}/sources/${src.id}/sse?access_token=${t.adminKey}`);
    try {
      await t.request("POST", `/v1/sources/${src.id}/run`, { body: {} });
      await until(() => c.messages().length === 1 && d.messages().length === 1, 5000, "messages");
      assert.deepEqual(c.messages()[0].data.event, { c: 1 });
      assert.equal(d.messages()[0].data.event.big.length, 3000);
    } finally {
      c.close();
      d.close();
    }
  });

  it("Last-Event-ID replays the retained events after it, then goes live, without duplicates", async () => {
    const src = await createSource(t, EMITTER);
    await run(src.id, [{ n: 1 }, { n: 2 }, { n: 3 }]);
    const events = (await waitEvents(t, src.id, 3)).reverse();
    const c = await connect(`${base}/sources/${src.id}/sse`, {
      authorization: `Bearer ${t.adminKey}`,
      "last-event-id": events[0].id,
    });
    try {
      await until(() => c.messages().length === 2, 5000, "replay");
      await run(src.id, [{ n: 4 }]);
      await until(() => c.messages().length === 3, 5000, "live message");
      assert.deepEqual(c.messages().map((m) => m.data.event.n), [2, 3, 4]);
    } finally {
      c.close();
    }
  });

  it("401 without a key, 404 for another user's source; deleting the source ends the stream", async () => {
    const src = await createSource(t, EMITTER);
    const anon = await fetch(`${base}/sources/${src.id}/sse`);
    assert.equal(anon.status, 401);
    assert.equal(((await anon.json()) as any).error.code, "unauthorized");
    const other = await t.newUser();
    const res = await fetch(`${base}/sources/${src.id}/sse`, { headers: { authorization: `Bearer ${other.key}` } });
    assert.equal(res.status, 404);
    await res.body?.cancel();
    const c = await connect(`${base}/sources/${src.id}/sse`, { authorization: `Bearer ${t.adminKey}` });
    await until(() => c.text().includes(":sse-handshake"), 5000, "handshake");
    assert.equal((await t.request("DELETE", `/v1/sources/${src.id}`)).status, 200);
    await Promise.race([c.ended, new Promise((_, rej) => setTimeout(() => rej(new Error("stream did not end")), 5000))]);
  });
});
