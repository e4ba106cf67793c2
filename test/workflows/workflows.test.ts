import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { resolveConfig } from "../../src/config.ts";
import { buildApp, type App } from "../../src/app.ts";
import {
  assertErrorEnvelope, assertRecentSeconds, detailFields, startApp, waitFor, type Reply, type TestApp,
} from "../helpers.ts";

// Workflows and their two event endpoints (docs/api.md, "Workflows"), black-box through the API.

const PUBLIC_URL = "http://tributary.test";
const WORKFLOW_FIELDS = ["active", "created_at", "deployment_id", "id", "name", "settings", "steps", "trigger", "updated_at"];
const CONTEXT_FIELDS = ["deployment_id", "id", "owner_id", "platform_version", "source_type", "ts", "verified", "workflow_id"];
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

interface User {
  id: string;
  key: string;
}

interface Workflow {
  id: string;
  name: string;
  active: boolean;
  deployment_id: string;
  trigger: { type: string; endpoint_url?: string; interval_seconds?: number | null; cron?: string | null };
  steps: { id: string; name: string }[];
  created_at: number;
  updated_at: number;
}

/** a step module; `body` is the body of `async run({ steps, $ })` */
const step = (body: string) => `export default { async run({ steps, $ }) { ${body} } };`;

/** the step of many tests: emits the trigger's JSON body as the raw event */
const ECHO_BODY = step("$.send.emit({ raw_event: steps.trigger.event.body });");

function assertIso(value: unknown, field: string): void {
  assert.equal(typeof value, "string", `${field} should be a string`);
  assert.match(value as string, ISO_8601, `${field} should be ISO 8601`);
  assert.ok(Math.abs(Date.parse(value as string) - Date.now()) < 120_000, `${field} should be near now: ${String(value)}`);
}

