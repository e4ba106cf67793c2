import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { assertErrorEnvelope, countingServer, startApp, waitFor, type CountingServer, type TestApp } from "../helpers.ts";

// A wait ends once: a resume and a cancel of the same wait, sent at once by URL or through the
// API, are one conditional change of the run in the store each, so exactly one wins and the other
// answers 409 saying what happened. The run then either went on (the step after the wait ran,
// once) or ended cancelled (that step never ran): never cancelled with that step's work done.

interface User {
  id: string;
  key: string;
}

let t: TestApp;
let receiver: CountingServer;
let receiverUrl = "";
/** what the steps after the waits did, by run id */
const after_ = { get: (id: string) => receiver.hits.get(`/${id}`) };

before(async () => {
  receiver = await countingServer();
  receiverUrl = receiver.url;
  t = await startApp({ TRIBUTARY_FETCH_ALLOW: receiver.allow });
});
after(async () => {
  await t.close();
  receiver.close();
});

const step = (body: string) => `export default { async run({ steps, $ }) { ${body} } };`;

async function suspendedRun(user: User, w: any): Promise<any> {
  const before_ = (await t.request("GET", `/v1/workflows/${w.id}/runs`, { key: user.key })).body.data.length;
  const res = await t.request("POST", new URL(w.trigger.endpoint_url).pathname, { key: null, body: {} });
  assert.equal(res.status, 200, res.text);
  return waitFor(async () => {
    const list = (await t.request("GET", `/v1/workflows/${w.id}/runs`, { key: user.key })).body.data;
    if (list.length <= before_ || list[0].status !== "suspended") return undefined;
    return (await t.request("GET", `/v1/runs/${list[0].id}?expand=steps`, { key: user.key })).body.data;
  }, 15_000, "a run to suspend");
}

const ended = (user: User, id: string) =>
  waitFor(async () => {
    const run = (await t.request("GET", `/v1/runs/${id}?expand=steps`, { key: user.key })).body.data;
    return ["running", "suspended"].includes(run.status) ? undefined : run;
  }, 15_000, "the run to end");

async function waitingWorkflow(user: User): Promise<any> {
  const res = await t.request("POST", "/v1/workflows", {
    key: user.key,
    body: {
      name: "races",
      trigger: { type: "http" },
      steps: [
        { name: "ask", code: step(`const u = $.flow.suspend(); $.export("urls", u);`) },
        { name: "act", code: step(`await (await fetch("${receiverUrl}/" + steps.trigger.context.id)).text(); return "acted";`) },
      ],
    },
  });
  assert.equal(res.status, 200, res.text);
  return res.body.data;
}

/** one of each at once; exactly one 200, the run ended as the winner says, the step after the wait ran as often */
async function race(user: User, run: any, send: { resume: () => Promise<any>; cancel: () => Promise<any> }): Promise<"resume" | "cancel"> {
  const [resumed, cancelled] = await Promise.all([send.resume(), send.cancel()]);
  const wins = [resumed.status === 200, cancelled.status === 200];
  assert.equal(wins.filter(Boolean).length, 1, `exactly one wins: resume ${resumed.status} ${resumed.text}, cancel ${cancelled.status} ${cancelled.text}`);
  const loser = wins[0] ? cancelled : resumed;
  assertErrorEnvelope(loser, 409, "conflict");
  const final = await ended(user, run.id);
  if (wins[0]) {
    assert.equal(final.status, "succeeded");
    assert.match(loser.body.error.message, /resumed|wait is over|not waiting/);
    assert.equal(after_.get(run.id), 1, "the step after the wait ran once");
  } else {
    assert.equal(final.status, "cancelled");
    assert.match(loser.body.error.message, /has ended: cancelled/);
    assert.equal(after_.get(run.id) ?? 0, 0, "the step after the wait never ran");
  }
  return wins[0] ? "resume" : "cancel";
}

describe("a wait ends once", () => {
  it("resume and cancel URLs called at once: exactly one wins, 10 of 10", async () => {
    const user = await t.newUser();
    const w = await waitingWorkflow(user);
    for (let i = 0; i < 10; i++) {
      const run = await suspendedRun(user, w);
      const urls = run.steps[0].exports.urls;
      await race(user, run, {
        resume: () => t.request("POST", new URL(urls.resume_url).pathname, { key: null, body: { ok: true } }),
        cancel: () => t.request("POST", new URL(urls.cancel_url).pathname, { key: null }),
      });
    }
  });

  it("resume and cancel through the API at once: exactly one wins, 10 of 10", async () => {
    const user = await t.newUser();
    const w = await waitingWorkflow(user);
    for (let i = 0; i < 10; i++) {
      const run = await suspendedRun(user, w);
      await race(user, run, {
        resume: () => t.request("POST", `/v1/runs/${run.id}/resume`, { key: user.key, body: { data: { ok: true } } }),
        cancel: () => t.request("POST", `/v1/runs/${run.id}/cancel`, { key: user.key }),
      });
    }
  });

  it("a cancel URL after the resume is a 409: the run goes on", async () => {
    const user = await t.newUser();
    const w = await waitingWorkflow(user);
    const run = await suspendedRun(user, w);
    const urls = run.steps[0].exports.urls;
    assert.equal((await t.request("POST", new URL(urls.resume_url).pathname, { key: null, body: {} })).status, 200);
    assertErrorEnvelope(await t.request("GET", new URL(urls.cancel_url).pathname, { key: null }), 409, "conflict");
    const final = await ended(user, run.id);
    assert.equal(final.status, "succeeded");
    assert.equal(after_.get(run.id), 1);
  });
});

