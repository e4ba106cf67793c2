import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { getPriority } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { AppError } from "../lib/errors.ts";
import { RunnerProcess, type RequestOptions } from "./runner-process.ts";
import { createAnalyzer } from "./analyzer.ts";
import type { RunnerRequest } from "./protocol.ts";

const runner = new RunnerProcess({ entry: join(import.meta.dirname, "fixtures/fake-runner.ts") });
after(() => runner.close());

const opts = (deadlineMs = 2000): RequestOptions => ({
  deadlineMs,
  onTimeout: () => new AppError("invalid_component", "timed out"),
  onCrash: () => new AppError("invalid_component", "crashed"),
});
// The fake runner speaks its own request types.
const req = (type: string, value?: unknown) => ({ type, value }) as unknown as RunnerRequest;

interface Permissions {
  pid: number;
  fsWrite: boolean;
  fsReadEtc: boolean;
  fsReadRepo: boolean;
  fsReadData: boolean;
  fsReadGit: boolean;
  childProcess: boolean;
  worker: boolean;
  env: string[];
}

describe("RunnerProcess", () => {
  it("answers requests by id, concurrently", async () => {
    const results = await Promise.all([1, 2, 3].map((n) => runner.request(req("echo", n), opts())));
    assert.deepEqual(results, [1, 2, 3]);
  });

  it("drops (and logs) a message whose tag it doesn't know, and goes on", async () => {
    const logged: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((line: string) => (logged.push(String(line)), true)) as typeof process.stderr.write;
    try {
      assert.equal(await runner.request(req("odd-messages"), opts()), "still here");
    } finally {
      process.stderr.write = write;
    }
    assert.deepEqual(logged.filter((line) => line.includes("dropped a message")).map((line) => line.trim()), [
      'runner host: dropped a message tagged "gossip"',
      "runner host: dropped a message tagged null",
      'runner reply: dropped a message tagged "rumour"',
    ]);
  });

  it("stops a request's deadline while the runner says it waits its turn, and starts it when it begins", async () => {
    // 900 ms in all, 600 of them waiting; the 450 ms deadline counts the last 300
    assert.equal(await runner.request(req("waits-turn", "on time"), opts(450)), "on time");
  });

  it("keeps the deadline of a request whose runner says it began without having waited, however often", async () => {
    await assert.rejects(runner.request(req("begins-forever"), opts(300)), { message: "timed out" });
  });

  it("turns an error reply into an AppError with its code", async () => {
    await assert.rejects(runner.request(req("fail", "nope"), opts()), { code: "invalid_component", message: "nope" });
  });

  it("starts the runner walled in: reads of its own code only, no writes, no child processes or workers, no env", async () => {
    const p = await runner.request<Permissions>(req("permissions"), opts());
    assert.equal(p.fsWrite, false);
    assert.equal(p.fsReadEtc, false);
    assert.equal(p.fsReadRepo, true);
    assert.equal(p.fsReadData, false, "not the default data directory inside the repository");
    assert.equal(p.fsReadGit, false);
    assert.equal(p.childProcess, false);
    assert.equal(p.worker, false);
    assert.deepEqual(p.env, []);
  });

  it("kills a runner that overruns a deadline, and retries the innocent requests on a new one", async () => {
    const before = await runner.request<Permissions>(req("permissions"), opts());
    const innocent = runner.request(req("slow-echo", "ok"), opts(5000));
    await assert.rejects(runner.request(req("hang"), opts(300)), { message: "timed out" });
    assert.equal(await innocent, "ok");
    const later = await runner.request<Permissions>(req("permissions"), opts());
    assert.notEqual(later.pid, before.pid);
  });

  it("a request's deadline runs from when its key's earlier requests are done, not while it waits behind them", async () => {
    const before = await runner.request<Permissions>(req("permissions"), opts());
    // five runs of one source, 200 ms each in turn: the last ends ~1 s after it was sent, past a
    // 500 ms deadline counted from then (before: it timed out and its runner was killed)
    const keyed = { ...opts(500), key: "dc_one" };
    const results = await Promise.all([1, 2, 3, 4, 5].map((n) => runner.request(req("queued", n), keyed)));
    assert.deepEqual(results, [1, 2, 3, 4, 5]);
    const after = await runner.request<Permissions>(req("permissions"), opts());
    assert.equal(after.pid, before.pid, "the runner was not killed");
    // one stuck at the head of its key still overruns
    await assert.rejects(runner.request(req("hang"), { ...opts(300), key: "dc_two" }), { message: "timed out" });
  });

  it("fails the requests of a runner that dies, and restarts on the next request", async () => {
    const bystander = runner.request(req("slow-echo", "x"), opts());
    await assert.rejects(runner.request(req("crash"), opts()), { message: "crashed" });
    await assert.rejects(bystander, { message: "crashed" });
    assert.equal(await runner.request(req("echo", "again"), opts()), "again");
  });

  it("a source always busy doesn't keep a retiring runner alive: its runs wait for their earlier ones there, then go to the new runner", async () => {
    const retiring = new RunnerProcess({ entry: join(import.meta.dirname, "fixtures/fake-runner.ts"), maxRssBytes: 1024 * 1024 });
    try {
      const keyed = { ...opts(), key: "dc_hot" };
      const results: Array<{ pid: number; value: number }> = [];
      // three runs out at every moment, 60 in all: before, each went to the runner holding the
      // source's earlier ones, which was retiring from its first answer on, and never stopped
      let next = 0;
      const lane = async (): Promise<void> => {
        while (next < 60) {
          const n = next++;
          results.push(await retiring.request<{ pid: number; value: number }>(req("heavy", n), keyed));
        }
      };
      await Promise.all([lane(), lane(), lane()]);
      assert.deepEqual(results.map((r) => r.value), [...Array(60).keys()], "in order");
      const pids = [...new Set(results.map((r) => r.pid))];
      assert.ok(pids.length > 1, `moved to a new runner (runners: ${pids.length})`);
      assert.ok(retiring.started > 1);
    } finally {
      await retiring.close();
    }
  });

  it("a source's runs keep their order across its runner's death: those sent after it wait behind those sent again", async () => {
    const crashing = new RunnerProcess({ entry: join(import.meta.dirname, "fixtures/fake-runner.ts") });
    try {
      const keyed = { ...opts(), key: "dc_order", retryOnCrash: true };
      type Counted = { pid: number; n: number; value: number };
      const first = [0, 1, 2, 3, 4].map((v) => crashing.request<Counted>(req("counted", v), keyed));
      await new Promise((r) => setTimeout(r, 10));
      process.kill(crashing.pid!, "SIGKILL");
      // sent while its death is being noticed, and just after
      const later = [5, 6, 7].map((v) => crashing.request<Counted>(req("counted", v), keyed));
      await new Promise((r) => setImmediate(r));
      later.push(crashing.request<Counted>(req("counted", 8), keyed));
      const results = await Promise.all([...first, ...later]);
      const second = results.filter((r) => r.pid === crashing.pid);
      assert.ok(second.length >= 4, "the runs after the death ran on the new runner");
      // on the new runner, in the order they were sent
      assert.deepEqual(second.map((r) => r.value), [...second].sort((a, b) => a.n - b.n).map((r) => r.value));
      assert.deepEqual(second.map((r) => r.value), [...second.map((r) => r.value)].sort((a, b) => a - b));
    } finally {
      await crashing.close();
    }
  });

  it("a runner's answer written just before it died counts: durable work is not run again", async () => {
    const dying = new RunnerProcess({ entry: join(import.meta.dirname, "fixtures/fake-runner.ts") });
    try {
      const first = await dying.request<number>(req("answer-then-die"), { ...opts(), retryOnCrash: true });
      // sent again after the death, it would answer from the replacement runner (this one may
      // reach the dying runner too: it is tried again on the next)
      const after = await dying.request<Permissions>(req("permissions"), { ...opts(), retryOnCrash: true });
      assert.notEqual(first, after.pid, "answered by the runner that died, once");
      assert.equal(dying.started, 2);
    } finally {
      await dying.close();
    }
  });

  it("runs the runner, every thread of it, the given steps below the service's CPU priority", async () => {
    const low = new RunnerProcess({ entry: join(import.meta.dirname, "fixtures/fake-runner.ts"), nice: 5 });
    const own = getPriority();
    try {
      assert.equal(await low.request(req("echo", 1), opts()), 1);
      const pid = low.pid!;
      const threads = process.platform === "linux" ? readdirSync(`/proc/${pid}/task`).map(Number) : [pid];
      assert.ok(threads.length > 1 || process.platform !== "linux", "a Node process has several threads");
      for (const tid of threads) assert.equal(getPriority(tid), Math.min(19, own + 5), `thread ${tid}`);
      // the service itself keeps its own priority
      assert.equal(getPriority(), own);
    } finally {
      low.close();
    }
  });

  it("refuses requests once closed", async () => {
    const closed = new RunnerProcess({ entry: join(import.meta.dirname, "fixtures/fake-runner.ts") });
    assert.equal(await closed.request(req("echo", 1), opts()), 1);
    await closed.close();
    await assert.rejects(closed.request(req("echo", 1), opts()), { code: "unavailable" });
  });

  it("the analyzer asks a fresh runner once more when its runner got stuck before the component's code", async () => {
    const stuck = createAnalyzer({ entry: join(import.meta.dirname, "fixtures/fake-runner.ts"), timeoutMs: 100, hostGraceMs: 200 });
    try {
      await assert.rejects(stuck.analyze("stuck"), { code: "invalid_component", message: /timed out/ });
      assert.equal(stuck.runnersStarted, 2, "a second runner was asked");
    } finally {
      await stuck.close();
    }
  });

  it("a component that blocks its runner is not analysed twice", async () => {
    // the deadline runs from the request, the runner's start included: on a loaded machine a
    // runner can take longer than 300 ms to say it started, and is then (rightly) tried again
    const stuck = createAnalyzer({ entry: join(import.meta.dirname, "fixtures/fake-runner.ts"), timeoutMs: 100, hostGraceMs: 3000 });
    try {
      await assert.rejects(stuck.analyze("component hangs"), { code: "invalid_component", message: /timed out/ });
      assert.equal(stuck.runnersStarted, 1);
    } finally {
      await stuck.close();
    }
  });

  it("does not keep the host process alive while idle", () => {
    const analyzer = pathToFileURL(join(import.meta.dirname, "analyzer.ts")).href;
    const script = `import { createAnalyzer } from ${JSON.stringify(analyzer)};
      const meta = await createAnalyzer().analyze("export default { name: 'idle' }");
      console.log(meta.name);`;
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", timeout: 20_000 });
    assert.equal(r.signal, null, "host process hung (killed by the test timeout)");
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.trim(), "idle");
  });
});
