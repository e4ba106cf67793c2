import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OAuth2Server } from "oauth2-mock-server";
import { restart, startApp, type TestApp } from "./helpers.ts";

// The `tributary` CLI: the real bin (package.json's bin entry, run by whatever `node` the PATH
// has first: the launcher re-executes on Node 24 when it is older) against a real service over
// real HTTP, with a profile in a temp XDG_CONFIG_HOME.

const ROOT = join(import.meta.dirname, "..");
const BIN = join(ROOT, JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).bin.tributary);

interface Proc { child: ChildProcess; out: () => string; err: () => string; done: Promise<number> }

const running: ChildProcess[] = [];

function start(args: string[], env: Record<string, string>): Proc {
  // the system PATH: the bin's `#!/usr/bin/env node` finds whatever node is there
  const child = spawn(BIN, args, { env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env }, stdio: ["ignore", "pipe", "pipe"] });
  running.push(child);
  let out = "";
  let err = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  const done = new Promise<number>((resolve) => child.on("close", (code) => resolve(code ?? -1)));
  return { child, out: () => out, err: () => err, done };
}

async function run(args: string[], env: Record<string, string>): Promise<{ code: number; out: string; err: string }> {
  const p = start(args, env);
  try {
    const code = await p.done;
    return { code, out: p.out(), err: p.err() };
  } finally {
    if (p.child.exitCode === null) p.child.kill("SIGKILL");
  }
}

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

after(() => {
  for (const c of running) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
});

