import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createSource, eventsOf, startApp, waitFor, type Reply, type TestApp } from "../helpers.ts";
import { formsOf } from "../../src/core/runtime/secret-mask.ts";

// The secrets a run used (a secret env var, a secret prop, a connected account's auth) are
// replaced with [redacted:NAME] in what it shows people (docs/security.md, "Secrets in what a run
// shows"): its steps' logs, errors and summary, its $logs and $errors events, and its values as
// the run API shows them; the steps after still get the real values. Black-box: real runs, read
// back through the API.

interface User {
  id: string;
  key: string;
}

let t: TestApp;
before(async () => (t = await startApp()));
after(() => t.close());

const call = (user: User, method: string, url: string, body?: unknown): Promise<Reply> => t.request(method, url, { key: user.key, ...(body === undefined ? {} : { body }) });

/** a value with what JSON escapes (quotes, a backslash), what URLs encode and non-ASCII, unique to the test */
const secretValue = (label: string) => `${label}_"q"\\b+/ü-${Math.random().toString(36).slice(2)}`;

/** logs `expr` raw, JSON-escaped (inside an object), URL-encoded and base64 */
const logForms = (label: string, expr: string) => `
  console.log("${label} raw", ${expr});
  console.log("${label} json", JSON.stringify({ value: ${expr} }));
  console.log("${label} url", "https://x.example/?k=" + encodeURIComponent(${expr}));
  console.log("${label} base64", Buffer.from(${expr}).toString("base64"));`;

/** asserts no form of any of `values` is in `text`, and each of `names` is redacted in it */
function assertMasked(text: string, values: string[], names: string[], where: string) {
  for (const v of values) for (const form of formsOf(v)) assert.ok(!text.includes(form), `${where} shows ${JSON.stringify(form)}: ${text.slice(0, 2000)}`);
  for (const n of names) assert.ok(text.includes(`[redacted:${n}]`), `${where} has no [redacted:${n}]: ${text.slice(0, 2000)}`);
}

