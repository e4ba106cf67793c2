import { test } from "node:test";
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { postgresFor } from "./helpers.ts";
import { childrenOf, startService as start, stopService as stop } from "./service-process.ts";

// A 2xx to an HTTP source request means it is durable (docs/architecture.md, "Reliability rules"). The real service process is
// driven by many concurrent POSTs and killed with SIGKILL mid-drive; after a restart on the same
// data, every acknowledged request has its event (duplicates allowed: at-least-once). The same
// holds when a busy runner process is killed instead: the service retries its work on a new one.
// Runs on SQLite; with TRIBUTARY_TEST_STORE=postgres (and DATABASE_URL) on a fresh PostgreSQL
// database of its own instead.

const LOOPS = 20;

const COMPONENT = `export default { props: { http: "$.interface.http" }, run(e) { this.$emit(e.body) } }`;

/** A database of its own on PostgreSQL runs (postgresFor), else the embedded store. */
async function storeEnv(): Promise<{ env: Record<string, string>; drop: () => Promise<void> }> {
  return (await postgresFor()) ?? { env: { TRIBUTARY_STORE: "sqlite" }, drop: async () => {} };
}

/** Every event's `seq` on the source's default stream, paging newest to oldest. */
async function allSeqs(url: string, key: string, sourceId: string): Promise<string[]> {
  const seqs: string[] = [];
  let cursor = "";
  for (;;) {
    const res = await fetch(`${url}/v1/sources/${sourceId}/event_summaries?limit=100&expand=event${cursor ? `&after=${cursor}` : ""}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    assert.equal(res.status, 200, await res.clone().text());
    const page = (await res.json()) as { page_info: { end_cursor: string; count: number }; data: { event: { seq: string } }[] };
    for (const item of page.data) seqs.push(item.event.seq);
    if (page.data.length < 100 || !page.page_info.end_cursor) return seqs;
    cursor = page.page_info.end_cursor;
  }
}

// A process that has exited but was not reaped yet (a zombie: its new parent, maybe this
// machine's init, collects it when it likes) counts as gone: it runs nothing and holds nothing.
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

async function until(what: string, ms: number, check: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

interface Drive {
  acked: Set<string>;
  sent: () => number;
  non2xx: () => number;
  /** stop sending; resolves when every sender has stopped */
  stop: () => Promise<void>;
}

/** LOOPS concurrent senders, each numbering its requests, until stopped (or the service is gone). */
function drive(url: string, path: string, serviceMayDie: boolean): Drive {
  const acked = new Set<string>();
  let sent = 0;
  let non2xx = 0;
  let stopped = false;
  const loop = async (n: number) => {
    for (let i = 0; !stopped; i++) {
      const seq = `${n}-${i}`;
      sent++;
      try {
        const res = await fetch(`${url}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ seq, pad: "x".repeat(64) }),
        });
        await res.arrayBuffer();
        if (res.status >= 200 && res.status < 300) acked.add(seq);
        else non2xx++;
      } catch (e) {
        if (stopped && serviceMayDie) return;
        throw new Error(`request ${seq} failed: ${String(e)}`, { cause: e });
      }
    }
  };
  const loops = Promise.all(Array.from({ length: LOOPS }, (_, n) => loop(n)));
  return {
    acked,
    sent: () => sent,
    non2xx: () => non2xx,
    stop: async () => {
      stopped = true;
      await loops;
    },
  };
}

async function createHttpSource(url: string, key: string): Promise<{ id: string; path: string }> {
  const created = await fetch(`${url}/v1/sources/`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ component_code: COMPONENT }),
  });
  const text = await created.text();
  assert.equal(created.status, 200, text);
  const source = JSON.parse(text).data as { id: string; configured_props: { http: { endpoint_url: string } } };
  return { id: source.id, path: new URL(source.configured_props.http.endpoint_url).pathname };
}

