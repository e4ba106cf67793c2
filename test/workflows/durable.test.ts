import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { assertErrorEnvelope, startApp, waitFor, type TestApp } from "../helpers.ts";

// Durable runs (docs/writing-workflows.md, "Runs", "Waiting" and "Retries, concurrency and rate"): each step commits before the next; $.flow.delay, suspend and rerun
// wait in the store and resume on their own, through their resume URL (with the request as
// $resume_data) or not at all (cancel URL, cancel API, a suspension's timeout); settings.retries
// runs a failed step again, settings.concurrency and rate hold runs back, queued. Black-box through the API, the workflow's endpoint and the URLs.

interface User {
  id: string;
  key: string;
}

const step = (body: string) => `export default { async run({ steps, $ }) { ${body} } };`;

let t: TestApp;
let counter: Server;
let counterUrl = "";
const hits = new Map<string, number>();

before(async () => {
  // counts calls per path, so a step can fail until its Nth try
  counter = createServer((req, res) => {
    const n = (hits.get(req.url!) ?? 0) + 1;
    hits.set(req.url!, n);
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ n }));
  });
  await new Promise<void>((r) => counter.listen(0, "127.0.0.1", r));
  const port = (counter.address() as AddressInfo).port;
  counterUrl = `http://127.0.0.1:${port}`;
  t = await startApp({ TRIBUTARY_RUN_RETRY_MS: "200", TRIBUTARY_FETCH_ALLOW: `127.0.0.1:${port}` });
});
after(async () => {
  await t.close();
  counter.close();
});

async function workflow(user: User, steps: unknown[], extra: Record<string, unknown> = {}): Promise<any> {
  const res = await t.request("POST", "/v1/workflows", { key: user.key, body: { name: "durable", steps, trigger: { type: "http" }, ...extra } });
  assert.equal(res.status, 200, res.text);
  return res.body.data;
}

const trigger = async (w: any, body: unknown) => {
  const res = await t.request("POST", new URL(w.trigger.endpoint_url).pathname, { key: null, body });
  assert.equal(res.status, 200, res.text);
};

const getRun = async (user: User, id: string) => {
  const res = await t.request("GET", `/v1/runs/${id}?expand=steps`, { key: user.key });
  assert.equal(res.status, 200, res.text);
  return res.body.data;
};

/** the workflow's newest run once `ok` says it is as expected */
const runWhere = (user: User, w: any, ok: (run: any) => boolean, what: string) =>
  waitFor(async () => {
    const res = await t.request("GET", `/v1/workflows/${w.id}/runs`, { key: user.key });
    const listed = res.body.data[0];
    if (!listed) return undefined;
    const run = await getRun(user, listed.id);
    return ok(run) ? run : undefined;
  }, 15_000, what);

/** calls one of the URLs a $.flow call returned (they are under TRIBUTARY_PUBLIC_URL) */
const callUrl = (url: string, method = "POST", body?: unknown) => t.request(method, new URL(url).pathname, { key: null, ...(body === undefined ? {} : { body }) });

const errorsOf = async (user: User, w: any) => {
  const res = await t.request("GET", `/v1/workflows/${w.id}/$errors/event_summaries?expand=event`, { key: user.key });
  return res.body.data as any[];
};

