import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { assertErrorEnvelope, startApp, waitFor, type TestApp } from "../helpers.ts";

// HTTP-triggered workflows that answer their requests themselves (custom_response
// and $.respond), what steps see of their run ($.context, steps.trigger.context; both
// docs/writing-workflows.md, "Answering the request"),
// and emits on named streams. Black-box through the API and the workflow's endpoint.

interface User {
  id: string;
  key: string;
}

const step = (body: string) => `export default { async run({ steps, $ }) { ${body} } };`;

let t: TestApp;
// holds each request until the test lets it go: a step that fetches it waits for the test
let gate: Server;
let gateUrl = "";
const held: Array<() => void> = [];
before(async () => {
  gate = createServer((_req, res) => held.push(() => res.end("go")));
  await new Promise<void>((r) => gate.listen(0, "127.0.0.1", r));
  const port = (gate.address() as AddressInfo).port;
  gateUrl = `http://127.0.0.1:${port}/wait`;
  t = await startApp({ TRIBUTARY_FETCH_ALLOW: `127.0.0.1:${port}` });
});
after(async () => {
  await t.close();
  gate.closeAllConnections();
  gate.close();
});

async function workflow(user: User, steps: unknown[], trigger: Record<string, unknown> = { type: "http", custom_response: true }): Promise<any> {
  const res = await t.request("POST", "/v1/workflows", { key: user.key, body: { name: "http", steps, trigger } });
  assert.equal(res.status, 200, res.text);
  return res.body.data;
}

const send = (w: any, body: unknown) => t.request("POST", new URL(w.trigger.endpoint_url).pathname, { key: null, body });

// a run is listed from its first step's commit on: wait for it to end (the reply may go out
// before the steps after $.respond() have run)
const lastRun = (user: User, w: any) =>
  waitFor(async () => {
    const res = await t.request("GET", `/v1/workflows/${w.id}/runs`, { key: user.key });
    const run = res.body.data[0];
    return run && run.status !== "running" && run.status !== "suspended" ? run : undefined;
  }, 10_000, "a run that ended");