describe("tributary CLI", () => {
  let t: TestApp;
  let url = "";
  let home = "";
  let work = "";
  before(async () => {
    t = await startApp();
    await t.app.http.listen({ port: 0, host: "127.0.0.1" });
    url = `http://127.0.0.1:${(t.app.http.server.address() as AddressInfo).port}`;
    home = mkdtempSync(join(tmpdir(), "tributary-cli-home-"));
    work = mkdtempSync(join(tmpdir(), "tributary-cli-src-"));
  });
  after(async () => {
    await t.close();
    rmSync(home, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  });

  const start0 = start;
  const envOf = (env: Record<string, string>) => ({ HOME: home, XDG_CONFIG_HOME: join(home, "config"), ...env });
  const startCli = (args: string[], env: Record<string, string> = {}) => start0(args, envOf(env));
  const cli = (args: string[], env: Record<string, string> = {}) => run(args, envOf(env));

  let sourceId = "";

  it("login verifies the key and writes a 0600 profile", async () => {
    const r = await cli(["login", "--url", url, "--key", t.adminKey]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /Logged in .* as admin/);
    const file = join(home, "config", "tributary", "config.json");
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.deepEqual(JSON.parse(readFileSync(file, "utf8")), { url, key: t.adminKey });
  });

  it("a bad key: exit 1, the message and a hint on stderr, nothing on stdout", async () => {
    const r = await cli(["list", "sources"], { TRIBUTARY_API_KEY: "trb_not-a-key" });
    assert.equal(r.code, 1);
    assert.equal(r.out, "");
    assert.match(r.err, /error: .+/);
    assert.match(r.err, /hint: /);
    const l = await cli(["login", "--url", url, "--key", "trb_bad", "--json"]);
    assert.equal(l.code, 1);
    assert.equal(l.out, "");
    assert.match(l.err, /error: /);
  });

  it("an unknown command: exit 1 with the usage", async () => {
    const r = await cli(["frobnicate"]);
    assert.equal(r.code, 1);
    assert.match(r.err, /unknown command 'frobnicate'/);
    assert.match(r.err, /Usage: tributary/);
  });

  it("deploy bundles a local relative import and sends the props", async () => {
    writeFileSync(join(work, "greet.js"), `export function greet(name) { return "hello " + name; }\n`);
    writeFileSync(
      join(work, "component.js"),
      `import { greet } from "./greet.js";
export default {
  key: "cli-test",
  name: "CLI Test",
  version: "0.1.0",
  props: { label: { type: "string" }, count: { type: "integer", optional: true } },
  run() { this.$emit({ greeting: greet(this.label), count: this.count }); },
};
`,
    );
    const r = await cli(["deploy", join(work, "component.js"), "--name", "cli-src", "--prop", "label=world", "--prop", "count=3", "--json"]);
    assert.equal(r.code, 0, r.err);
    const src = JSON.parse(r.out);
    assert.match(src.id, /^dc_/);
    assert.equal(src.name, "cli-src");
    assert.deepEqual(src.configured_props, { label: "world", count: 3 });
    sourceId = src.id;
  });

  it("list sources: an aligned table, and JSON with --json", async () => {
    const human = await cli(["list", "sources"]);
    assert.equal(human.code, 0, human.err);
    const lines = human.out.trimEnd().split("\n");
    assert.match(lines[0]!, /^ID\s+NAME\s+COMPONENT\s+ACTIVE\s+UPDATED$/);
    const row = lines.find((l) => l.startsWith(sourceId));
    assert.ok(row, human.out);
    assert.match(row!, /cli-src/);
    assert.equal(row!.indexOf("cli-src"), lines[0]!.indexOf("NAME"), "columns line up");
    assert.match(row!, /ago|now/);
    const json = await cli(["list", "sources", "--json"]);
    assert.equal(json.code, 0, json.err);
    assert.ok(JSON.parse(json.out).some((s: { id: string }) => s.id === sourceId));
  });

  it("run, then events --json shows the event", async () => {
    const r = await cli(["run", sourceId]);
    assert.equal(r.code, 0, r.err);
    const events = await until("the event", async () => {
      const e = await cli(["events", sourceId, "--json"]);
      assert.equal(e.code, 0, e.err);
      const rows = JSON.parse(e.out) as { event: { greeting?: string; count?: number } }[];
      return rows.length > 0 ? rows : undefined;
    });
    assert.deepEqual(events[0]!.event, { greeting: "hello world", count: 3 });
    const human = await cli(["events", sourceId]);
    assert.match(human.out, /hello world/);
  });

  it("events -f prints the latest events, oldest first, then one that arrives after it started, none twice", async () => {
    const before = JSON.parse((await cli(["events", sourceId, "--json"])).out) as { id: string }[];
    assert.ok(before.length > 0, "the source has events already");
    const known = new Set(before.map((e) => e.id));
    const tail = startCli(["events", sourceId, "-f", "--json"]);
    try {
      await until("the tail to connect", () => (/following/.test(tail.err()) ? true : undefined));
      const shown = tail.out().split("\n").filter(Boolean).map((l) => (JSON.parse(l) as { id: string }).id);
      assert.deepEqual(shown, before.map((e) => e.id).reverse(), "the latest page first, oldest of it first");
      assert.equal((await cli(["run", sourceId])).code, 0);
      const fresh = await until("a new event on the tail", () =>
        tail
          .out()
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l) as { id: string; event: unknown })
          .find((e) => !known.has(e.id)),
      );
      assert.deepEqual(fresh.event, { greeting: "hello world", count: 3 });
      const ids = tail.out().split("\n").filter(Boolean).map((l) => (JSON.parse(l) as { id: string }).id);
      assert.equal(new Set(ids).size, ids.length, "no event printed twice");
    } finally {
      tail.child.kill("SIGKILL");
    }
  });

  it("update redeploys with new code; logs shows its console output", async () => {
    writeFileSync(join(work, "v2.js"), `import { greet } from "./greet.js";\nexport default { props: { label: { type: "string" } }, run() { console.log(greet("logs")); this.$emit({ v: 2 }); } };\n`);
    const u = await cli(["update", sourceId, join(work, "v2.js"), "--json"]);
    assert.equal(u.code, 0, u.err);
    assert.equal(JSON.parse(u.out).id, sourceId);
    assert.equal((await cli(["run", sourceId])).code, 0);
    await until("the log line", async () => {
      const l = await cli(["logs", sourceId]);
      return /hello logs/.test(l.out) ? true : undefined;
    });
  });

  it("subscribe, list subscriptions, unsubscribe; users create prints a working key", async () => {
    writeFileSync(join(work, "listener.js"), `export default { run(e) { this.$emit({ got: e }); } };\n`);
    const listener = JSON.parse((await cli(["deploy", join(work, "listener.js"), "--json"])).out).id as string;
    const sub = await cli(["subscribe", sourceId, listener, "--json"]);
    assert.equal(sub.code, 0, sub.err);
    assert.equal(JSON.parse(sub.out).listener_id, listener);
    const subs = await cli(["list", "subscriptions"]);
    assert.match(subs.out, new RegExp(`${sourceId}\\s+${listener}`));
    assert.equal((await cli(["unsubscribe", sourceId, listener])).code, 0);
    assert.deepEqual(JSON.parse((await cli(["list", "subscriptions", "--json"])).out), []);
    assert.equal((await cli(["delete", listener])).code, 0);

    const created = await cli(["users", "create", "carol", "carol@example.com", "--json"]);
    assert.equal(created.code, 0, created.err);
    const key = JSON.parse(created.out).api_key as string;
    const carol = await cli(["list", "sources", "--json"], { TRIBUTARY_API_KEY: key });
    assert.equal(carol.code, 0, carol.err);
    assert.deepEqual(JSON.parse(carol.out), []);
  });

  it("dev deploys, redeploys on a save of an imported file, prints events and logs, and deletes on Ctrl-C", async () => {
    writeFileSync(join(work, "dev-lib.js"), `export const v = "one";\n`);
    writeFileSync(join(work, "dev.js"), `import { v } from "./dev-lib.js";\nexport default { run() { console.log("log", v); this.$emit({ v }); } };\n`);
    const d = startCli(["dev", join(work, "dev.js")]);
    try {
      const id = await until("the dev deploy", () => /deployed (dc_\S+);/.exec(d.err())?.[1]);
      // the three tails connect right after the deploy; run until the first event shows
      await until("the first event", async () => {
        if (/event \{"v":"one"\}/.test(d.out())) return true;
        await cli(["run", id]);
        await new Promise((r) => setTimeout(r, 300));
        return undefined;
      });
      await until("the log line", () => (/log\s+log one/.test(d.out()) ? true : undefined));
      writeFileSync(join(work, "dev-lib.js"), `export const v = "two";\n`);
      await until("the redeploy", () => (/redeployed/.test(d.err()) ? true : undefined));
      assert.equal((await cli(["run", id])).code, 0);
      await until("the new event", () => (/event \{"v":"two"\}/.test(d.out()) ? true : undefined));
      d.child.kill("SIGINT");
      assert.equal(await d.done, 0, d.err());
      assert.match(d.err(), new RegExp(`deleted ${id}`));
      assert.equal((await cli(["events", id])).code, 1);
    } finally {
      d.child.kill("SIGKILL");
    }
  });

  it("run --event sends the event to an HTTP source's endpoint", async () => {
    writeFileSync(join(work, "http.js"), `export default { props: { http: "$.interface.http" }, run(e) { this.$emit(e.body); } };\n`);
    const id = JSON.parse((await cli(["deploy", join(work, "http.js"), "--json"])).out).id as string;
    const r = await cli(["run", id, "--event", `{"hello":"world"}`]);
    assert.equal(r.code, 0, r.err);
    await until("the sent event", async () => {
      const rows = JSON.parse((await cli(["events", id, "--json"])).out) as { event: unknown }[];
      return rows.some((e) => JSON.stringify(e.event) === `{"hello":"world"}`) ? true : undefined;
    });
    const bad = await cli(["run", id, "--event", "{nope"]);
    assert.equal(bad.code, 1);
    assert.match(bad.err, /not JSON/);
    assert.equal((await cli(["delete", id])).code, 0);
  });

  it("run --event on a workflow: the event is its trigger event", async () => {
    const wf = await t.request("POST", "/v1/workflows", {
      body: {
        name: "cli-wf",
        steps: [{ name: "echo", code: "export default { async run({ steps, $ }) { $.send.emit({ raw_event: { got: steps.trigger.event } }) } }" }],
      },
    });
    assert.equal(wf.status, 200, wf.text);
    const id = wf.body.data.id as string;
    const r = await cli(["run", id, "--event", `{"hello":"workflow"}`]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, new RegExp(`Started run r_[\\w-]+ of ${id} with the event; see \`tributary run show r_[\\w-]+\``));
    const row = await until("the workflow's event", async () => {
      const e = await cli(["events", id, "--json"]);
      assert.equal(e.code, 0, e.err);
      return (JSON.parse(e.out) as { event: { raw_event?: unknown } }[]).find((x) => x.event.raw_event !== undefined);
    });
    assert.deepEqual(row.event.raw_event, { got: { hello: "workflow" } });
    const json = await cli(["run", id, "--event", `{"n":2}`, "--json"]);
    assert.equal(json.code, 0, json.err);
    const sent = JSON.parse(json.out) as { accepted: boolean; run_id: string };
    assert.equal(sent.accepted, true);
    assert.match(sent.run_id, /^r_/);
  });

  it("run on an HTTP workflow sends a request (--body, --header, --method); run show says how it was answered and what a run waits for", async () => {
    const wf = await t.request("POST", "/v1/workflows", {
      body: {
        name: "cli-http",
        trigger: { type: "http" },
        steps: [{ name: "greet", code: "export default { async run({ steps }) { const e = steps.trigger.event; if (e.body.fail) throw new Error('told to fail'); return e.method + ' ' + e.headers['x-token'] + ' ' + e.body.name; } }" }],
      },
    });
    assert.equal(wf.status, 200, wf.text);
    const id = wf.body.data.id as string;
    const r = await cli(["run", id, "--body", `{"name":"ada"}`, "--header", "X-Token: abc", "--method", "put"]);
    assert.equal(r.code, 0, r.err);
    const runId = r.out.match(new RegExp(`Started run (r_[\\w-]+) of ${id} \\(PUT request\\); see \`tributary run show r_[\\w-]+\``))?.[1];
    assert.ok(runId, r.out);
    const shown = await until("the run to succeed", async () => {
      const s = await cli(["run", "show", runId]);
      return s.out.includes("succeeded") ? s : undefined;
    });
    assert.match(shown.out, /greet .*succeeded.*"PUT abc ada"/);
    // no request started it: nothing was answered, and it says how it started
    assert.doesNotMatch(shown.out, /replied|answered/);
    assert.match(shown.out, /run now \(no request\)/);

    // a request answered at acceptance whose run then failed: not shown as a success
    await t.request("POST", new URL(wf.body.data.trigger.endpoint_url).pathname, { key: null, body: { fail: true } });
    const failed = await until("the failed run", async () => {
      const list = await t.request("GET", `/v1/workflows/${id}/runs?status=failed`);
      return list.body.data[0]?.id as string | undefined;
    });
    const show = await cli(["run", "show", failed]);
    assert.match(show.out, /answered 200 at acceptance; the run then failed/);
    assert.doesNotMatch(show.out, /replied/);
    // its $errors row shows the error, not the start of the event it failed on
    const errors = await until("the $errors row", async () => {
      const e = await cli(["events", id, "--stream", "$errors"]);
      return e.out.includes("told to fail") ? e : undefined;
    });
    assert.match(errors.out, /step greet: Error: told to fail/);

    // --body on a workflow without an endpoint, --header without a colon: usage errors
    const plain = await t.request("POST", "/v1/workflows", { body: { name: "cli-plain", steps: [{ name: "a", code: "export default { async run() { return 1; } }" }] } });
    const wrong = await cli(["run", plain.body.data.id, "--body", "{}"]);
    assert.equal(wrong.code, 1);
    assert.match(wrong.err, /for HTTP workflows/);
    const bad = await cli(["run", id, "--header", "nocolon"]);
    assert.equal(bad.code, 1);
    assert.match(bad.err, /expected "Name: value"/);

    // a suspended run: what it waits for, until when, and the resume URL its step exported
    const susp = await t.request("POST", "/v1/workflows", {
      body: { name: "cli-wait", steps: [{ name: "ask", code: "export default { async run({ $ }) { const { resume_url } = $.flow.suspend(3600000); $.export('resume_url', resume_url); } }" }] },
    });
    const started = await cli(["run", susp.body.data.id]);
    const waitId = started.out.match(/Started run (r_[\w-]+)/)?.[1];
    assert.ok(waitId, started.out + started.err);
    const waiting = await until("the run to be suspended", async () => {
      const s = await cli(["run", "show", waitId]);
      return s.out.includes("resume URL") ? s : undefined;
    });
    assert.match(waiting.out, /is suspended \(\$\.flow\.suspend\).* at step 1 \(ask\)/);
    assert.match(waiting.out, /until \d{4}-\d\d-\d\dT.* \(in (\d+ minutes|1 hour)\) unless resumed, then it fails/);
    assert.match(waiting.out, /resume URL: http/);
    assert.doesNotMatch(waiting.out, /replied|answered/, "a run of a workflow without an endpoint answered nothing");
  });

  it("not found: a hint for the resource asked about; runs --status lists the statuses; datastores create; a stopped service is named", async () => {
    const cases: Array<[string[], RegExp]> = [
      [["run", "show", "r_doesnotexist00"], /tributary runs p_/],
      [["env", "unset", "NOPE_NOT_SET"], /tributary env list/],
      [["records", "ds_doesnotexist0"], /tributary datastores list/],
      [["events", "p_doesnotexist00"], /tributary list workflows/],
    ];
    for (const [args, hint] of cases) {
      const r = await cli(args);
      assert.equal(r.code, 1, `${args.join(" ")}: ${r.out}`);
      assert.match(r.err, hint, args.join(" "));
      assert.doesNotMatch(r.err, /list sources/, args.join(" "));
    }
    const status = await cli(["runs", "p_doesnotexist00", "--status", "bogus"]);
    assert.equal(status.code, 1);
    assert.match(status.err, /--status bogus: not a run status/);
    assert.match(status.err, /one of: running, suspended, succeeded, failed, exited, cancelled/);

    const made = await cli(["datastores", "create", "cli-store", "--json"]);
    assert.equal(made.code, 0, made.err);
    const store = JSON.parse(made.out) as { id: string; name: string };
    assert.equal(store.name, "cli-store");
    const listed = await cli(["datastores", "list"]);
    assert.match(listed.out, new RegExp(`${store.id}\\s+cli-store`));

    // nothing listens on this port (one just freed): the URL tried is named
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
    const closed = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
    await new Promise((r) => probe.close(r));
    const login = await cli(["login", "--url", closed, "--key", "trb_x"]);
    assert.equal(login.code, 1);
    assert.ok(login.err.includes(`could not reach ${closed}: connection refused`), login.err);
    const list = await cli(["list", "workflows"], { TRIBUTARY_URL: closed });
    assert.ok(list.err.includes(`could not reach ${closed}: connection refused`), list.err);
  });

  it("runs, run show (the run step by step), replay and cancel; --version; validation details as hints", async () => {
    const wf = await t.request("POST", "/v1/workflows", {
      body: {
        name: "cli-runs",
        trigger: { type: "http" },
        steps: [
          { name: "first", code: `export default { async run({ steps, $ }) { console.log("hello from first"); $.export("half", 20); return 41; } }` },
          { name: "second", code: `export default { async run({ steps, $ }) { throw new Error("broke here"); } }` },
        ],
      },
    });
    assert.equal(wf.status, 200, wf.text);
    const id = wf.body.data.id as string;
    await t.request("POST", new URL(wf.body.data.trigger.endpoint_url).pathname, { key: null, body: { n: 1 } });
    const runId = await until("a failed run", async () => {
      const r = await cli(["runs", id, "--json"]);
      assert.equal(r.code, 0, r.err);
      const list = JSON.parse(r.out) as Array<{ id: string; status: string }>;
      return list[0]?.status === "failed" ? list[0].id : undefined;
    });
    const table = await cli(["runs", id]);
    assert.equal(table.code, 0, table.err);
    assert.match(table.out, /ID\s+STATUS\s+STARTED/);
    assert.match(table.out, new RegExp(`${runId}\\s+failed`));

    const shown = await cli(["run", "show", runId]);
    assert.equal(shown.code, 0, shown.err);
    assert.match(shown.out, new RegExp(`^${runId}\\s+failed`));
    assert.match(shown.out, /1\s+first\s+succeeded\s+.*→ 41/);
    assert.match(shown.out, /exports \{"half":20\}/);
    assert.match(shown.out, /log: hello from first/);
    assert.match(shown.out, /2\s+second\s+failed/);
    assert.match(shown.out, /Error: broke here/);

    const replayed = await cli(["replay", runId]);
    assert.equal(replayed.code, 0, replayed.err);
    const newId = /as (r_\S+);/.exec(replayed.out)?.[1];
    assert.ok(newId, replayed.out);
    const again = await until("the replay to end", async () => {
      const r = await cli(["run", "show", newId!, "--json"]);
      const run = JSON.parse(r.out) as { status: string; replay_of: string };
      return run.status === "failed" ? run : undefined;
    });
    assert.equal(again.replay_of, runId);

    const waiting = await t.request("POST", "/v1/workflows", {
      body: { name: "cli-wait", trigger: { type: "http" }, steps: [{ name: "w", code: `export default { async run({ $ }) { $.flow.delay(600000); } }` }] },
    });
    await t.request("POST", new URL(waiting.body.data.trigger.endpoint_url).pathname, { key: null, body: {} });
    const suspended = await until("a suspended run", async () => {
      const r = await cli(["runs", waiting.body.data.id, "--status", "suspended", "--json"]);
      return (JSON.parse(r.out) as Array<{ id: string }>)[0]?.id;
    });
    const badData = await cli(["resume", suspended, "--data", "{nope"]);
    assert.equal(badData.code, 1);
    assert.match(badData.err, /--data: not JSON/);
    const resumed = await cli(["resume", suspended, "--data", '{"ok":true}']);
    assert.equal(resumed.code, 0, resumed.err);
    assert.match(resumed.out, new RegExp(`Resumed ${suspended}`));
    await until("the resumed run to succeed", async () => {
      const r = await cli(["run", "show", suspended, "--json"]);
      return (JSON.parse(r.out) as { status: string }).status === "succeeded" ? true : undefined;
    });
    await t.request("POST", new URL(waiting.body.data.trigger.endpoint_url).pathname, { key: null, body: {} });
    const suspended2 = await until("a second suspended run", async () => {
      const r = await cli(["runs", waiting.body.data.id, "--status", "suspended", "--json"]);
      return (JSON.parse(r.out) as Array<{ id: string }>)[0]?.id;
    });
    const cancelled = await cli(["cancel", suspended2]);
    assert.equal(cancelled.code, 0, cancelled.err);
    assert.match(cancelled.out, new RegExp(`Cancelled ${suspended2} \\(cancelled\\)`));
    const notRun = await cli(["run", "show", "p_nope"]);
    assert.equal(notRun.code, 1);
    assert.match(notRun.err, /not a run/);

    const version = await cli(["--version"]);
    assert.equal(version.code, 0);
    assert.equal(version.out.trim(), JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version);

    writeFileSync(join(work, "counted.js"), `export default { props: { count: { type: "integer" } }, run() {} };\n`);
    const bad = await cli(["deploy", join(work, "counted.js"), "--prop", "count=many"]);
    assert.equal(bad.code, 1);
    assert.match(bad.err, /error: configured_props are not valid/);
    assert.match(bad.err, /hint: configured_props\.count: must be an integer/);
    writeFileSync(join(work, "no-export.js"), `const component = { run() {} };\n`);
    const none = await cli(["deploy", join(work, "no-export.js")]);
    assert.equal(none.code, 1);
    assert.match(none.err, /no-export\.js has no default export/);
  });

  it("env set/list/unset (secret values hidden); datastores and records", async () => {
    assert.equal((await cli(["env", "set", "REGION", "eu-west-1"])).code, 0);
    const secret = await cli(["env", "set", "TOKEN", "s3cr3t", "--secret"]);
    assert.equal(secret.code, 0, secret.err);
    const listed = await cli(["env", "list"]);
    assert.equal(listed.code, 0, listed.err);
    assert.match(listed.out, /REGION\s+eu-west-1/);
    assert.match(listed.out, /TOKEN\s+\(secret\)/);
    assert.doesNotMatch(listed.out, /s3cr3t/);
    assert.equal((await cli(["env", "unset", "REGION"])).code, 0);
    const after = JSON.parse((await cli(["env", "list", "--json"])).out) as Array<{ name: string }>;
    assert.deepEqual(after.map((v) => v.name), ["TOKEN"]);
    const bad = await cli(["env", "set", "1BAD", "x"]);
    assert.equal(bad.code, 1);
    assert.match(bad.err, /hint: /);

    const store = await t.request("POST", "/v1/data_stores", { body: { name: "cli-store" } });
    const id = store.body.data.id as string;
    await t.request("PUT", `/v1/data_stores/${id}/records/order%2F1`, { body: { value: { total: 3 } } });
    await t.request("PUT", `/v1/data_stores/${id}/records/other`, { body: { value: "x", ttl: 3600 } });
    const stores = await cli(["datastores"]);
    assert.equal(stores.code, 0, stores.err);
    assert.match(stores.out, new RegExp(`${id}\\s+cli-store\\s+2`));
    const recs = await cli(["records", id, "--prefix", "order/"]);
    assert.equal(recs.code, 0, recs.err);
    assert.match(recs.out, /order\/1\s+\{"total":3\}/);
    assert.doesNotMatch(recs.out, /other/);
  });

  it("list workflows, webhooks and accounts: tables, and JSON with --json; delete a workflow and a webhook", async () => {
    const wf = (await t.request("POST", "/v1/workflows", { body: { name: "listed-wf", steps: [{ name: "s", code: "export default { async run() {} }" }] } })).body.data;
    const wh = await t.request("POST", "/v1/webhooks?url=https://example.com/hook&name=listed-hook");
    assert.equal(wh.status, 200, wh.text);
    const ac = await t.request("POST", "/v1/accounts", { body: { app: "github", name: "listed-account", auth: { oauth_access_token: "gho_x" } } });
    assert.equal(ac.status, 200, ac.text);
    const cases: [string, RegExp, string, string][] = [
      ["workflows", /^ID\s+NAME\s+ACTIVE\s+UPDATED$/, wf.id, "listed-wf"],
      ["webhooks", /^ID\s+NAME\s+URL\s+CREATED$/, wh.body.data.id, "listed-hook"],
      ["accounts", /^ID\s+APP\s+NAME\s+STATUS\s+CREATED$/, ac.body.data.id, "listed-account"],
    ];
    for (const [kind, head, id, name] of cases) {
      const human = await cli(["list", kind]);
      assert.equal(human.code, 0, human.err);
      const lines = human.out.trimEnd().split("\n");
      assert.match(lines[0]!, head, `list ${kind}: ${human.out}`);
      const row = lines.find((l) => l.startsWith(id));
      assert.ok(row, `list ${kind}: ${human.out}`);
      assert.equal(row!.indexOf(name), lines[0]!.indexOf("NAME"), `list ${kind}: columns line up`);
      const json = await cli(["list", kind, "--json"]);
      assert.equal(json.code, 0, json.err);
      const rows = JSON.parse(json.out) as { id: string; name: string; secret?: string }[];
      assert.equal(rows.find((x) => x.id === id)?.name, name);
    }
    // components: every column filled, the props a source of it is configured with
    const registry = (await cli(["list", "registry"])).out.trimEnd().split("\n");
    assert.match(registry[0]!, /^ID\s+NAME\s+VERSION\s+PROPS$/);
    assert.match(registry.find((l) => l.includes("New Item in Feed")) ?? "", /^sc_\S+\s+New Item in Feed\s+0\.0\.1\s+url, timer$/);
    const mine = (await cli(["list", "components"])).out.trimEnd().split("\n");
    assert.match(mine[0]!, /^ID\s+NAME\s+VERSION\s+PROPS\s+CREATED$/);
    assert.ok(mine.slice(1).every((l) => l.split(/\s{2,}/).length === 5 && !/undefined/.test(l)), mine.join("\n"));
    // the webhook's secret and the account's auth are never listed
    assert.doesNotMatch((await cli(["list", "webhooks", "--json"])).out, /"secret"/);
    assert.doesNotMatch((await cli(["list", "accounts", "--json"])).out, /gho_x/);

    for (const [kind, id] of [["workflows", wf.id], ["webhooks", wh.body.data.id]] as const) {
      const del = await cli(["delete", id, "--json"]);
      assert.equal(del.code, 0, del.err);
      assert.deepEqual(JSON.parse(del.out), { deleted: id });
      assert.ok(!(JSON.parse((await cli(["list", kind, "--json"])).out) as { id: string }[]).some((x) => x.id === id), `${id} is gone`);
      const again = await cli(["delete", id]);
      assert.equal(again.code, 1);
      assert.match(again.err, /not_found/);
    }
    const human = await cli(["delete", ac.body.data.id]);
    assert.equal(human.code, 0, human.err);
    assert.match(human.out, /^Deleted apn_/);
  });

  it("accounts connect prints the provider's page, waits for the callback, and says which account it made", async () => {
    const provider = new OAuth2Server();
    await provider.issuer.keys.generate("RS256");
    await provider.start(0, "127.0.0.1");
    try {
      const issuer = provider.issuer.url!;
      const configured = await t.request("POST", "/v1/oauth_apps", {
        body: { app: "cli-github", client_id: "c", client_secret: "s", authorize_url: `${issuer}/authorize`, token_url: `${issuer}/token`, scopes: ["repo"] },
      });
      assert.equal(configured.status, 200, configured.text);
      const p = startCli(["accounts", "connect", "cli-github", "--name", "from the cli", "--json"]);
      const started = await until("the authorize URL", () => {
        const m = /"authorize_url": "([^"]+)"/.exec(p.out());
        return m ? { authorize_url: m[1]! } : undefined;
      });
      // the user's browser: the provider redirects it to the callback
      const res = await fetch(started.authorize_url, { redirect: "manual" });
      const back = new URL(res.headers.get("location")!);
      const question = await fetch(`${url}${back.pathname}${back.search}`);
      assert.match(await question.text(), /to the Tributary user <strong>admin<\/strong>/);
      const form = new URLSearchParams(back.search);
      form.set("decision", "connect");
      const page = await fetch(`${url}/oauth/callback`, { method: "POST", body: form });
      assert.equal(page.status, 200, await page.text());
      assert.equal(await p.done, 0, p.err());
      const flow = { status: /"status": "(\w+)"/.exec(p.out())?.[1], account_id: /"account_id": "(apn_[\w-]+)"/.exec(p.out())?.[1] };
      assert.equal(flow.status, "connected", p.out());
      const account = await t.request("GET", `/v1/accounts/${flow.account_id}`);
      assert.equal(account.body.data.name, "from the cli");
      assert.equal(account.body.data.oauth, true);

      const unknown = await cli(["accounts", "connect", "nope"]);
      assert.equal(unknown.code, 1);
      assert.match(unknown.err, /no OAuth app is configured for nope/);
    } finally {
      await provider.stop();
    }
  });

  it("usage errors: exit 1, the message and a hint on stderr, nothing on stdout with --json", async () => {
    const cases = [
      ["list", "frobs", "--json"],
      ["delete", "x_123", "--json"],
      ["run", "wh_123", "--json"],
      ["deploy", join(work, "component.js"), "--prop", "novalue", "--json"],
      ["events", sourceId, "--limit", "-3", "--json"],
    ];
    for (const args of cases) {
      const r = await cli(args);
      assert.equal(r.code, 1, args.join(" "));
      assert.equal(r.out, "", `${args.join(" ")}: nothing on stdout`);
      assert.match(r.err, /^error: .+\n/m, args.join(" "));
      assert.match(r.err, /^hint: .+/m, args.join(" "));
    }
    // a missing argument (commander's own usage error): its message and the usage, on stderr
    const missing = await cli(["deploy", "--json"]);
    assert.equal(missing.code, 1);
    assert.equal(missing.out, "");
    assert.match(missing.err, /missing required argument 'file'/);
    assert.match(missing.err, /Usage: tributary deploy/);
  });

  it("delete removes the source", async () => {
    const r = await cli(["delete", sourceId, "--json"]);
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(JSON.parse(r.out), { deleted: sourceId });
    const list = await cli(["list", "sources", "--json"]);
    assert.ok(!JSON.parse(list.out).some((s: { id: string }) => s.id === sourceId));
    const again = await cli(["delete", sourceId]);
    assert.equal(again.code, 1);
    assert.match(again.err, /error: /);
  });
});