describe("durable workflow runs", () => {
  it("$.flow.delay: the run is suspended, then its next step runs after the delay with the results before it", async () => {
    const user = await t.newUser();
    const w = await workflow(user, [
      { name: "wait", code: step(`const urls = $.flow.delay(300); $.export("urls", urls); return steps.trigger.event.body.n;`) },
      { name: "after", code: step(`return steps.wait.$return_value + 1;`) },
    ]);
    await trigger(w, { n: 41 });
    const suspended = await runWhere(user, w, (r) => r.status === "suspended", "a suspended run");
    assert.deepEqual(suspended.steps.map((s: any) => s.status), ["suspended", "pending"]);
    const urls = suspended.steps[0].exports.urls;
    assert.match(urls.resume_url, new RegExp(`^http://tributary\\.test/flow/${suspended.id}/0\\.1\\.[\\w-]+/resume$`));
    assert.match(urls.cancel_url, /\/cancel$/);
    const done = await runWhere(user, w, (r) => r.status === "succeeded", "the run to go on after its delay");
    assert.deepEqual(done.steps.map((s: any) => [s.status, s.return_value, s.attempts]), [
      ["succeeded", 41, 1],
      ["succeeded", 42, 1],
    ]);
    assert.ok(done.steps[1].started_at_ms - done.steps[0].ended_at_ms >= 250, "the next step waited for the delay");
  });

  it("$.flow.suspend: resumed by its URL with the request as $resume_data; a second call is a 409, a forged one a 404", async () => {
    const user = await t.newUser();
    const w = await workflow(user, [
      { name: "ask", code: step(`const { resume_url } = $.flow.suspend(60_000); $.export("resume_url", resume_url);`) },
      { name: "answer", code: step(`return steps.ask.$resume_data;`) },
    ]);
    await trigger(w, {});
    const suspended = await runWhere(user, w, (r) => r.status === "suspended", "a suspended run");
    const url: string = suspended.steps[0].exports.resume_url;
    const forged = url.replace(/\.[\w-]+\/resume$/, ".AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/resume");
    assertErrorEnvelope(await callUrl(forged), 404, "not_found");
    assertErrorEnvelope(await callUrl(url.replace(suspended.id, "r_someoneelse0000")), 404, "not_found");
    const resumed = await callUrl(url, "POST", { approved: true });
    assert.equal(resumed.status, 200, resumed.text);
    assert.deepEqual(resumed.body.data, { id: suspended.id, resumed: true });
    const done = await runWhere(user, w, (r) => r.status === "succeeded", "the resumed run to end");
    const data = done.steps[1].return_value;
    assert.equal(data.method, "POST");
    assert.deepEqual(data.body, { approved: true });
    assert.equal(data.headers["content-type"], "application/json");
    assert.deepEqual(done.steps[0].exports, { resume_url: url });
    assertErrorEnvelope(await callUrl(url), 409, "conflict");
  });

  it("POST /runs/{id}/resume: the owner resumes a suspended run with data; waiting shows what it waits for; 409 once it goes on, 404 for another user", async () => {
    const user = await t.newUser();
    const other = await t.newUser();
    const w = await workflow(user, [
      { name: "ask", code: step(`$.flow.suspend(60_000);`) },
      { name: "answer", code: step(`return steps.ask.$resume_data;`) },
    ]);
    await trigger(w, {});
    const suspended = await runWhere(user, w, (r) => r.status === "suspended", "a suspended run");
    assert.equal(suspended.waiting.for, "suspend");
    assert.equal(suspended.waiting.step_index, 0);
    assert.ok(suspended.waiting.until_ms > Date.now() + 30_000, JSON.stringify(suspended.waiting));
    assertErrorEnvelope(await t.request("POST", `/v1/runs/${suspended.id}/resume`, { key: other.key, body: {} }), 404, "not_found");
    assertErrorEnvelope(await t.request("POST", `/v1/runs/${suspended.id}/resume`, { key: user.key, body: { data: 1, extra: true } }), 400, "invalid_request");
    let deep: unknown = 1;
    for (let i = 0; i < 70; i++) deep = [deep];
    assertErrorEnvelope(await t.request("POST", `/v1/runs/${suspended.id}/resume`, { key: user.key, body: { data: deep } }), 400, "invalid_request");
    const res = await t.request("POST", `/v1/runs/${suspended.id}/resume`, { key: user.key, body: { data: { approved: "yes" } } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.id, suspended.id);
    const done = await runWhere(user, w, (r) => r.status === "succeeded", "the resumed run to end");
    assert.deepEqual(done.steps[1].return_value.body, { approved: "yes" });
    assert.equal(done.waiting, null);
    assertErrorEnvelope(await t.request("POST", `/v1/runs/${suspended.id}/resume`, { key: user.key }), 409, "conflict");
  });

  it("a suspension that nobody resumes fails the run with TimeoutError on $errors", async () => {
    const user = await t.newUser();
    const w = await workflow(user, [
      { name: "ask", code: step(`$.flow.suspend(200);`) },
      { name: "never", code: step(`return "ran";`) },
    ]);
    await trigger(w, {});
    const failed = await runWhere(user, w, (r) => r.status === "failed", "the run to time out");
    assert.deepEqual(failed.steps.map((s: any) => s.status), ["failed", "skipped"]);
    assert.equal(failed.steps[0].error.name, "TimeoutError");
    const [error] = await waitFor(async () => {
      const e = await errorsOf(user, w);
      return e.length > 0 ? e : undefined;
    }, 10_000, "the timeout on $errors");
    assert.equal(error.event.error.code, "TimeoutError");
    assert.equal(error.event.error.cellId, w.steps[0].id);
  });

  it("the cancel URL, and POST /runs/{id}/cancel, end a suspended run as cancelled", async () => {
    const user = await t.newUser();
    const w = await workflow(user, [
      { name: "ask", code: step(`const u = $.flow.suspend(); $.export("cancel_url", u.cancel_url);`) },
      { name: "never", code: step(`return "ran";`) },
    ]);
    await trigger(w, {});
    const first = await runWhere(user, w, (r) => r.status === "suspended", "a suspended run");
    const cancelled = await callUrl(first.steps[0].exports.cancel_url, "GET");
    assert.equal(cancelled.status, 200, cancelled.text);
    const after = await getRun(user, first.id);
    assert.equal(after.status, "cancelled");
    assert.deepEqual(after.steps.map((s: any) => s.status), ["succeeded", "skipped"]);
    assertErrorEnvelope(await callUrl(first.steps[0].exports.cancel_url), 409, "conflict");

    await trigger(w, {});
    const second = await waitFor(async () => {
      const res = await t.request("GET", `/v1/workflows/${w.id}/runs?status=suspended`, { key: user.key });
      return res.body.data[0];
    }, 10_000, "a second suspended run");
    const other = await t.newUser();
    assertErrorEnvelope(await t.request("POST", `/v1/runs/${second.id}/cancel`, { key: other.key }), 404, "not_found");
    const res = await t.request("POST", `/v1/runs/${second.id}/cancel`, { key: user.key });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.status, "cancelled");
  });

  it("$.flow.rerun: the step runs again with $.context.run.runs and its context; past maxReruns it fails", async () => {
    const user = await t.newUser();
    const w = await workflow(user, [
      {
        name: "poll",
        code: step(`
          const run = $.context.run;
          if (run.runs < 3) { $.flow.rerun(50, { seen: run.runs }); return "not yet"; }
          return { runs: run.runs, context: run.context };`),
      },
      { name: "after", code: step(`return steps.poll.$return_value;`) },
    ]);
    await trigger(w, {});
    const done = await runWhere(user, w, (r) => r.status === "succeeded", "the rerun step to finish");
    assert.deepEqual(done.steps[0].return_value, { runs: 3, context: { seen: 2 } });
    assert.equal(done.steps[0].attempts, 3);
    assert.deepEqual(done.steps[1].return_value, { runs: 3, context: { seen: 2 } });

    const forever = await workflow(user, [{ name: "loop", code: step(`$.flow.rerun(10, undefined, 2);`) }]);
    await trigger(forever, {});
    const failed = await runWhere(user, forever, (r) => r.status === "failed", "the rerun limit");
    assert.match(failed.steps[0].error.message, /maxReruns 2/);
    assert.equal(failed.steps[0].attempts, 3);
  });

  it("settings.retries: a failed step runs again after a backoff; $errors only after the last attempt", async () => {
    const user = await t.newUser();
    const path = `/flaky-${Date.now()}`;
    const w = await workflow(
      user,
      [
        { name: "first", code: step(`return "once";`) },
        { name: "flaky", code: step(`const { n } = await (await fetch("${counterUrl}${path}")).json(); if (n < 3) throw new Error("try " + n); return n;`) },
      ],
      { settings: { retries: 2 } },
    );
    assert.deepEqual(w.settings, { retries: 2, concurrency: null, rate: null });
    await trigger(w, {});
    const done = await runWhere(user, w, (r) => r.status === "succeeded", "the retried step to succeed");
    assert.deepEqual(done.steps.map((s: any) => [s.status, s.attempts]), [
      ["succeeded", 1],
      ["succeeded", 3],
    ]);
    assert.equal(done.steps[1].return_value, 3);
    assert.deepEqual(await errorsOf(user, w), [], "no $errors while a retry was left");

    const failing = await workflow(user, [{ name: "fails", code: step(`throw new Error("always");`) }], { settings: { retries: 1 } });
    await trigger(failing, {});
    const failed = await runWhere(user, failing, (r) => r.status === "failed", "the last attempt to fail");
    assert.equal(failed.steps[0].attempts, 2);
    const errors = await waitFor(async () => {
      const e = await errorsOf(user, failing);
      return e.length > 0 ? e : undefined;
    }, 10_000, "the error after the last attempt");
    assert.equal(errors.length, 1);
  });

  it("settings.retries after $.flow.rerun: the retry is the same execution (its runs and its rerun context stay)", async () => {
    const user = await t.newUser();
    const path = `/rerun-then-flaky-${Date.now()}`;
    const w = await workflow(
      user,
      [
        {
          name: "poll",
          code: step(`
            const run = $.context.run;
            if (run.runs === 1) { await fetch("${counterUrl}${path}-first"); $.flow.rerun(50, { from: "first" }); return "not yet"; }
            const { n } = await (await fetch("${counterUrl}${path}")).json();
            if (n < 2) throw new Error("try " + n);
            return { runs: run.runs, context: run.context, n };`),
        },
      ],
      { settings: { retries: 2 } },
    );
    await trigger(w, {});
    const done = await runWhere(user, w, (r) => r.status === "succeeded", "the retried rerun to succeed");
    assert.deepEqual(done.steps[0].return_value, { runs: 2, context: { from: "first" }, n: 2 });
    assert.equal(hits.get(`${path}-first`), 1, "the retry did not start the step's executions over");
    assert.equal(done.steps[0].attempts, 3);
  });

  it("settings: bad values are a 400 naming the field; a PUT without settings keeps them", async () => {
    const user = await t.newUser();
    const steps = [{ name: "s", code: step("return 1;") }];
    for (const [settings, field] of [
      [{ retries: 9 }, "settings.retries"],
      [{ retries: "2" }, "settings.retries"],
      [{ concurrency: 0 }, "settings.concurrency"],
      [{ concurrency: 1.5 }, "settings.concurrency"],
      [{ rate: { limit: 0, per_seconds: 1 } }, "settings.rate"],
      [{ rate: { limit: 2 } }, "settings.rate"],
      [{ rate: 5 }, "settings.rate"],
      [{ nope: 1 }, "settings.nope"],
      ["fast", "settings"],
    ] as const) {
      const res = await t.request("POST", "/v1/workflows", { key: user.key, body: { name: "s", steps, settings } });
      assertErrorEnvelope(res, 400, "invalid_request");
      assert.ok(res.body.error.details.some((d: any) => d.field === field), res.text);
    }
    const w = await workflow(user, steps, { settings: { retries: 3, concurrency: 2, rate: { limit: 5, per_seconds: 60 } } });
    assert.deepEqual(w.settings, { retries: 3, concurrency: 2, rate: { limit: 5, per_seconds: 60 } });
    const put = await t.request("PUT", `/v1/workflows/${w.id}`, { key: user.key, body: { name: "renamed" } });
    assert.deepEqual(put.body.data.settings, w.settings, "a PUT without settings keeps them");
    const cleared = await t.request("PUT", `/v1/workflows/${w.id}`, { key: user.key, body: { settings: null } });
    assert.deepEqual(cleared.body.data.settings, { retries: 0, concurrency: null, rate: null });
  });

  it("settings.concurrency: a run waits, queued, until one running ends; runs start in order", async () => {
    const user = await t.newUser();
    // without the setting, the runs' steps would take turns (run 1 step 1, run 2 step 1, ...)
    const w = await workflow(
      user,
      [
        { name: "slow", code: step(`await new Promise((r) => setTimeout(r, 100)); return steps.trigger.event.body.i;`) },
        { name: "done", code: step(`await new Promise((r) => setTimeout(r, 100)); return steps.slow.$return_value;`) },
      ],
      { settings: { concurrency: 1 } },
    );
    for (const i of [1, 2, 3]) await trigger(w, { i });
    const runs = await waitFor(async () => {
      const res = await t.request("GET", `/v1/workflows/${w.id}/runs`, { key: user.key });
      const list = res.body.data as any[];
      return list.length === 3 && list.every((r) => r.status === "succeeded") ? list : undefined;
    }, 15_000, "three runs to end");
    // in the order they started (the list is in the order their rows were first written: a run
    // turned away is written at once, one admitted at its first step's commit)
    const full = (await Promise.all(runs.map((r: any) => getRun(user, r.id)))).sort((a, b) => a.steps[0].started_at_ms - b.steps[0].started_at_ms);
    assert.deepEqual(full.map((r) => r.steps[1].return_value), [1, 2, 3]);
    for (let i = 1; i < full.length; i++) {
      assert.ok(full[i].steps[0].started_at_ms >= full[i - 1].ended_at_ms, `run ${i + 1} started after run ${i} ended`);
    }
  });

  it("settings.concurrency: a replay turned away waits queued, and starts as soon as the run ahead ends", async () => {
    const user = await t.newUser();
    const w = await workflow(
      user,
      [{ name: "slow", code: step(`const hold = steps.trigger.event.body.hold; if (hold) { await (await fetch("${counterUrl}/" + hold)).text(); await new Promise((r) => setTimeout(r, 800)); } return "done";`) }],
      { settings: { concurrency: 1 } },
    );
    await trigger(w, {});
    const first = await runWhere(user, w, (r) => r.status === "succeeded", "the first run to end");
    // a run that holds the workflow's one place for a while (its slow step), then the replay
    const hold = `hold-${w.id}`;
    await trigger(w, { hold });
    await waitFor(async () => hits.get(`/${hold}`) === 1, 15_000, "the second run to start");
    const replay = await t.request("POST", `/v1/runs/${first.id}/replay`, { key: user.key });
    assert.equal(replay.status, 202, replay.text);
    const queued = await getRun(user, replay.body.data.id);
    assert.equal(queued.waiting?.for, "queued", JSON.stringify(queued));
    const replayed = await waitFor(async () => {
      const r = await getRun(user, replay.body.data.id);
      return r.status === "succeeded" ? r : undefined;
    }, 15_000, "the replay to end");
    const held = await runWhere(user, w, (r) => r.id !== replayed.id && r.status === "succeeded", "the second run");
    // taken up when the run ahead ended, not at the engine's periodic sweep (every 5 s)
    const late = replayed.steps[0].started_at_ms - held.ended_at_ms;
    assert.ok(late >= 0 && late < 2500, `the replay started ${late} ms after the run ahead ended`);
  });

  it("settings.rate: past the limit, runs wait for the window to move on", async () => {
    const user = await t.newUser();
    const w = await workflow(user, [{ name: "s", code: step(`return Date.now();`) }], { settings: { rate: { limit: 2, per_seconds: 1 } } });
    for (const i of [1, 2, 3, 4]) await trigger(w, { i });
    const runs = await waitFor(async () => {
      const res = await t.request("GET", `/v1/workflows/${w.id}/runs`, { key: user.key });
      const list = res.body.data as any[];
      return list.length === 4 && list.every((r) => r.status === "succeeded") ? list : undefined;
    }, 15_000, "four runs to end");
    const starts = (await Promise.all(runs.map((r: any) => getRun(user, r.id)))).map((r) => r.steps[0].started_at_ms).sort((a, b) => a - b);
    // The gate lets the third run start 1 s after it let the first one; a step's start trails its
    // grant by the runner's latency, which for the first run (a cold context) can be a few hundred
    // ms on a loaded machine. Without the limit all four start within tens of ms.
    assert.ok(starts[2] - starts[0] >= 500, `the third run started ${starts[2] - starts[0]} ms after the first`);
  });

  it("bad $.flow arguments fail the step with a clear error", async () => {
    const user = await t.newUser();
    const w = await workflow(user, [{ name: "bad", code: step(`$.flow.delay(-5);`) }]);
    await trigger(w, {});
    const failed = await runWhere(user, w, (r) => r.status === "failed", "the step to fail");
    assert.match(failed.steps[0].error.message, /\$\.flow\.delay\(ms\) takes a number of milliseconds/);
  });
});