describe("secrets in what a run shows", () => {
  it("a workflow: logs, error, summary, return value and exports, $errors and $logs masked; the next step gets the real values; a short value is not masked", async () => {
    const user = await t.newUser();
    const envSecret = secretValue("sk_live");
    const propSecret = secretValue("prop");
    const token = secretValue("gho");
    const short = "pin12";
    assert.equal((await call(user, "PUT", "/v1/users/me/env/STRIPE_KEY", { value: envSecret, secret: true })).status, 200);
    const account = await call(user, "POST", "/v1/accounts", { app: "github", name: "gh", auth: { oauth_access_token: token } });
    assert.equal(account.status, 200, account.text);

    const leak = `export default {
      props: { key: { type: "string", secret: true }, pin: { type: "string", secret: true }, github: { type: "app", app: "github" } },
      async run({ $ }) {
        const token = this.github.$auth.oauth_access_token;
        ${logForms("env", "process.env.STRIPE_KEY")}
        ${logForms("prop", "this.key")}
        ${logForms("account", "token")}
        console.log("short", this.pin);
        $.summary = "charged with " + process.env.STRIPE_KEY;
        $.export("token", token);
        return { env: process.env.STRIPE_KEY, prop: this.key, token, short: this.pin };
      },
    };`;
    // compares what the step before returned with the values themselves (the code is not shown by a run)
    const want = { env: envSecret, prop: propSecret, token, short };
    const check = `export default { async run({ steps }) {
      const want = ${JSON.stringify(want)};
      for (const [k, v] of Object.entries(want)) if (steps.leak.$return_value[k] !== v) throw new Error("step got another " + k);
      if (steps.leak.token !== want.token) throw new Error("step got another export");
      return "same";
    } };`;
    const fail = `export default { async run() { throw new Error("refused: " + process.env.STRIPE_KEY); } };`;
    const created = await call(user, "POST", "/v1/workflows", {
      name: "masks",
      trigger: { type: "http" },
      steps: [
        { name: "leak", code: leak, props: { key: propSecret, pin: short, github: { authProvisionId: account.body.data.id } } },
        { name: "check", code: check },
        { name: "fail", code: fail },
      ],
    });
    assert.equal(created.status, 200, created.text);
    const w = created.body.data;
    const fired = await t.request("POST", new URL(w.trigger.endpoint_url).pathname, { key: null, body: {} });
    assert.equal(fired.status, 200, fired.text);

    const [listed] = await waitFor(async () => {
      const list = (await call(user, "GET", `/v1/workflows/${w.id}/runs`)).body.data as any[];
      return list.length > 0 && list[0].status === "failed" ? list : undefined;
    }, 15_000, "the run to end");
    const res = await call(user, "GET", `/v1/runs/${listed.id}?expand=steps,event`);
    assert.equal(res.status, 200, res.text);
    const names = ["STRIPE_KEY", "key", "account:github"];
    assertMasked(res.text, [envSecret, propSecret, token], names, "the run");
    const r = res.body.data;
    assert.deepEqual(r.steps.map((s: any) => s.status), ["succeeded", "succeeded", "failed"]);
    assert.equal(r.steps[1].return_value, "same", "the step after got the real values");
    assert.deepEqual(r.steps[0].return_value, { env: "[redacted:STRIPE_KEY]", prop: "[redacted:key]", token: "[redacted:account:github]", short });
    assert.deepEqual(r.steps[0].exports, { token: "[redacted:account:github]" });
    assert.equal(r.summary, "charged with [redacted:STRIPE_KEY]");
    const logs = r.steps[0].logs.map((l: any) => l.msg);
    for (const [label, name] of [["env", "STRIPE_KEY"], ["prop", "key"], ["account", "account:github"]]) {
      assert.equal(logs.find((m: string) => m.startsWith(`${label} raw`)), `${label} raw [redacted:${name}]`);
      assert.equal(logs.find((m: string) => m.startsWith(`${label} json`)), `${label} json {"value":"[redacted:${name}]"}`);
      assert.equal(logs.find((m: string) => m.startsWith(`${label} url`)), `${label} url https://x.example/?k=[redacted:${name}]`);
      assert.equal(logs.find((m: string) => m.startsWith(`${label} base64`)), `${label} base64 [redacted:${name}]`);
    }
    assert.ok(logs.includes(`short ${short}`), "a value shorter than the minimum is shown");
    assert.equal(r.steps[2].error.message, "refused: [redacted:STRIPE_KEY]");
    assert.ok(r.steps[2].error.stack.includes("[redacted:STRIPE_KEY]"));

    const errors = await call(user, "GET", `/v1/workflows/${w.id}/$errors/event_summaries?expand=event`);
    assert.equal(errors.body.data.length, 1, errors.text);
    assertMasked(errors.text, [envSecret], ["STRIPE_KEY"], "$errors");
    const logEvents = await call(user, "GET", `/v1/workflows/${w.id}/event_summaries?event_name=$logs&expand=event`);
    assert.equal(logEvents.body.data.length, 1, logEvents.text);
    assertMasked(logEvents.text, [envSecret, propSecret, token], names, "$logs");
    // the error summaries are read out of $errors
    const summaries = await call(user, "GET", `/v1/users/me/error_summaries?ids=${w.id}`);
    assert.equal(summaries.body.data[0].last_error.message, "refused: [redacted:STRIPE_KEY]", summaries.text);
  });

  it("a source: its $logs and $errors masked; a variable that isn't secret is shown", async () => {
    const user = await t.newUser();
    const envSecret = secretValue("src_env");
    const propSecret = secretValue("src_prop");
    assert.equal((await call(user, "PUT", "/v1/users/me/env/API_TOKEN", { value: envSecret, secret: true })).status, 200);
    // not secret: shown as it is
    assert.equal((await call(user, "PUT", "/v1/users/me/env/REGION", { value: "eu-west-1", secret: false })).status, 200);
    const code = `export default {
      key: "leaky", name: "Leaky", version: "0.1.0",
      props: { password: { type: "string", secret: true } },
      async run() {
        ${logForms("env", "process.env.API_TOKEN")}
        ${logForms("prop", "this.password")}
        console.log("region", process.env.REGION);
        throw new Error("denied for " + this.password);
      },
    };`;
    const source = await createSource(t, code, { configured_props: { password: propSecret } }, user.key);
    const ran = await call(user, "POST", `/v1/sources/${source.id}/run`);
    assert.equal(ran.status, 202, ran.text);
    const [error] = await waitFor(async () => {
      const got = await eventsOf(t, source.id, "$errors", user.key);
      return got.length > 0 ? got : undefined;
    }, 10_000, "the source's $errors event");
    assertMasked(JSON.stringify(error), [propSecret], ["password"], "$errors");
    const [logged] = await eventsOf(t, source.id, "$logs", user.key);
    assertMasked(JSON.stringify(logged), [envSecret, propSecret], ["API_TOKEN", "password"], "$logs");
    assert.ok(JSON.stringify(logged).includes("region eu-west-1"));
  });
});