/** Waits until every acknowledged request has its event; returns the ones still missing. */
async function missingEvents(url: string, key: string, sourceId: string, acked: Set<string>): Promise<{ missing: string[]; seen: number }> {
  let seen = new Set<string>();
  const deadline = Date.now() + 30_000;
  for (;;) {
    seen = new Set(await allSeqs(url, key, sourceId));
    if ([...acked].every((s) => seen.has(s)) || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  return { missing: [...acked].filter((s) => !seen.has(s)), seen: seen.size };
}

async function withService(fn: (env: Record<string, string>, key: string, children: ChildProcess[]) => Promise<void>): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), "tributary-crash-"));
  const store = await storeEnv();
  const key = "crash-admin-key-" + Math.random().toString(36).slice(2);
  const env = { TRIBUTARY_DATA_DIR: dataDir, TRIBUTARY_ADMIN_KEY: key, TRIBUTARY_EVENT_RETENTION: "100000", ...store.env };
  const children: ChildProcess[] = [];
  try {
    await fn(env, key, children);
  } finally {
    for (const c of children) {
      await stop(c, "SIGKILL");
      // a runner orphaned by the kill inherits these pipes; it must not keep this test alive
      c.stdout?.destroy();
      c.stderr?.destroy();
    }
    await store.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

test("kill -9 mid-drive loses no 2xx-acknowledged HTTP request, and the runners exit with the service", { timeout: 90_000 }, async (t) => {
  await withService(async (env, key, children) => {
    const first = await start(env);
    children.push(first.child);
    const source = await createHttpSource(first.url, key);
    const load = drive(first.url, source.path, true);
    await until("requests to be acknowledged", 20_000, () => load.acked.size >= 200);
    const runners = childrenOf(first.child.pid!);
    assert.ok(runners.length >= 1, "the service has no runner processes");
    // the senders are told first, so a request cut by the kill ends its sender quietly
    const stopped = load.stop();
    await stop(first.child, "SIGKILL");
    assert.equal(first.child.signalCode, "SIGKILL");
    await stopped;
    // runners must not outlive their service (nobody would ever stop them)
    await until(`runners ${runners.join(", ")} to exit after their service was killed`, 20_000, () => runners.every((p) => !alive(p)));

    // restart on the same data; wait until every acknowledged request has its event
    const second = await start(env);
    children.push(second.child);
    const { missing, seen } = await missingEvents(second.url, key, source.id, load.acked);
    assert.deepEqual(
      missing.slice(0, 20),
      [],
      `${missing.length} of ${load.acked.size} acknowledged requests have no event after the restart (sent ${load.sent()}, non-2xx ${load.non2xx()}, events ${seen})`,
    );
    t.diagnostic(`sent ${load.sent()}, acknowledged ${load.acked.size}, non-2xx ${load.non2xx()}, distinct events after restart ${seen}`);
    await stop(second.child, "SIGTERM");
  });
});

test("kill -9 of a busy runner loses no acknowledged request: its work runs on the replacement", { timeout: 90_000 }, async (t) => {
  await withService(async (env, key, children) => {
    const service = await start({ ...env, TRIBUTARY_RUNNERS: "1" });
    children.push(service.child);
    const source = await createHttpSource(service.url, key);
    const load = drive(service.url, source.path, false);
    await until("requests to be acknowledged", 20_000, () => load.acked.size >= 200);
    // the invocation runner and the analyzer: both are runner processes, and both die
    const runners = childrenOf(service.child.pid!);
    assert.ok(runners.length >= 1, "the service has no runner process");
    for (const pid of runners) process.kill(pid, "SIGKILL");
    // keep the load on across the replacement
    const before = load.acked.size;
    await until("requests acknowledged after the kill", 20_000, () => load.acked.size >= before + 200);
    await load.stop();
    const { missing, seen } = await missingEvents(service.url, key, source.id, load.acked);
    assert.deepEqual(
      missing.slice(0, 20),
      [],
      `${missing.length} of ${load.acked.size} acknowledged requests have no event (sent ${load.sent()}, non-2xx ${load.non2xx()}, events ${seen})`,
    );
    assert.ok(childrenOf(service.child.pid!).every((pid) => !runners.includes(pid)), "the runners were not replaced");
    const errors = await fetch(`${service.url}/v1/sources/${source.id}/event_summaries?event_name=$errors&limit=100&expand=event`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const crashed = ((await errors.json()) as { data: { event: { error: { name: string } } }[] }).data.filter((e) => e.event.error.name === "RunnerCrashed");
    assert.equal(crashed.length, 0, "innocent runs were recorded as crashed instead of being run again");
    t.diagnostic(`sent ${load.sent()}, acknowledged ${load.acked.size}, events ${seen}, killed runners ${runners.join(", ")} at ${before} acked`);
    await stop(service.child, "SIGTERM");
  });
});

test("a run that kills its runner twice is recorded on $errors with its event; the source goes on", { timeout: 90_000 }, async () => {
  await withService(async (env, key, children) => {
    const service = await start({ ...env, TRIBUTARY_RUNNERS: "1" });
    children.push(service.child);
    const created = await fetch(`${service.url}/v1/sources/`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({
        component_code: `export default { props: { http: "$.interface.http" }, async run(e) {
          if (e.body.slow) await new Promise((r) => setTimeout(r, 4000));
          this.$emit(e.body);
        } }`,
      }),
    });
    assert.equal(created.status, 200, await created.clone().text());
    const source = ((await created.json()) as { data: { id: string; configured_props: { http: { endpoint_url: string } } } }).data;
    const path = new URL(source.configured_props.http.endpoint_url).pathname;
    const before = new Set(childrenOf(service.child.pid!));
    const res = await fetch(`${service.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"slow":true,"n":1}' });
    assert.equal(res.status, 200);
    // the run is on a runner (forked for it); kill it, then kill the replacement it is retried on
    for (let round = 0; round < 2; round++) {
      let fresh: number[] = [];
      await until(`a runner to hold the run (round ${round + 1})`, 20_000, () => {
        fresh = childrenOf(service.child.pid!).filter((p) => !before.has(p));
        return fresh.length > 0;
      });
      for (const pid of fresh) {
        before.add(pid);
        process.kill(pid, "SIGKILL");
      }
    }
    const headers = { authorization: `Bearer ${key}` };
    let crashed: { event: { error: { name: string }; invocation: { event: { body: unknown } } } } | undefined;
    await until("the crash on $errors", 20_000, async () => {
      const r = await fetch(`${service.url}/v1/sources/${source.id}/event_summaries?event_name=$errors&expand=event`, { headers });
      crashed = ((await r.json()) as { data: NonNullable<typeof crashed>[] }).data.find((e) => e.event.error.name === "RunnerCrashed");
      return crashed !== undefined;
    });
    assert.deepEqual(crashed!.event.invocation.event.body, { slow: true, n: 1 });
    // the source is not stuck: the next request runs
    await fetch(`${service.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"n":2}' });
    await until("the next run", 20_000, async () => {
      const r = await fetch(`${service.url}/v1/sources/${source.id}/event_summaries?expand=event`, { headers });
      return ((await r.json()) as { data: { event: { n: number } }[] }).data.some((e) => e.event.n === 2);
    });
    await stop(service.child, "SIGTERM");
  });
});
