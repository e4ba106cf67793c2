import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { assertErrorEnvelope, startApp, waitFor, type TestApp } from "../helpers.ts";

// $.send.http and $.send.email (docs/writing-workflows.md, "Sending"), end to end: queued by a step, sent once the step
// has committed (a step that then waits has already sent), retried on the webhooks' schedule,
// listed on the run's step; the address guard; bad input thrown in the step; a failed step sends
// nothing; email through a real SMTP server (smtp-server) to the workflow owner.

interface User {
  id: string;
  key: string;
}

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

let t: TestApp;
let receiver: Server;
let base = "";
const received: Received[] = [];
/** answers per path, consumed in order; then 200 */
const answers = new Map<string, number[]>();

let smtp: SMTPServer;
const mails: Array<{ from: string; to: string[]; data: string }> = [];

before(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString() });
      const path = new URL(req.url!, "http://x").pathname;
      const status = answers.get(path)?.shift() ?? 200;
      res.statusCode = status;
      res.end("ok");
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const port = (receiver.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;

  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        mails.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "", to: session.envelope.rcptTo.map((r) => r.address), data: Buffer.concat(chunks).toString() });
        done();
      });
    },
  });
  await new Promise<void>((r) => smtp.listen(0, "127.0.0.1", r));
  const smtpPort = (smtp.server.address() as AddressInfo).port;

  t = await startApp({
    TRIBUTARY_FETCH_ALLOW: `127.0.0.1:${port}`,
    TRIBUTARY_WEBHOOK_BACKOFF_MS: "100,100,100,100",
    TRIBUTARY_SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    TRIBUTARY_SMTP_FROM: "Flows <flows@example.com>",
  });
});
after(async () => {
  await t.close();
  receiver.close();
  await new Promise<void>((r) => smtp.close(() => r()));
});

const step = (body: string) => `export default { async run({ steps, $ }) { ${body} } };`;

async function workflow(user: User, steps: unknown[]): Promise<any> {
  const res = await t.request("POST", "/v1/workflows", { key: user.key, body: { name: "sends", steps, trigger: { type: "http" } } });
  assert.equal(res.status, 200, res.text);
  return res.body.data;
}

async function trigger(w: any, body: unknown = {}): Promise<void> {
  const res = await t.request("POST", new URL(w.trigger.endpoint_url).pathname, { key: null, body });
  assert.equal(res.status, 200, res.text);
}

/** the workflow's newest run, with its steps, once `ok` holds */
const runWhere = (user: User, w: any, ok: (run: any) => boolean, what: string) =>
  waitFor(async () => {
    const listed = (await t.request("GET", `/v1/workflows/${w.id}/runs`, { key: user.key })).body.data[0];
    if (!listed) return undefined;
    const run = (await t.request("GET", `/v1/runs/${listed.id}`, { key: user.key })).body.data;
    return ok(run) ? run : undefined;
  }, 15_000, what);

const receivedAt = (path: string) => received.filter((r) => new URL(r.url, "http://x").pathname === path);