describe("tributary deploy's bundle", () => {
  it("inlines relative imports and leaves bare ones (packages, node:) for the server", async () => {
    const { bundle } = await import("../src/cli/commands/deploy.ts");
    const dir = mkdtempSync(join(tmpdir(), "tributary-cli-bundle-"));
    try {
      writeFileSync(join(dir, "lib.js"), `export const inlined = "from-lib";\n`);
      writeFileSync(
        join(dir, "c.js"),
        `import { inlined } from "./lib.js";\nimport dayjs from "dayjs";\nimport { createHash } from "node:crypto";\nimport get from "lodash/get";\nexport default { run() { this.$emit({ inlined, d: typeof dayjs, h: typeof createHash, g: typeof get }); } };\n`,
      );
      const code = await bundle(join(dir, "c.js"));
      assert.match(code, /"from-lib"/);
      // esbuild's `// path/to/file.js` lines would hand the server this machine's paths
      assert.doesNotMatch(code, /^\/\/ .*\.js$/m);
      assert.ok(!code.includes(dir), "no local path in the bundle");
      assert.ok(!code.includes(tmpdir()), "no local path in the bundle");
      assert.doesNotMatch(code, /\.\/lib\.js/);
      assert.match(code, /from "dayjs"/);
      assert.match(code, /from "node:crypto"/);
      assert.match(code, /from "lodash\/get"/);
      assert.match(code, /export \{[^}]*as default/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("tributary events -f across a service restart", () => {
  it("reconnects (with Last-Event-ID) after the service restarts: a later event arrives, none twice", async () => {
    const first = await startApp();
    let second: TestApp | undefined;
    const home = mkdtempSync(join(tmpdir(), "tributary-cli-home-"));
    try {
      await first.app.http.listen({ port: 0, host: "127.0.0.1" });
      const port = (first.app.http.server.address() as AddressInfo).port;
      const env = { HOME: home, XDG_CONFIG_HOME: home, TRIBUTARY_URL: `http://127.0.0.1:${port}`, TRIBUTARY_API_KEY: first.adminKey };
      writeFileSync(join(home, "c.js"), `export default { run() { this.$emit({ n: Date.now() }); } };\n`);
      const id = JSON.parse((await run(["deploy", join(home, "c.js"), "--json"], env)).out).id as string;
      const tail = start(["events", id, "-f", "--json"], env);
      try {
        const lines = () => tail.out().split("\n").filter(Boolean).map((l) => JSON.parse(l) as { id: string });
        await until("the tail to connect", () => (/following/.test(tail.err()) ? true : undefined));
        assert.equal((await run(["run", id], env)).code, 0);
        await until("the first event", () => (lines().length === 1 ? true : undefined));
        await first.app.close();
        await until("the tail to notice", () => (/reconnecting/.test(tail.err()) ? true : undefined));
        second = await restart(first);
        await second.app.http.listen({ port, host: "127.0.0.1" });
        assert.equal((await run(["run", id], env)).code, 0);
        await until("the second event", () => (lines().length >= 2 ? true : undefined));
        await until("the tail to reconnect", () => ((tail.err().match(/following/g) ?? []).length >= 2 ? true : undefined));
        const ids = lines().map((e) => e.id);
        assert.equal(new Set(ids).size, ids.length, `no event twice: ${ids.join(", ")}`);
      } finally {
        tail.child.kill("SIGKILL");
      }
    } finally {
      await second?.close();
      await first.close();
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe("tributary deploy's bundle: esbuild's path comments", () => {
  it("are removed, and nothing else is: a comment-like line in a string stays, CommonJS keys are relative", async () => {
    const { bundle, stripPathComments } = await import("../src/cli/commands/deploy.ts");
    const dir = mkdtempSync(join(tmpdir(), "tributary-cli-bundle-"));
    try {
      writeFileSync(join(dir, "cjs.cjs"), `module.exports = { n: 1 };\n`);
      writeFileSync(join(dir, "c.js"), "import cjs from \"./cjs.cjs\";\nconst s = `\n// c.js\n`;\nexport default { run() { this.$emit({ cjs, s }); } };\n");
      const code = await bundle(join(dir, "c.js"));
      assert.ok(!code.includes(dir), code);
      assert.match(code, /"cjs\.cjs"/);
      assert.doesNotMatch(code, /^\/\/ cjs\.cjs$/m);
      // the look-alike line inside a template literal is code, and stays
      assert.match(code, /`\n\/\/ c\.js\n`/);
      const stripped = await stripPathComments("// lib.js\nvar a = \"// lib.js\";\n/*! license */\nexport { a };\n");
      assert.doesNotMatch(stripped, /^\/\/ lib\.js$/m);
      assert.match(stripped, /var a = "\/\/ lib\.js";/);
      assert.match(stripped, /\/\*! license \*\//);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
