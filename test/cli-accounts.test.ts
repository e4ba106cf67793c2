import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { listenLocally, startApp, type TestApp } from "./helpers.ts";

// `tributary accounts show` and `accounts events-url [--new]`: the real bin against a real
// service over real HTTP (as test/cli.test.ts), each user's key in TRIBUTARY_API_KEY. What the
// CLI prints is checked against the API, and a replaced URL against /app-events itself.

const ROOT = join(import.meta.dirname, "..");
const BIN = join(ROOT, JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).bin.tributary);

const pathOf = (url: string) => new URL(url).pathname;
const slackEvent = { type: "event_callback", event: { type: "message", text: "hi" } };

describe("tributary accounts show / events-url", () => {
  let t: TestApp;
  let url = "";
  let home = "";
  let ada: { id: string; key: string };
  let account: { id: string; events_url: string };

  before(async () => {
    t = await startApp();
    url = await listenLocally(t);
    home = mkdtempSync(join(tmpdir(), "tributary-cli-accounts-"));
    ada = await t.newUser();
    const made = await t.request("POST", "/v1/accounts", { key: ada.key, body: { app: "slack", name: "Ada's Slack", auth: { oauth_access_token: "xoxb-ada" } } });
    assert.equal(made.status, 200, made.text);
    account = made.body.data;
  });
  after(async () => {
    await t.close();
    rmSync(home, { recursive: true, force: true });
  });

  /** the CLI as `key`'s user (default: ada), with a profile dir of its own */
  function cli(args: string[], key = ada.key): Promise<{ code: number; out: string; err: string }> {
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, XDG_CONFIG_HOME: join(home, "config"), TRIBUTARY_URL: url, TRIBUTARY_API_KEY: key };
    const child = spawn(BIN, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    return new Promise((resolve) => child.on("close", (code) => resolve({ code: code ?? -1, out, err })));
  }
  const apiAccount = async (id: string) => (await t.request("GET", `/v1/accounts/${id}`, { key: ada.key })).body.data as { id: string; events_url: string | null };

  it("show prints the account with the API's events URL and what it is for; --json is the API's account", async () => {
    const human = await cli(["accounts", "show", account.id]);
    assert.equal(human.code, 0, human.err);
    assert.match(human.out, new RegExp(`^${account.id}  Ada's Slack\\n`));
    assert.match(human.out, /^ {2}app {9}slack$/m);
    assert.match(human.out, /^ {2}fields {6}oauth_access_token$/m);
    const line = human.out.split("\n").find((l) => l.startsWith("  events URL "));
    assert.equal(line?.slice(14), account.events_url, human.out);
    assert.match(human.out, /Paste this as the Request URL of your app's event subscriptions \/ webhook/);
    assert.doesNotMatch(human.out, /xoxb-ada/);

    const json = await cli(["accounts", "show", account.id, "--json"]);
    assert.equal(json.code, 0, json.err);
    assert.deepEqual(JSON.parse(json.out), await apiAccount(account.id));
  });

  it("events-url prints the URL alone; --new replaces it, and the old URL answers 404", async () => {
    const shown = await cli(["accounts", "events-url", account.id]);
    assert.equal(shown.code, 0, shown.err);
    assert.equal(shown.out, account.events_url + "\n");
    assert.match(shown.err, /Paste this as the Request URL/);
    assert.equal((await t.request("POST", pathOf(account.events_url), { key: null, body: slackEvent })).status, 200);

    const replaced = await cli(["accounts", "events-url", account.id, "--new"]);
    assert.equal(replaced.code, 0, replaced.err);
    const now = (await apiAccount(account.id)).events_url!;
    assert.notEqual(now, account.events_url);
    assert.equal(replaced.out, now + "\n");
    assert.match(replaced.err, /The old URL answers 404 from now on/);
    assert.equal((await t.request("POST", pathOf(account.events_url), { key: null, body: slackEvent })).status, 404);
    assert.equal((await t.request("POST", pathOf(now), { key: null, body: slackEvent })).status, 200);

    // --json: the API's account, with the newer URL
    const json = await cli(["accounts", "events-url", account.id, "--new", "--json"]);
    assert.equal(json.code, 0, json.err);
    const data = JSON.parse(json.out) as { id: string; events_url: string };
    assert.deepEqual(data, await apiAccount(account.id));
    assert.notEqual(data.events_url, now);
    assert.equal((await cli(["accounts", "show", account.id])).out.split("\n").find((l) => l.startsWith("  events URL "))?.slice(14), data.events_url);
  });

  it("an account without one (made by an older node): show says how to get one; events-url fails with that hint; --new gives it one", async () => {
    const row = (await t.app.store.accounts.byId(account.id))!;
    await t.app.store.accounts.insert({ ...row, id: "apn_oldnodeCli01", events_key: null });
    const show = await cli(["accounts", "show", "apn_oldnodeCli01"]);
    assert.equal(show.code, 0, show.err);
    assert.match(show.out, /^ {2}events URL {2}none yet$/m);
    assert.match(show.out, /tributary accounts events-url apn_oldnodeCli01 --new/);
    assert.equal(JSON.parse((await cli(["accounts", "show", "apn_oldnodeCli01", "--json"])).out).events_url, null);

    const none = await cli(["accounts", "events-url", "apn_oldnodeCli01"]);
    assert.equal(none.code, 1);
    assert.equal(none.out, "");
    assert.match(none.err, /error: apn_oldnodeCli01 has no events URL yet/);
    assert.match(none.err, /hint: .*--new/);

    const got = await cli(["accounts", "events-url", "apn_oldnodeCli01", "--new"]);
    assert.equal(got.code, 0, got.err);
    assert.equal(got.out, (await apiAccount("apn_oldnodeCli01")).events_url + "\n");
  });

  it("another user's account is not found, and its URL is left as it was", async () => {
    const bob = await t.newUser();
    const before = (await apiAccount(account.id)).events_url;
    for (const args of [["accounts", "show", account.id], ["accounts", "events-url", account.id], ["accounts", "events-url", account.id, "--new"]]) {
      const r = await cli(args, bob.key);
      assert.equal(r.code, 1, `${args.join(" ")}: ${r.out}`);
      assert.equal(r.out, "");
      assert.match(r.err, /error: account not found \(not_found\)/, args.join(" "));
      assert.match(r.err, /hint: check the id: `tributary list accounts`/, args.join(" "));
    }
    assert.equal((await apiAccount(account.id)).events_url, before);
  });

  it("accounts --help lists show and events-url", async () => {
    const help = await cli(["accounts", "--help"]);
    assert.equal(help.code, 0, help.err);
    assert.match(help.out, /show \[options\] <account>/);
    assert.match(help.out, /events-url \[options\] <account>/);
    const sub = await cli(["accounts", "events-url", "--help"]);
    assert.match(sub.out, /--new\s+replace it with a new URL: the old one answers 404/);
  });
});