describe("$.send.http and $.send.email", () => {
  it("$.send.http is sent once its step commits, before the run's wait is over, and listed on the step", async () => {
    const user = await t.newUser();
    const w = await workflow(user, [
      {
        name: "notify",
        code: step(`
          $.send.http({ method: "PUT", url: "${base}/hook/a", headers: { "x-token": "t1" }, params: { q: "1 2" }, data: { order: steps.trigger.event.body.order } });
          $.send.http({ url: "${base}/hook/b", data: "plain text" });
          $.flow.delay(60000);`),
      },
      { name: "later", code: step(`return "never within this test";`) },
    ]);
    await trigger(w, { order: 42 });
    const run = await runWhere(user, w, (r) => r.status === "suspended" && r.steps[0].sends.every((s: any) => s.status === "sent"), "both sends sent while the run waits");
    const [a] = receivedAt("/hook/a");
    assert.equal(a!.method, "PUT");
    assert.equal(new URL(a!.url, "http://x").searchParams.get("q"), "1 2");
    assert.equal(a!.headers["x-token"], "t1");
    assert.equal(a!.headers["content-type"], "application/json");
    assert.match(String(a!.headers["x-tributary-send-id"]), /^snd_/, "a receiver can tell a repeat by the send's id");
    assert.deepEqual(JSON.parse(a!.body), { order: 42 });
    const [b] = receivedAt("/hook/b");
    assert.equal(b!.method, "POST");
    assert.equal(b!.body, "plain text");

    const sends = run.steps[0].sends;
    assert.equal(sends.length, 2);
    assert.match(sends[0].id, /^snd_/);
    assert.deepEqual(
      sends.map((s: any) => [s.kind, s.method, new URL(s.url).pathname, s.status, s.attempts, s.last_status, s.next_at_ms]),
      [
        ["http", "PUT", "/hook/a", "sent", 1, 200, null],
        ["http", "POST", "/hook/b", "sent", 1, 200, null],
      ],
    );
    assert.deepEqual(run.steps[1].sends, []);
  });

  it("failures are retried on the webhooks' schedule, a 4xx is not; a private address is refused", async () => {
    const user = await t.newUser();
    answers.set("/flaky", [500, 503]);
    answers.set("/gone", [404]);
    const w = await workflow(user, [
      {
        name: "s",
        code: step(`
          $.send.http({ url: "${base}/flaky", data: { n: 1 } });
          $.send.http({ url: "${base}/gone" });
          $.send.http({ url: "http://127.0.0.1:1/private" });`),
      },
    ]);
    await trigger(w);
    const run = await runWhere(user, w, (r) => r.steps[0].sends.length === 3 && r.steps[0].sends.every((s: any) => s.status !== "pending"), "every send done");
    const [flaky, gone, priv] = run.steps[0].sends;
    assert.deepEqual([flaky.status, flaky.attempts, flaky.last_status, flaky.last_error], ["sent", 3, 200, null]);
    assert.equal(receivedAt("/flaky").length, 3);
    assert.deepEqual([gone.status, gone.attempts, gone.last_status, gone.last_error], ["failed", 1, 404, "HTTP 404"]);
    assert.equal(priv.status, "failed");
    assert.equal(priv.attempts, 5, "a refused address is tried on the schedule (it may be allowed meanwhile)");
    assert.match(priv.last_error, /private|not allowed|refused/i);
  });

  it("a failed step sends nothing; bad requests throw inside the step", async () => {
    const user = await t.newUser();
    const failing = await workflow(user, [{ name: "s", code: step(`$.send.http({ url: "${base}/never" }); throw new Error("after queueing");`) }]);
    await trigger(failing);
    const run = await runWhere(user, failing, (r) => r.status === "failed", "the run to fail");
    assert.deepEqual(run.steps[0].sends, []);

    const bad = await workflow(user, [
      {
        name: "s",
        code: step(`
          const out = {};
          const attempt = (name, f) => { try { f(); out[name] = "ok"; } catch (e) { out[name] = e.name + ": " + e.message; } };
          attempt("noArgs", () => $.send.http());
          attempt("ftp", () => $.send.http({ url: "ftp://example.com/x" }));
          attempt("method", () => $.send.http({ url: "${base}/x", method: "BREW" }));
          attempt("header", () => $.send.http({ url: "${base}/x", headers: { "x-a": "1\\r\\nx-b: 2" } }));
          attempt("userinfo", () => $.send.http({ url: "http://u:p@example.com/x" }));
          attempt("big", () => $.send.http({ url: "${base}/x", data: "x".repeat(2 * 1024 * 1024) }));
          attempt("noSubject", () => $.send.email({ text: "hi" }));
          attempt("noBody", () => $.send.email({ subject: "hi" }));
          return out;`),
      },
    ]);
    await trigger(bad);
    const out = (await runWhere(user, bad, (r) => r.status === "succeeded", "the run")).steps[0].return_value;
    assert.match(out.noArgs, /^TypeError: \$\.send\.http\(\)/);
    assert.match(out.ftp, /^TypeError: .*http:\/\/ or https:\/\//);
    assert.match(out.method, /^TypeError: .*method must be one of/);
    assert.match(out.header, /^TypeError: .*x-a/);
    assert.match(out.big, /^RangeError: .*over/);
    assert.match(out.userinfo, /^TypeError: .*user name or password/);
    assert.match(out.noSubject, /^TypeError: .*subject/);
    assert.match(out.noBody, /^TypeError: .*text, html/);
    assert.equal(receivedAt("/never").length + receivedAt("/x").length, 0);
  });

  it("$.send.email reaches the workflow's owner through TRIBUTARY_SMTP_URL", async () => {
    const user = await t.newUser("mailowner");
    const w = await workflow(user, [{ name: "mail", code: step(`$.send.email({ subject: "Order " + steps.trigger.event.body.order, text: "It shipped.", html: "<p>It shipped.</p>" });`) }]);
    await trigger(w, { order: 7 });
    const run = await runWhere(user, w, (r) => r.steps[0].sends[0]?.status === "sent", "the email sent");
    assert.deepEqual([run.steps[0].sends[0].kind, run.steps[0].sends[0].subject], ["email", "Order 7"]);
    const mail = mails.find((m) => m.data.includes("Subject: Order 7"));
    assert.ok(mail, "the SMTP server got it");
    assert.deepEqual(mail.to, ["mailowner@example.com"]);
    assert.equal(mail.from, "flows@example.com");
    assert.match(mail.data, /It shipped\./);
  });

  it("error emails: a failing workflow's and source's owner is told, once per 10 minutes each, with a link to the run", async () => {
    const user = await t.newUser("failowner");
    const w = await workflow(user, [{ name: "charge", code: step(`throw new Error("card declined " + steps.trigger.event.body.n);`) }]);
    await trigger(w, { n: 1 });
    const first = await runWhere(user, w, (r) => r.status === "failed", "the run to fail");
    const mine = () => mails.filter((m) => m.to.includes("failowner@example.com"));
    const mail = await waitFor(async () => mine().find((m) => m.data.includes("card declined 1")), 10_000, "the error email");
    assert.match(mail.data, /Subject: sends failed: step charge: Error: card declined 1/);
    assert.ok(mail.data.replace(/=\r?\n/g, "").includes(`http://tributary.test/#/runs/${first.id}`), mail.data);
    // a source of the same owner gets its own email
    const src = await t.request("POST", "/v1/sources", { key: user.key, body: { name: "poller", component_code: `export default { run() { throw new RangeError("feed gone"); } };` } });
    assert.equal(src.status, 200, src.text);
    await t.request("POST", `/v1/sources/${src.body.data.id}/run`, { key: user.key });
    const srcMail = await waitFor(async () => mine().find((m) => m.data.includes("feed gone")), 10_000, "the source's error email");
    assert.ok(srcMail.data.replace(/=\r?\n/g, "").includes(`#/sources/${src.body.data.id}/errors`));
    // more failures within 10 minutes: no more emails (the errors are on $errors all the same)
    await trigger(w, { n: 2 });
    await trigger(w, { n: 3 });
    await waitFor(async () => {
      const errs = await t.request("GET", `/v1/workflows/${w.id}/$errors/event_summaries`, { key: user.key });
      return errs.body.page_info.total_count === 3 ? true : undefined;
    }, 10_000, "three errors");
    const known = await t.request("GET", `/v1/users/me/error_summaries?ids=${w.id}`, { key: user.key });
    assert.equal(known.body.data[0].count, 3);
    assert.equal(mine().filter((m) => m.data.includes("card declined")).length, 1);
  });

  it("a step's 100 sends (the most) all go out, past the sends under way at once; a redirect is final", async () => {
    const user = await t.newUser();
    answers.set("/moved", [302]);
    const w = await workflow(user, [
      { name: "fan", code: step(`for (let i = 0; i < 99; i++) $.send.http({ url: "${base}/fan/" + i }); $.send.http({ url: "${base}/moved" });`) },
    ]);
    await trigger(w);
    const run = await runWhere(user, w, (r) => r.steps[0].sends.length === 100 && r.steps[0].sends.every((s: any) => s.status !== "pending"), "every send done");
    const sends = run.steps[0].sends;
    assert.equal(sends.filter((s: any) => s.status === "sent").length, 99);
    assert.equal(new Set(received.filter((r) => r.url.startsWith("/fan/")).map((r) => r.url)).size, 99);
    assert.deepEqual([sends[99].status, sends[99].attempts, sends[99].last_status], ["failed", 1, 302]);
    // another user sees none of it
    const other = await t.newUser();
    assertErrorEnvelope(await t.request("GET", `/v1/runs/${run.id}`, { key: other.key }), 404, "not_found");
  });
});

describe("$.send.email without TRIBUTARY_SMTP_URL", () => {
  it("throws a clear error in the step", async () => {
    const plain = await startApp();
    try {
      const user = await plain.newUser();
      const res = await plain.request("POST", "/v1/workflows", {
        key: user.key,
        body: { name: "m", trigger: { type: "http" }, steps: [{ name: "s", code: step(`try { $.send.email({ subject: "x", text: "y" }); } catch (e) { return e.message; }`) }] },
      });
      const w = res.body.data;
      await plain.request("POST", new URL(w.trigger.endpoint_url).pathname, { key: null, body: {} });
      const run = await waitFor(async () => {
        const listed = (await plain.request("GET", `/v1/workflows/${w.id}/runs`, { key: user.key })).body.data[0];
        return listed?.status === "succeeded" ? (await plain.request("GET", `/v1/runs/${listed.id}`, { key: user.key })).body.data : undefined;
      }, 15_000, "the run");
      assert.match(run.steps[0].return_value, /TRIBUTARY_SMTP_URL/);
    } finally {
      await plain.close();
    }
  });
});
