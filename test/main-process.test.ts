import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { MAIN, startService } from "./service-process.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// `npm start` as a user runs it: a real process, a real port, real signals.


const start = (dataDir: string, env: Record<string, string> = {}) =>
  startService({ TRIBUTARY_DATA_DIR: dataDir, TRIBUTARY_ADMIN_KEY: "", ...env }, 20_000);

function exitCode(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

test("first start prints the admin key once; it works; SIGTERM exits 0; a restart keeps the data and prints no key", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "tributary-main-"));
  try {
    const first = await start(dataDir);
    const key = /(trb_[A-Za-z0-9_-]+)/.exec(first.output())?.[1];
    assert.ok(key, `no admin key printed: ${first.output()}`);
    assert.equal((await fetch(`${first.url}/healthz`)).status, 200);
    const me = await fetch(`${first.url}/v1/users/me`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(me.status, 200);
    assert.equal(((await me.json()) as { data: { admin: boolean } }).data.admin, true);
    const exited = exitCode(first.child);
    first.child.kill("SIGTERM");
    assert.equal(await exited, 0);

    const second = await start(dataDir);
    assert.doesNotMatch(second.output(), /trb_/, "the key must be shown only on the first start");
    const again = await fetch(`${second.url}/v1/users/me`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(again.status, 200);
    const stopped = exitCode(second.child);
    second.child.kill("SIGINT");
    assert.equal(await stopped, 0);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test("SIGTERM lets a request in flight finish", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "tributary-main-"));
  try {
    const s = await start(dataDir, { TRIBUTARY_ADMIN_KEY: "inflight-key" });
    // The component's top level busies the sandbox for 1.5 s while it is analyzed, so the
    // request is surely in flight when the signal lands 500 ms after sending it. (A signal
    // that beats the request to the server gets 503, which is right, but not this test.)
    const slowCode =
      "const t = Date.now(); while (Date.now() - t < 1500) {}\n" +
      "export default { key: 'inflight', props: {}, run() {} }";
    const pending = fetch(`${s.url}/v1/components`, {
      method: "POST",
      headers: { authorization: "Bearer inflight-key", "content-type": "application/json" },
      body: JSON.stringify({ component_code: slowCode }),
    });
    await new Promise((r) => setTimeout(r, 500));
    const exited = exitCode(s.child);
    s.child.kill("SIGTERM");
    const res = await pending;
    assert.equal(res.status, 200);
    assert.equal(await exited, 0);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test("a bad setting stops the start with a clear message", async () => {
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, TRIBUTARY_STORE: "mongodb" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  child.stderr!.on("data", (d) => (err += d));
  assert.equal(await exitCode(child), 1);
  assert.match(err, /TRIBUTARY_STORE must be "sqlite" or "postgres"/);
});

test("--port=0 without TRIBUTARY_PUBLIC_URL: the URLs the service gives out name the port it listens on", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "tributary-main-"));
  try {
    const s = await start(dataDir, { TRIBUTARY_ADMIN_KEY: "port-zero-key", TRIBUTARY_PUBLIC_URL: "" });
    const created = await fetch(`${s.url}/v1/workflows`, {
      method: "POST",
      headers: { authorization: "Bearer port-zero-key", "content-type": "application/json" },
      body: JSON.stringify({ name: "zero", trigger: { type: "http" }, steps: [{ name: "one", code: "export default { async run() { return 1; } };" }] }),
    });
    assert.equal(created.status, 200, await created.clone().text());
    const endpoint = ((await created.json()) as { data: { trigger: { endpoint_url: string } } }).data.trigger.endpoint_url;
    assert.equal(new URL(endpoint).origin, s.url);
    assert.equal((await fetch(endpoint, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).status, 200);
    const stopped = exitCode(s.child);
    s.child.kill("SIGTERM");
    assert.equal(await stopped, 0);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
