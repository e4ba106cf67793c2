import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { postgresFor } from "./helpers.ts";

// DESIGN §6: "An HTTP source request that got a 2xx is durable". The real service process is
// driven by many concurrent POSTs and killed with SIGKILL mid-drive; after a restart on the same
// data, every acknowledged request has its event (duplicates allowed: at-least-once).
// Runs on SQLite; with TRIBUTARY_TEST_STORE=postgres (and DATABASE_URL) on a fresh PostgreSQL
// database of its own instead.

const MAIN = join(import.meta.dirname, "../src/main.ts");
const LOOPS = 20;
const DRIVE_MS = 1500;

const COMPONENT = `export default { props: { http: "$.interface.http" }, run(e) { this.$emit(e.body) } }`;

interface Started {
  child: ChildProcess;
  url: string;
  output: () => string;
}

async function start(env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, [MAIN, "--port=0"], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  // the output is kept up to the listening line, then only its last 64 KiB (request logs)
  let out = "";
  let listening = false;
  const keep = (d: Buffer) => {
    out += d;
    if (listening && out.length > 128 * 1024) out = out.slice(-64 * 1024);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`no listening line in: ${out}`));
    }, 20_000);
    const check = () => {
      if (listening) return;
      const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        listening = true;
        clearTimeout(timer);
        child.off("exit", exited);
        resolve(m[1]);
      }
    };
    const exited = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code}: ${out}`));
    };
    child.stdout!.on("data", check);
    child.stderr!.on("data", check);
    child.once("exit", exited);
  });
  return { child, url, output: () => out };
}

function stop(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill(signal);
  });
}

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

test("kill -9 mid-drive loses no 2xx-acknowledged HTTP request", { timeout: 60_000 }, async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), "tributary-crash-"));
  const store = await storeEnv();
  const key = "crash-admin-key-" + Math.random().toString(36).slice(2);
  const env = {
    TRIBUTARY_DATA_DIR: dataDir,
    TRIBUTARY_ADMIN_KEY: key,
    TRIBUTARY_EVENT_RETENTION: "100000",
    ...store.env,
  };
  const children: ChildProcess[] = [];
  try {
    const first = await start(env);
    children.push(first.child);
    const created = await fetch(`${first.url}/v1/sources/`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ component_code: COMPONENT }),
    });
    const createdText = await created.text();
    assert.equal(created.status, 200, createdText);
    const source = JSON.parse(createdText).data as { id: string; configured_props: { http: { endpoint_url: string } } };
    const path = new URL(source.configured_props.http.endpoint_url).pathname;

    // drive: LOOPS concurrent senders, each numbering its requests; a sender stops at its first
    // failed request (the process is gone)
    const acked = new Set<string>();
    let sent = 0;
    let non2xx = 0;
    let killed = false;
    const loop = async (n: number) => {
      for (let i = 0; ; i++) {
        const seq = `${n}-${i}`;
        sent++;
        try {
          const res = await fetch(`${first.url}${path}`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ seq, pad: "x".repeat(64) }),
          });
          await res.arrayBuffer();
          if (res.status >= 200 && res.status < 300) acked.add(seq);
          else non2xx++;
        } catch {
          if (killed) return;
          throw new Error(`request ${seq} failed before the kill`);
        }
        if (killed) return;
      }
    };
    const loops = Promise.all(Array.from({ length: LOOPS }, (_, n) => loop(n)));
    await new Promise((r) => setTimeout(r, DRIVE_MS));
    killed = true;
    await stop(first.child, "SIGKILL");
    assert.equal(first.child.signalCode, "SIGKILL");
    await loops;
    assert.ok(acked.size >= 50, `too few requests acknowledged before the kill (${acked.size} of ${sent}) to mean anything`);

    // restart on the same data; wait until every acknowledged request has its event
    const second = await start(env);
    children.push(second.child);
    let seen = new Set<string>();
    const deadline = Date.now() + 20_000;
    for (;;) {
      seen = new Set(await allSeqs(second.url, key, source.id));
      if ([...acked].every((s) => seen.has(s))) break;
      if (Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const missing = [...acked].filter((s) => !seen.has(s));
    assert.deepEqual(
      missing.slice(0, 20),
      [],
      `${missing.length} of ${acked.size} acknowledged requests have no event after the restart (sent ${sent}, non-2xx ${non2xx}, events ${seen.size})`,
    );
    t.diagnostic(`sent ${sent}, acknowledged ${acked.size}, non-2xx ${non2xx}, distinct events after restart ${seen.size}`);
    await stop(second.child, "SIGTERM");
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
});