describe("a cancel through the API stops a running run at its next step boundary", () => {
  /** steps: `before` (if any), then one that waits on the receiver's held `holdPath`, then one that leaves a mark */
  async function holdingWorkflow(user: User, holdPath: string, before?: string): Promise<any> {
    receiver.holding.add(holdPath);
    const steps = [
      ...(before === undefined ? [] : [{ name: "pause", code: step(before) }]),
      { name: "hold", code: step(`await (await fetch("${receiverUrl}${holdPath}")).text(); return "held";`) },
      { name: "after", code: step(`await (await fetch("${receiverUrl}/" + steps.trigger.context.id)).text();`) },
    ];
    const res = await t.request("POST", "/v1/workflows", { key: user.key, body: { name: "cancel-running", trigger: { type: "http" }, steps } });
    assert.equal(res.status, 200, res.text);
    return res.body.data;
  }

  /** cancels the run while its held step runs: 200, the step finishes, nothing after it runs */
  async function cancelWhileHeld(user: User, runId: string, holdPath: string): Promise<void> {
    await waitFor(async () => (receiver.hits.get(holdPath) ?? 0) > 0 || undefined, 15_000, "the held step to start");
    const res = await t.request("POST", `/v1/runs/${runId}/cancel`, { key: user.key });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.status, "cancelled");
    receiver.release();
    const final = await ended(user, runId);
    assert.equal(final.status, "cancelled");
    const hold = final.steps.find((s: any) => s.name === "hold");
    await waitFor(async () => {
      const run = (await t.request("GET", `/v1/runs/${runId}?expand=steps`, { key: user.key })).body.data;
      return run.steps.find((s: any) => s.name === "hold").status === "succeeded" || undefined;
    }, 15_000, "the held step to commit what it did");
    assert.ok(hold, "the held step is in the record");
    assert.equal(after_.get(runId) ?? 0, 0, "nothing after the cancelled step ran");
    receiver.holding.delete(holdPath);
  }

  it("during the first step of a run started from the queue (run now)", async () => {
    const user = await t.newUser();
    const w = await holdingWorkflow(user, "/hold-run-now");
    const started = await t.request("POST", `/v1/workflows/${w.id}/run`, { key: user.key, body: { event: { n: 1 } } });
    assert.equal(started.status, 202, started.text);
    await cancelWhileHeld(user, started.body.data.run_id, "/hold-run-now");
  });

  it("during the step after a delay that ended by itself", async () => {
    const user = await t.newUser();
    const w = await holdingWorkflow(user, "/hold-after-delay", "$.flow.delay(20);");
    assert.equal((await t.request("POST", new URL(w.trigger.endpoint_url).pathname, { key: null, body: {} })).status, 200);
    const run = await waitFor(async () => (await t.request("GET", `/v1/workflows/${w.id}/runs`, { key: user.key })).body.data[0], 15_000, "the run");
    await cancelWhileHeld(user, run.id, "/hold-after-delay");
  });
});

describe("a cancel URL ends the one wait it was given out for", () => {
  it("the cancel URL of a wait that was resumed is a 409 when the run waits again later; the later wait's own URL cancels", async () => {
    const user = await t.newUser();
    const suspendStep = step(`const u = $.flow.suspend(); $.export("urls", u);`);
    const res = await t.request("POST", "/v1/workflows", {
      key: user.key,
      body: {
        name: "two-waits",
        trigger: { type: "http" },
        steps: [
          { name: "first", code: suspendStep },
          { name: "second", code: suspendStep },
          { name: "act", code: step(`await (await fetch("${receiverUrl}/" + steps.trigger.context.id)).text();`) },
        ],
      },
    });
    assert.equal(res.status, 200, res.text);
    const run = await suspendedRun(user, res.body.data);
    const first = run.steps[0].exports.urls;
    assert.equal((await t.request("POST", new URL(first.resume_url).pathname, { key: null, body: {} })).status, 200);
    const second = await waitFor(async () => {
      const now = (await t.request("GET", `/v1/runs/${run.id}?expand=steps`, { key: user.key })).body.data;
      return now.status === "suspended" && now.steps[1].status === "suspended" ? now.steps[1].exports.urls : undefined;
    }, 15_000, "the run to wait at its second step");
    const stale = await t.request("POST", new URL(first.cancel_url).pathname, { key: null });
    assertErrorEnvelope(stale, 409, "conflict");
    assert.match(stale.body.error.message, /not waiting for this URL/);
    assert.equal((await t.request("GET", `/v1/runs/${run.id}`, { key: user.key })).body.data.status, "suspended", "the stale URL changed nothing");
    assert.equal((await t.request("POST", new URL(second.cancel_url).pathname, { key: null })).status, 200);
    const final = await ended(user, run.id);
    assert.equal(final.status, "cancelled");
    assert.equal(after_.get(run.id) ?? 0, 0, "the step after the second wait never ran");
  });
});