describe("workflows", () => {
  let t: TestApp;
  before(async () => (t = await startApp({ TRIBUTARY_PUBLIC_URL: PUBLIC_URL })));
  after(() => t.close());

  async function create(user: User, body: Record<string, unknown>): Promise<Workflow> {
    const res = await t.request("POST", "/v1/workflows", { key: user.key, body });
    assert.equal(res.status, 200, res.text);
    return res.body.data;
  }

  const httpWorkflow = (user: User, steps: { name: string; code: string }[], name = "wf") =>
    create(user, { name, steps, trigger: { type: "http" } });

  /** POSTs `body` as JSON to the workflow's HTTP trigger (no API key: the endpoint is public) */
  async function trigger(w: Workflow, body: unknown, subpath = ""): Promise<Reply> {
    assert.equal(typeof w.trigger.endpoint_url, "string");
    return t.request("POST", new URL(w.trigger.endpoint_url!).pathname + subpath, { key: null, body });
  }

  async function events(user: User, id: string, query = "expand=event&limit=100", stream = ""): Promise<any> {
    const res = await t.request("GET", `/v1/workflows/${id}/${stream ? `${stream}/` : ""}event_summaries?${query}`, { key: user.key });
    assert.equal(res.status, 200, res.text);
    return res.body;
  }

  const items = async (user: User, id: string, stream = "") => (await events(user, id, "expand=event&limit=100", stream)).data as any[];
  const errors = (user: User, id: string) => items(user, id, "$errors");
  const logs = async (user: User, id: string) =>
    (await events(user, id, `expand=event&limit=100&event_name=${encodeURIComponent("$logs")}`)).data as any[];

  /** waits until the workflow has at least `n` items on the stream; returns them newest first */
  const waitItems = (user: User, id: string, n: number, stream = "", ms = 10_000) =>
    waitFor(async () => {
      const list = await items(user, id, stream);
      return list.length >= n ? list : undefined;
    }, ms, `${n} items on ${stream || "the default stream"} of ${id}`);

  async function list(user: User, query = ""): Promise<any> {
    const res = await t.request("GET", `/v1/users/me/workflows${query}`, { key: user.key });
    assert.equal(res.status, 200, res.text);
    return res.body;
  }

  // ---- creating --------------------------------------------------------------------------------

  it("POST /workflows: 200 {data: Workflow} with p_/d_/c_ ids, steps with their code and props, trigger none", async () => {
    const user = await t.newUser();
    const res = await t.request("POST", "/v1/workflows", {
      key: user.key,
      body: { name: "My Flow", steps: [{ name: "first", code: ECHO_BODY }, { name: "second", code: step("return 1;") }] },
    });
    assert.equal(res.status, 200, res.text);
    assert.match(String(res.headers["content-type"]), /^application\/json; charset=utf-8/i);
    const w = res.body.data;
    assert.deepEqual(Object.keys(w).sort(), WORKFLOW_FIELDS);
    assert.match(w.id, /^p_[A-Za-z0-9_-]{8,22}$/);
    assert.match(w.deployment_id, /^d_[A-Za-z0-9_-]{8,22}$/);
    assert.equal(w.name, "My Flow");
    assert.equal(w.active, true);
    assert.deepEqual(w.trigger, { type: "none" });
    assert.deepEqual(w.steps.map((s: any) => s.name), ["first", "second"]);
    assert.deepEqual(w.steps.map((s: any) => s.code), [ECHO_BODY, step("return 1;")], "a step shows its code, to be read back and edited");
    for (const s of w.steps) {
      assert.deepEqual(Object.keys(s).sort(), ["code", "id", "name", "props"]);
      assert.deepEqual(s.props, {});
      assert.match(s.id, /^c_[A-Za-z0-9_-]{8,22}$/);
    }
    assert.notEqual(w.steps[0].id, w.steps[1].id);
    assertRecentSeconds(w.created_at, "created_at");
    assertRecentSeconds(w.updated_at, "updated_at");
  });

  it("triggers echo as given: http gets an endpoint_url, timers {type, interval_seconds, cron}", async () => {
    const user = await t.newUser();
    const steps = [{ name: "s", code: step("return 1;") }];
    const a = await create(user, { name: "a", steps, trigger: { type: "http" } });
    const b = await create(user, { name: "b", steps, trigger: { type: "http" } });
    assert.deepEqual(Object.keys(a.trigger).sort(), ["custom_response", "endpoint_url", "type"]);
    assert.equal(a.trigger.type, "http");
    const url = a.trigger.endpoint_url!;
    assert.ok(url.startsWith(`${PUBLIC_URL}/`), url);
    assert.doesNotThrow(() => new URL(url));
    assert.notEqual(b.trigger.endpoint_url, url, "one endpoint per workflow");

    // inactive so that they never fire while the suite runs
    const interval = await create(user, { name: "c", steps, active: false, trigger: { type: "timer", interval_seconds: 120 } });
    assert.deepEqual(interval.trigger, { type: "timer", interval_seconds: 120, cron: null });
    assert.equal(interval.active, false);
    const cron = await create(user, { name: "d", steps, active: false, trigger: { type: "timer", cron: "*/5 * * * *" } });
    assert.deepEqual(cron.trigger, { type: "timer", interval_seconds: null, cron: "*/5 * * * *" });
    const none = await create(user, { name: "e", steps, trigger: { type: "none" } });
    assert.deepEqual(none.trigger, { type: "none" });
  });

  it("bad input is 400 invalid_request naming the field, and creates nothing", async () => {
    const user = await t.newUser();
    const ok = { name: "s", code: step("return 1;") };
    const cases: [string, Record<string, unknown>, string][] = [
      ["missing name", { steps: [ok] }, "name"],
      ["empty name", { name: "", steps: [ok] }, "name"],
      ["missing steps", { name: "w" }, "steps"],
      ["steps not an array", { name: "w", steps: { s: ok } }, "steps"],
      ["empty steps", { name: "w", steps: [] }, "steps"],
      ["step without code", { name: "w", steps: [{ name: "s" }] }, "steps[0].code"],
      ["duplicate step names", { name: "w", steps: [ok, ok] }, "steps[1].name"],
      ["a step named trigger", { name: "w", steps: [{ ...ok, name: "trigger" }] }, "steps[0].name"],
      ["a step name that is no identifier", { name: "w", steps: [{ ...ok, name: "my-step" }] }, "steps[0].name"],
      ["a step name starting with a digit", { name: "w", steps: [{ ...ok, name: "1st" }] }, "steps[0].name"],
      ["bad trigger type", { name: "w", steps: [ok], trigger: { type: "email" } }, "trigger.type"],
      ["timer without interval or cron", { name: "w", steps: [ok], trigger: { type: "timer" } }, "trigger.interval_seconds"],
      ["timer with interval 0", { name: "w", steps: [ok], trigger: { type: "timer", interval_seconds: 0 } }, "trigger.interval_seconds"],
      ["bad cron", { name: "w", steps: [ok], trigger: { type: "timer", cron: "not a cron" } }, "trigger.cron"],
      ["active not boolean", { name: "w", steps: [ok], active: "yes" }, "active"],
    ];
    for (const [what, body, field] of cases) {
      const res = await t.request("POST", "/v1/workflows", { key: user.key, body });
      assertErrorEnvelope(res, 400, "invalid_request");
      assert.ok(detailFields(res).includes(field), `${what}: expected details naming ${field}, got ${res.text}`);
    }
    // one 400 names every problem
    const both = await t.request("POST", "/v1/workflows", { key: user.key, body: {} });
    assertErrorEnvelope(both, 400, "invalid_request");
    assert.ok(detailFields(both).includes("name") && detailFields(both).includes("steps"), both.text);
    // not JSON / no JSON content type
    assertErrorEnvelope(
      await t.request("POST", "/v1/workflows", { key: user.key, raw: "{not json", headers: { "content-type": "application/json" } }),
      400,
      "invalid_request",
    );
    assertErrorEnvelope(
      await t.request("POST", "/v1/workflows", { key: user.key, raw: JSON.stringify({ name: "w", steps: [ok] }), headers: { "content-type": "text/plain" } }),
      415,
      "unsupported_media_type",
    );
    assertErrorEnvelope(await t.request("POST", "/v1/workflows", { key: null, body: { name: "w", steps: [ok] } }), 401, "unauthorized");
    assert.equal((await list(user)).page_info.total_count, 0, "no workflow was created");
  });

  it("a step that doesn't compile, imports child_process or has no run is 422 invalid_component naming the step", async () => {
    const user = await t.newUser();
    const ok = { name: "fine", code: step("return 1;") };
    const bad: [string, string][] = [
      ["broken_syntax", "export default { async run( { return 1 } };"],
      ["uses_child_process", `import cp from "child_process";\nexport default { run() { return cp.execSync("cat /etc/passwd"); } };`],
      ["no_run", "export default { name: 'nothing to run' };"],
    ];
    for (const [name, code] of bad) {
      const res = await t.request("POST", "/v1/workflows", { key: user.key, body: { name: "w", steps: [ok, { name, code }] } });
      assertErrorEnvelope(res, 422, "invalid_component");
      assert.ok(res.body.error.message.includes(name), `the message should name step ${name}: ${res.text}`);
    }
    assert.equal((await list(user)).page_info.total_count, 0, "no workflow was created");
  });

  // ---- reading, updating, deleting -------------------------------------------------------------

  it("GET /workflows/{id}: the owner sees it; another user and unknown ids get 404", async () => {
    const user = await t.newUser();
    const other = await t.newUser();
    const w = await httpWorkflow(user, [{ name: "s", code: ECHO_BODY }]);
    const got = await t.request("GET", `/v1/workflows/${w.id}`, { key: user.key });
    assert.equal(got.status, 200, got.text);
    assert.deepEqual(got.body.data, w);
    assertErrorEnvelope(await t.request("GET", `/v1/workflows/${w.id}`, { key: other.key }), 404, "not_found");
    assertErrorEnvelope(await t.request("GET", "/v1/workflows/p_doesnotexist000", { key: user.key }), 404, "not_found");
    assertErrorEnvelope(await t.request("GET", "/v1/workflows/dc_doesnotexist00", { key: user.key }), 404, "not_found");
    assertErrorEnvelope(
      await t.request("PUT", `/v1/workflows/${w.id}`, { key: other.key, body: { name: "mine now" } }),
      404,
      "not_found",
    );
    assertErrorEnvelope(await t.request("DELETE", `/v1/workflows/${w.id}`, { key: other.key }), 404, "not_found");
    assertErrorEnvelope(await t.request("GET", `/v1/workflows/${w.id}`, { key: null }), 401, "unauthorized");
    // include / exclude (docs/api.md, "Requests and responses")
    const only = await t.request("GET", `/v1/workflows/${w.id}?include=id,name`, { key: user.key });
    assert.deepEqual(only.body.data, { id: w.id, name: w.name });
    const without = await t.request("GET", `/v1/workflows/${w.id}?exclude=steps,trigger.endpoint_url`, { key: user.key });
    assert.equal("steps" in without.body.data, false);
    assert.deepEqual(without.body.data.trigger, { type: "http", custom_response: false });
    // the other user's attempts changed nothing
    const still = await t.request("GET", `/v1/workflows/${w.id}`, { key: user.key });
    assert.deepEqual(still.body.data, w);
  });

  it("PUT changes name, steps and trigger; every change is a new deployment with new cell ids", async () => {
    const user = await t.newUser();
    const w = await create(user, { name: "before", steps: [{ name: "a", code: step("return 1;") }, { name: "b", code: step("return 2;") }] });

    const renamed = await t.request("PUT", `/v1/workflows/${w.id}`, { key: user.key, body: { name: "after" } });
    assert.equal(renamed.status, 200, renamed.text);
    const r = renamed.body.data;
    assert.deepEqual(Object.keys(r).sort(), WORKFLOW_FIELDS);
    assert.equal(r.id, w.id);
    assert.equal(r.name, "after");
    assert.equal(r.active, true);
    assert.deepEqual(r.trigger, { type: "none" });
    assert.equal(r.created_at, w.created_at);
    assertRecentSeconds(r.updated_at, "updated_at");
    assert.match(r.deployment_id, /^d_/);
    assert.notEqual(r.deployment_id, w.deployment_id);
    assert.deepEqual(r.steps.map((s: any) => s.name), ["a", "b"]);
    for (const s of r.steps) {
      assert.match(s.id, /^c_/);
      assert.ok(!w.steps.some((old) => old.id === s.id), "new cell ids");
    }

    const restepped = await t.request("PUT", `/v1/workflows/${w.id}`, {
      key: user.key,
      body: { steps: [{ name: "only", code: ECHO_BODY }], trigger: { type: "http" } },
    });
    assert.equal(restepped.status, 200, restepped.text);
    const s = restepped.body.data;
    assert.equal(s.name, "after", "an omitted name is kept");
    assert.deepEqual(s.steps.map((x: any) => x.name), ["only"]);
    assert.notEqual(s.deployment_id, r.deployment_id);
    assert.notEqual(s.steps[0].id, r.steps[0].id);
    assert.equal(s.trigger.type, "http");
    assert.ok(s.trigger.endpoint_url.startsWith(`${PUBLIC_URL}/`));

    const got = await t.request("GET", `/v1/workflows/${w.id}`, { key: user.key });
    assert.deepEqual(got.body.data, s, "GET shows the update");

    // the new steps and trigger are what runs
    assert.equal((await trigger(s, { v: "new code" })).status, 200);
    const [item] = await waitItems(user, w.id, 1);
    assert.deepEqual(item.event, { raw_event: { v: "new code" } });
  });

  it("a PUT with bad input (400) or a bad step (422) leaves the workflow as it was", async () => {
    const user = await t.newUser();
    const w = await create(user, { name: "keep", steps: [{ name: "a", code: step("return 1;") }] });
    const bad400 = await t.request("PUT", `/v1/workflows/${w.id}`, { key: user.key, body: { steps: [{ name: "trigger", code: ECHO_BODY }] } });
    assertErrorEnvelope(bad400, 400, "invalid_request");
    assert.ok(detailFields(bad400).includes("steps[0].name"), bad400.text);
    assertErrorEnvelope(
      await t.request("PUT", `/v1/workflows/${w.id}`, { key: user.key, body: { active: 1 } }),
      400,
      "invalid_request",
    );
    const bad422 = await t.request("PUT", `/v1/workflows/${w.id}`, {
      key: user.key,
      body: { steps: [{ name: "oops", code: "export default {" }] },
    });
    assertErrorEnvelope(bad422, 422, "invalid_component");
    assert.match(bad422.body.error.message, /oops/);
    const got = await t.request("GET", `/v1/workflows/${w.id}`, { key: user.key });
    assert.deepEqual(got.body.data, w);
  });

  it("DELETE answers {id, deleted: true}; then the workflow, its endpoint and its events are gone", async () => {
    const user = await t.newUser();
    const w = await httpWorkflow(user, [{ name: "s", code: ECHO_BODY }]);
    const other = await create(user, { name: "other", steps: [{ name: "s", code: step("return 1;") }] });
    for (const [emitter_id, listener_id] of [[w.id, other.id], [other.id, w.id]]) {
      const sub = await t.request("POST", `/v1/subscriptions?emitter_id=${emitter_id}&listener_id=${listener_id}`, { key: user.key });
      assert.equal(sub.status, 200, sub.text);
    }
    assert.equal((await trigger(w, { n: 1 })).status, 200);
    await waitItems(user, w.id, 1);
    const del = await t.request("DELETE", `/v1/workflows/${w.id}`, { key: user.key });
    assert.equal(del.status, 200, del.text);
    assert.deepEqual(del.body, { data: { id: w.id, deleted: true } });
    assertErrorEnvelope(await t.request("DELETE", `/v1/workflows/${w.id}`, { key: user.key }), 404, "not_found");
    assertErrorEnvelope(await t.request("GET", `/v1/workflows/${w.id}`, { key: user.key }), 404, "not_found");
    assertErrorEnvelope(await t.request("GET", `/v1/workflows/${w.id}/event_summaries`, { key: user.key }), 404, "not_found");
    assertErrorEnvelope(await trigger(w, { n: 2 }), 404, "not_found");
    assert.deepEqual((await list(user)).data.map((x: any) => x.id), [other.id]);
    const subs = await t.request("GET", "/v1/users/me/subscriptions", { key: user.key });
    assert.deepEqual(subs.body.data, [], "every subscription naming it went with it");
  });

  it("GET /users/me/workflows pages newest first with cursors, and lists only the caller's", async () => {
    const user = await t.newUser();
    const other = await t.newUser();
    const made: Workflow[] = [];
    for (let i = 1; i <= 5; i++) made.push(await create(user, { name: `w${i}`, steps: [{ name: "s", code: step("return 1;") }] }));
    await create(other, { name: "theirs", steps: [{ name: "s", code: step("return 1;") }] });

    const all = await list(user, "?limit=100");
    assert.deepEqual(all.data.map((w: any) => w.name), ["w5", "w4", "w3", "w2", "w1"]);
    assert.deepEqual(all.data[0], made[4], "items are Workflows as GET shows them");
    assert.deepEqual(all.page_info, {
      total_count: 5,
      count: 5,
      start_cursor: all.page_info.start_cursor,
      end_cursor: all.page_info.end_cursor,
    });
    assert.equal(Buffer.from(all.page_info.start_cursor, "base64url").toString(), made[4].id, "cursors are base64url of ids");
    assert.equal(Buffer.from(all.page_info.end_cursor, "base64url").toString(), made[0].id);

    const first = await list(user, "?limit=2");
    assert.deepEqual(first.data.map((w: any) => w.name), ["w5", "w4"]);
    assert.equal(first.page_info.total_count, 5);
    assert.equal(first.page_info.count, 2);
    assert.equal(typeof first.page_info.start_cursor, "string");
    assert.equal(typeof first.page_info.end_cursor, "string");
    const second = await list(user, `?limit=2&after=${first.page_info.end_cursor}`);
    assert.deepEqual(second.data.map((w: any) => w.name), ["w3", "w2"]);
    assert.equal(second.page_info.total_count, 5);
    const third = await list(user, `?limit=2&after=${second.page_info.end_cursor}`);
    assert.deepEqual(third.data.map((w: any) => w.name), ["w1"]);
    assert.equal(third.page_info.count, 1);
    assert.equal(third.page_info.start_cursor, third.page_info.end_cursor);
    const empty = await list(user, `?limit=2&after=${third.page_info.end_cursor}`);
    assert.deepEqual(empty.data, []);
    assert.deepEqual(empty.page_info, { total_count: 5, count: 0, start_cursor: "", end_cursor: "" });
    const back = await list(user, `?limit=2&before=${third.page_info.start_cursor}`);
    assert.deepEqual(back.data.map((w: any) => w.name), ["w3", "w2"], "before: the nearest newer items, in list order");
    assert.deepEqual((await list(user, "?limit=2&after=")).data.map((w: any) => w.name), ["w5", "w4"], "an empty cursor is none");
    assert.equal((await list(user)).page_info.count, 5, "default limit 10");

    for (const q of ["limit=0", "limit=101", "after=%%%", "before=not-a-cursor!"]) {
      assertErrorEnvelope(await t.request("GET", `/v1/users/me/workflows?${q}`, { key: user.key }), 400, "invalid_request");
    }
    const theirs = await list(other);
    assert.deepEqual(theirs.data.map((w: any) => w.name), ["theirs"]);
    assert.equal(theirs.page_info.total_count, 1);
  });

  // ---- running ---------------------------------------------------------------------------------

  it("an HTTP trigger runs the steps in order; $.send.emit lands as {raw_event} from the p_ id", async () => {
    const user = await t.newUser();
    const w = await httpWorkflow(user, [
      { name: "step1", code: step("return { doubled: steps.trigger.event.body.n * 2 };") },
      {
        name: "step2",
        code: step(`$.send.emit({ raw_event: { body: steps.trigger.event.body, prev: steps.step1.$return_value, method: steps.trigger.event.method } });`),
      },
    ]);
    const res = await trigger(w, { n: 21 });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { success: true });
    const [item] = await waitItems(user, w.id, 1);
    assert.deepEqual(item.event, { raw_event: { body: { n: 21 }, prev: { doubled: 42 }, method: "POST" } });
    assert.match(item.id, /^\d+-\d+$/);
    assert.equal(typeof item.indexed_at_ms, "number");
    assert.equal(item.metadata.emitter_id, w.id);
    assert.equal(item.metadata.name, "");
    assert.equal(typeof item.metadata.emit_id, "string");
    assert.deepEqual(await errors(user, w.id), [], "nothing failed");
  });

  it("the global $send.emit works too, and every emit of a run lands in order", async () => {
    const user = await t.newUser();
    const w = await httpWorkflow(user, [
      { name: "legacy", code: `export default { run() { $send.emit({ raw_event: "via global" }); } };` },
      { name: "modern", code: step(`$.send.emit({ raw_event: { second: true } }); $.send.emit({ raw_event: [1, 2, 3] });`) },
    ]);
    assert.equal((await trigger(w, {})).status, 200);
    const list = await waitItems(user, w.id, 3);
    assert.deepEqual(list.map((i) => i.event).reverse(), [{ raw_event: "via global" }, { raw_event: { second: true } }, { raw_event: [1, 2, 3] }]);
  });

  it("$.flow.exit() in step 1 ends the run: step 2 does not emit, and nothing lands on $errors", async () => {
    const user = await t.newUser();
    const w = await httpWorkflow(user, [
      {
        name: "gate",
        code: step(`$.send.emit({ raw_event: { gate: steps.trigger.event.body.n } }); if (steps.trigger.event.body.stop) $.flow.exit("stopped");`),
      },
      { name: "after_gate", code: step(`$.send.emit({ raw_event: { after: steps.trigger.event.body.n } });`) },
    ]);
    assert.equal((await trigger(w, { n: 1, stop: true })).status, 200);
    // the run's emits commit together: once the gate's emit is there, step 2's would be too
    const stopped = await waitItems(user, w.id, 1);
    assert.deepEqual(stopped.map((i) => i.event), [{ raw_event: { gate: 1 } }]);
    // without the exit, step 2 runs
    assert.equal((await trigger(w, { n: 2 })).status, 200);
    const list = await waitItems(user, w.id, 3);
    assert.deepEqual(list.map((i) => i.event).reverse(), [
      { raw_event: { gate: 1 } },
      { raw_event: { gate: 2 } },
      { raw_event: { after: 2 } },
    ]);
    assert.deepEqual(await errors(user, w.id), []);
  });

  it("console.log in a step lands on event_name=$logs", async () => {
    const user = await t.newUser();
    const w = await httpWorkflow(user, [
      { name: "talk", code: step(`console.log("got", steps.trigger.event.body.n); return 1;`) },
      { name: "talk_more", code: step(`console.log("second step", steps.talk.$return_value);`) },
    ]);
    assert.equal((await trigger(w, { n: 7 })).status, 200);
    const [log] = await waitFor(async () => {
      const l = await logs(user, w.id);
      return l.length > 0 ? l : undefined;
    }, 10_000, "a $logs item");
    assert.equal(log.metadata.name, "$logs");
    assert.equal(log.metadata.emitter_id, w.id);
    const text = JSON.stringify(log.event);
    assert.ok(text.includes("got 7"), text);
    assert.ok(text.includes("second step 1"), text);
    assert.deepEqual(await items(user, w.id), [], "logs are not on the default stream");
  });

  it("a throwing step ends the run and emits {original_event, original_context, error} on $errors", async () => {
    const user = await t.newUser();
    const w = await httpWorkflow(user, [
      { name: "ok_step", code: step("return 1;") },
      { name: "thrower", code: step(`const e = new Error("bad input " + steps.trigger.event.body.x); e.code = "E_BAD"; throw e;`) },
      { name: "never", code: step(`$.send.emit({ raw_event: "should not happen" });`) },
    ]);
    assert.equal((await trigger(w, { x: 1 })).status, 200);
    const list = await waitItems(user, w.id, 1, "$errors");
    assert.equal(list.length, 1);
    const [item] = list;
    assert.equal(item.metadata.name, "$errors");
    assert.equal(item.metadata.emitter_id, w.id);
    assert.match(item.id, /^\d+-\d+$/);
    const e = item.event;
    assert.deepEqual(Object.keys(e).sort(), ["error", "original_context", "original_event"]);
    // the trigger event: the HTTP request
    assert.deepEqual(e.original_event.body, { x: 1 });
    assert.equal(e.original_event.method, "POST");

    const c = e.original_context;
    assert.deepEqual(Object.keys(c).sort(), CONTEXT_FIELDS);
    assert.equal(typeof c.id, "string");
    assert.ok(c.id.length > 0);
    assertIso(c.ts, "original_context.ts");
    assert.equal(c.workflow_id, w.id);
    assert.equal(c.deployment_id, w.deployment_id);
    assert.equal(c.source_type, "HTTP");
    assert.equal(c.verified, false);
    assert.equal(c.owner_id, user.id);
    assert.match(c.owner_id, /^u_/);
    assert.equal(typeof c.platform_version, "string");
    assert.ok(c.platform_version.length > 0);

    const err = e.error;
    for (const f of ["code", "msg", "cellId", "ts", "stack"]) assert.ok(f in err, `error.${f} is missing: ${JSON.stringify(err)}`);
    assert.equal(err.code, "E_BAD");
    assert.equal(err.msg, "bad input 1");
    assert.equal(err.cellId, w.steps[1].id, "the failing step's cell id");
    assertIso(err.ts, "error.ts");
    assert.equal(typeof err.stack, "string");
    assert.deepEqual(await items(user, w.id), [], "later steps did not run");
  });

  it("an error without a code reports its name; $errors pages with limit and truncates without expand", async () => {
    const user = await t.newUser();
    const w = await httpWorkflow(user, [
      { name: "first", code: step("return 1;") },
      { name: "typed", code: step(`if (steps.trigger.event.body.big) throw new RangeError("x".repeat(2000)); throw new TypeError("not a thing");`) },
    ]);
    assert.equal((await trigger(w, { n: 1 })).status, 200);
    const [first] = await waitItems(user, w.id, 1, "$errors");
    assert.equal(first.event.error.code, "TypeError");
    assert.equal(first.event.error.msg, "not a thing");
    assert.equal(first.event.error.cellId, w.steps[1].id);

    assert.equal((await trigger(w, { big: true })).status, 200);
    await waitItems(user, w.id, 2, "$errors");
    const page = await events(user, w.id, "limit=1", "$errors");
    assert.equal(page.page_info.total_count, 2);
    assert.equal(page.page_info.count, 1);
    assert.equal(page.data.length, 1);
    // the newest is the big one: over 1 KB, truncated without expand
    const truncated = page.data[0].event;
    assert.equal(truncated.truncated, true, JSON.stringify(truncated).slice(0, 200));
    assert.equal(typeof truncated.preview, "string");
    assert.ok(Buffer.byteLength(truncated.preview) <= 1024);
    assert.ok(truncated.size > 1024);
    const older = await events(user, w.id, `limit=1&after=${page.page_info.end_cursor}`, "$errors");
    assert.equal(older.data[0].id, first.id);
    const full = await events(user, w.id, "limit=1&expand=event", "$errors");
    assert.equal(full.data[0].event.error.code, "RangeError");
    assert.equal(full.data[0].event.error.msg, "x".repeat(2000));
    assert.equal(Buffer.byteLength(JSON.stringify(full.data[0].event)), truncated.size);
  });

  it("workflow event endpoints: limit, raw event id cursors, truncation without expand, 400s and 404s", async () => {
    const user = await t.newUser();
    const other = await t.newUser();
    // one run at a time, so the events come in trigger order (runs otherwise go side by side)
    const w = await create(user, { name: "wf", steps: [{ name: "echo", code: ECHO_BODY }], trigger: { type: "http" }, settings: { concurrency: 1 } });
    for (let i = 0; i < 5; i++) assert.equal((await trigger(w, { i })).status, 200);
    const all = await waitItems(user, w.id, 5);
    assert.deepEqual(all.map((x) => x.event.raw_event.i), [4, 3, 2, 1, 0], "newest first, in trigger order");

    const first = await events(user, w.id, "limit=2");
    assert.deepEqual(first.data.map((x: any) => x.event.raw_event.i), [4, 3]);
    assert.deepEqual(first.page_info, { total_count: 5, count: 2, start_cursor: first.data[0].id, end_cursor: first.data[1].id });
    const next = await events(user, w.id, `limit=2&after=${first.page_info.end_cursor}`);
    assert.deepEqual(next.data.map((x: any) => x.event.raw_event.i), [2, 1]);
    const back = await events(user, w.id, `limit=2&before=${next.page_info.start_cursor}`);
    assert.deepEqual(back.data.map((x: any) => x.event.raw_event.i), [4, 3]);
    const last = await events(user, w.id, `limit=10&after=${all[4].id}`);
    assert.deepEqual(last.data, []);
    assert.deepEqual(last.page_info, { total_count: 5, count: 0, start_cursor: "", end_cursor: "" });
    assert.equal((await events(user, w.id, "")).page_info.count, 5);
    const filtered = await events(user, w.id, "limit=2&include=id,event");
    assert.deepEqual(filtered.data.map((x: any) => Object.keys(x).sort()), [["event", "id"], ["event", "id"]]);
    assert.equal(filtered.page_info.count, 2, "page_info is never filtered");

    // over 1 KB: truncated without expand, whole with it
    const big = { text: "é".repeat(1000) };
    assert.equal((await trigger(w, big)).status, 200);
    await waitItems(user, w.id, 6);
    const plain = await events(user, w.id, "limit=2");
    const [truncated, small] = plain.data;
    assert.deepEqual(small.event, { raw_event: { i: 4 } }, "small events are whole");
    const json = JSON.stringify({ raw_event: big });
    assert.equal(truncated.event.truncated, true);
    assert.equal(truncated.event.size, Buffer.byteLength(json));
    assert.ok(Buffer.byteLength(truncated.event.preview) <= 1024);
    assert.ok(json.startsWith(truncated.event.preview));
    const expanded = await events(user, w.id, "limit=1&expand=event");
    assert.deepEqual(expanded.data[0].event, { raw_event: big });

    for (const q of ["limit=0", "limit=101", "after=abc", "before=12-x"]) {
      for (const stream of ["", "$errors"]) {
        const path = `/v1/workflows/${w.id}/${stream ? `${stream}/` : ""}event_summaries?${q}`;
        assertErrorEnvelope(await t.request("GET", path, { key: user.key }), 400, "invalid_request");
      }
    }
    for (const stream of ["", "$errors/"]) {
      assertErrorEnvelope(await t.request("GET", `/v1/workflows/${w.id}/${stream}event_summaries`, { key: other.key }), 404, "not_found");
      assertErrorEnvelope(await t.request("GET", `/v1/workflows/p_doesnotexist000/${stream}event_summaries`, { key: user.key }), 404, "not_found");
      assertErrorEnvelope(await t.request("GET", `/v1/workflows/${w.id}/${stream}event_summaries`, { key: null }), 401, "unauthorized");
    }
  });

  it("a disabled workflow's endpoint is 404 and runs nothing; enabled again, it runs", async () => {
    const user = await t.newUser();
    const w = await httpWorkflow(user, [{ name: "echo", code: ECHO_BODY }]);
    const off = await t.request("PUT", `/v1/workflows/${w.id}`, { key: user.key, body: { active: false } });
    assert.equal(off.status, 200, off.text);
    assert.equal(off.body.data.active, false);
    assertErrorEnvelope(await trigger(off.body.data, { n: "while off" }), 404, "not_found");
    const on = await t.request("PUT", `/v1/workflows/${w.id}`, { key: user.key, body: { active: true } });
    assert.equal(on.body.data.active, true);
    assert.equal((await trigger(on.body.data, { n: "on" })).status, 200);
    const list = await waitItems(user, w.id, 1);
    assert.deepEqual(list.map((i) => i.event), [{ raw_event: { n: "on" } }]);
  });

  it("a workflow subscribed to another gets its raw_event as the trigger event (source_type EMIT)", async () => {
    const user = await t.newUser();
    const emitter = await httpWorkflow(user, [{ name: "echo", code: ECHO_BODY }], "emitter");
    const listener = await create(user, {
      name: "listener",
      steps: [
        { name: "relay", code: step(`if (steps.trigger.event.fail) throw new Error("asked to fail"); $.send.emit({ raw_event: { got: steps.trigger.event } });`) },
      ],
    });
    const sub = await t.request("POST", `/v1/subscriptions?emitter_id=${emitter.id}&listener_id=${listener.id}`, { key: user.key });
    assert.equal(sub.status, 200, sub.text);
    assert.equal((await trigger(emitter, { hello: "there" })).status, 200);
    const [relayed] = await waitItems(user, listener.id, 1);
    assert.deepEqual(relayed.event, { raw_event: { got: { hello: "there" } } });
    assert.equal(relayed.metadata.emitter_id, listener.id);

    assert.equal((await trigger(emitter, { fail: true })).status, 200);
    const [err] = await waitItems(user, listener.id, 1, "$errors");
    assert.equal(err.event.original_context.source_type, "EMIT");
    assert.deepEqual(err.event.original_event, { fail: true });
    assert.equal(err.event.error.cellId, listener.steps[0].id);
  });

  it("a timer trigger runs every interval_seconds; PUT active:false stops it", async () => {
    const user = await t.newUser();
    const w = await create(user, {
      name: "ticker",
      trigger: { type: "timer", interval_seconds: 1 },
      steps: [{ name: "tick", code: step(`$.send.emit({ raw_event: { tick: true, event: steps.trigger.event } });`) }],
    });
    assert.deepEqual(w.trigger, { type: "timer", interval_seconds: 1, cron: null });
    const ticks = await waitItems(user, w.id, 2, "", 8000);
    assert.equal(ticks[0].event.raw_event.tick, true);
    assert.equal(ticks[0].metadata.emitter_id, w.id);

    const off = await t.request("PUT", `/v1/workflows/${w.id}`, { key: user.key, body: { active: false } });
    assert.equal(off.status, 200, off.text);
    assert.equal(off.body.data.active, false);
    assert.deepEqual(off.body.data.trigger, w.trigger, "the trigger is kept");
    // a tick already running may still land; after that, nothing
    await new Promise((r) => setTimeout(r, 500));
    const count = (await items(user, w.id)).length;
    await new Promise((r) => setTimeout(r, 2000));
    assert.equal((await items(user, w.id)).length, count, "no ticks while disabled");
  });

  it("a timer-triggered step that throws reports source_type TIMER", async () => {
    const user = await t.newUser();
    const w = await create(user, {
      name: "failing ticker",
      trigger: { type: "timer", interval_seconds: 1 },
      steps: [{ name: "boom", code: step(`throw new Error("tick failed");`) }],
    });
    try {
      const [err] = await waitItems(user, w.id, 1, "$errors", 8000);
      assert.equal(err.event.original_context.source_type, "TIMER");
      assert.equal(err.event.original_context.workflow_id, w.id);
      assert.equal(err.event.error.msg, "tick failed");
      assert.equal(err.event.error.cellId, w.steps[0].id);
    } finally {
      await t.request("DELETE", `/v1/workflows/${w.id}`, { key: user.key });
    }
  });
});