describe("custom_response and $.respond", () => {
  it("the reply is what a step gave $.respond(): status, headers, a JSON or text body", async () => {
    const user = await t.newUser();
    const w = await workflow(user, [
      { name: "compute", code: step(`return steps.trigger.event.body.n * 2;`) },
      { name: "reply", code: step(`$.respond({ status: 201, headers: { "x-answer": "yes" }, body: { doubled: steps.compute.$return_value } });`) },
      { name: "after", code: step(`return "ran after the reply was given";`) },
    ]);
    assert.equal(w.trigger.custom_response, true);
    const res = await send(w, { n: 21 });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.headers["x-answer"], "yes");
    assert.deepEqual(res.body, { doubled: 42 });
    assert.equal(res.headers["content-security-policy"], "sandbox");
    const run = await lastRun(user, w);
    assert.equal(run.status, "succeeded");
    assert.deepEqual(run.response, { status: 201 });

    const text = await workflow(user, [{ name: "r", code: step(`$.respond({ body: "plain " + steps.trigger.event.body.w });`) }]);
    const got = await send(text, { w: "words" });
    assert.equal(got.status, 200);
    assert.equal(got.text, "plain words");
  });

  it("$.respond({immediate: true}) answers at once while the step goes on; a later $.respond changes nothing", async () => {
    const user = await t.newUser();
    const w = await workflow(user, [
      {
        name: "ack",
        code: step(`$.respond({ immediate: true, status: 202, body: { accepted: steps.trigger.event.body.id } }); await fetch("${gateUrl}"); return "worked after replying";`),
      },
      { name: "late", code: step(`$.respond({ status: 500, body: "too late" }); return 2;`) },
    ]);
    const res = await send(w, { id: "job-1" });
    assert.equal(res.status, 202, res.text);
    assert.deepEqual(res.body, { accepted: "job-1" });
    // the reply came while the step still waits on the gate, which only the test opens
    await waitFor(async () => held.length > 0 || undefined, 10_000, "the step's fetch held");
    held.shift()!();
    const run = await lastRun(user, w);
    assert.equal(run.status, "succeeded");
    assert.deepEqual(run.response, { status: 202 });
    const steps = (await t.request("GET", `/v1/runs/${run.id}`, { key: user.key })).body.data.steps;
    assert.deepEqual(steps.map((s: any) => s.return_value), ["worked after replying", 2]);
  });

  it("a run that ends without responding answers 502 no_response; one that fails, 502 step_failed naming the step", async () => {
    const user = await t.newUser();
    const silent = await workflow(user, [{ name: "quiet", code: step(`return 1;`) }]);
    assertErrorEnvelope(await send(silent, {}), 502, "no_response");
    assert.deepEqual((await lastRun(user, silent)).response, { status: 502 });
    const failing = await workflow(user, [{ name: "ok", code: step(`return 1;`) }, { name: "broken", code: step(`throw new Error("nope");`) }]);
    const res = await send(failing, {});
    assertErrorEnvelope(res, 502, "step_failed");
    assert.match(res.body.error.message, /step "broken"/);
  });

  it("without custom_response the trigger answers 200 {success: true} and $.respond fails the step, saying why", async () => {
    const user = await t.newUser();
    const w = await workflow(user, [{ name: "r", code: step(`$.respond({ body: "never" });`) }], { type: "http" });
    assert.equal(w.trigger.custom_response, false);
    const res = await send(w, {});
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { success: true });
    const error = await waitFor(async () => {
      const list = await t.request("GET", `/v1/workflows/${w.id}/$errors/event_summaries?expand=event`, { key: user.key });
      return list.body.data[0]?.event.error;
    }, 10_000, "the step's error");
    assert.match(error.msg, /custom_response/);
  });

  it("a trigger's custom_response must be a boolean", async () => {
    const user = await t.newUser();
    const res = await t.request("POST", "/v1/workflows", { key: user.key, body: { name: "x", steps: [{ name: "s", code: step("") }], trigger: { type: "http", custom_response: "yes" } } });
    assertErrorEnvelope(res, 400, "invalid_request");
  });
});

describe("what a step sees of its run", () => {
  it("steps.trigger.context and $.context name the run, the workflow and the trigger", async () => {
    const user = await t.newUser();
    const w = await workflow(user, [{ name: "ctx", code: step(`$.respond({ body: { context: steps.trigger.context, runs: $.context.run.runs, same: $.context.id === steps.trigger.context.id } });`) }]);
    const res = await send(w, {});
    assert.equal(res.status, 200, res.text);
    const { context, runs, same } = res.body;
    const run = await lastRun(user, w);
    assert.deepEqual(
      { ...context, ts: undefined },
      { id: run.id, ts: undefined, workflow_id: w.id, deployment_id: w.deployment_id, source_type: "HTTP", verified: false, owner_id: user.id, platform_version: context.platform_version, workflow_name: "http", emitter_id: w.id },
    );
    assert.ok(Math.abs(Date.parse(context.ts) - Date.now()) < 60_000);
    assert.equal(runs, 1);
    assert.equal(same, true);
  });

  it("$.send.emit(event, stream) emits on the stream named", async () => {
    const user = await t.newUser();
    const w = await workflow(user, [{ name: "s", code: step(`$.send.emit({ raw_event: { a: 1 } }, "audit"); $.send.emit({ raw_event: { b: 2 } });`) }], { type: "http" });
    await send(w, {});
    const audit = await waitFor(async () => {
      const res = await t.request("GET", `/v1/workflows/${w.id}/event_summaries?expand=event&event_name=audit`, { key: user.key });
      return res.body.data.length > 0 ? res.body.data : undefined;
    }, 10_000, "an event on the audit stream");
    assert.deepEqual(audit.map((e: any) => e.event.raw_event), [{ a: 1 }]);
    const main = await t.request("GET", `/v1/workflows/${w.id}/event_summaries?expand=event`, { key: user.key });
    assert.deepEqual(main.body.data.map((e: any) => e.event.raw_event), [{ b: 2 }]);
  });
});