describe("workflows across a restart", () => {
  let t: TestApp;
  let second: App | undefined;
  before(async () => (t = await startApp({ TRIBUTARY_PUBLIC_URL: PUBLIC_URL })));
  after(async () => {
    await second?.close();
    await t.close();
  });

  it("timer triggers keep firing, disabled ones stay off, HTTP triggers keep their URL", async () => {
    const user = await t.newUser();
    const body = (name: string, trigger: unknown, active = true) => ({
      name,
      trigger,
      active,
      steps: [{ name: "s", code: step(`$.send.emit({ raw_event: steps.trigger.event.body ?? "tick" });`) }],
    });
    const post = async (b: unknown) => {
      const res = await t.request("POST", "/v1/workflows", { key: user.key, body: b });
      assert.equal(res.status, 200, res.text);
      return res.body.data as Workflow;
    };
    const ticker = await post(body("ticker", { type: "timer", interval_seconds: 1 }));
    const off = await post(body("off", { type: "timer", interval_seconds: 1 }, false));
    const http = await post(body("http", { type: "http" }));
    await waitFor(async () => {
      const res = await t.request("GET", `/v1/workflows/${ticker.id}/event_summaries`, { key: user.key });
      return res.body.page_info.total_count >= 1;
    }, 8000, "a first tick");
    await t.app.close();

    second = await buildApp(
      resolveConfig({ TRIBUTARY_DATA_DIR: t.dataDir, TRIBUTARY_ADMIN_KEY: t.adminKey, TRIBUTARY_PUBLIC_URL: PUBLIC_URL, ...t.storeEnv }),
      { logger: false },
    );
    const app = second;
    const get = async (url: string, key: string | null = user.key) => {
      const res = await app.http.inject({ method: "GET", url, headers: key ? { authorization: `Bearer ${key}` } : {} });
      return { status: res.statusCode, body: JSON.parse(res.body) };
    };
    const count = async (id: string) => (await get(`/v1/workflows/${id}/event_summaries`)).body.page_info.total_count as number;

    const got = await get(`/v1/workflows/${http.id}`);
    assert.equal(got.status, 200);
    assert.deepEqual(got.body.data, http, "the workflow is as it was");
    const before = await count(ticker.id);
    await waitFor(async () => (await count(ticker.id)) > before, 8000, "a tick after the restart");

    const hit = await app.http.inject({
      method: "POST",
      url: new URL(http.trigger.endpoint_url!).pathname,
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ after: "restart" }),
    });
    assert.equal(hit.statusCode, 200, hit.body);
    const events = await waitFor(async () => {
      const res = await get(`/v1/workflows/${http.id}/event_summaries?expand=event`);
      return res.body.data.length > 0 ? res.body.data : undefined;
    }, 10_000, "the HTTP trigger's event");
    assert.deepEqual(events[0].event, { raw_event: { after: "restart" } });
    assert.equal(await count(off.id), 0, "a disabled timer never fired");
  });
});
