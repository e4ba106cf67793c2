import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { RunnerChild } from "./runner-child.ts";
import { RunnerQueue, type RunnerLoad } from "./runner-queue.ts";
import type { Pending } from "./runner-request.ts";

// The queue with stand-in runners: which runner each request went to, which were held, and whose
// deadline was started, after each step of a scenario.

interface FakeRunner {
  name: string;
  connected: boolean;
  posted: number[];
  post(message: { id: number }): void;
}

function fakeRunner(name: string): FakeRunner {
  return { name, connected: true, posted: [], post(message) { this.posted.push(message.id); } };
}

// what arm() leaves on a request: a timer that is there (its deadline runs), never firing
const RUNNING = setTimeout(() => {}, 0);
clearTimeout(RUNNING);

function world() {
  const runners = new Map<string, FakeRunner>();
  let current = "r1";
  const armed: number[] = [];
  const loads: Array<[string, RunnerLoad]> = [];
  const byName = (name: string): FakeRunner => {
    if (!runners.has(name)) {
      runners.set(name, fakeRunner(name));
      queue.addRunner(runners.get(name) as unknown as RunnerChild);
    }
    return runners.get(name)!;
  };
  const queue = new RunnerQueue({
    currentRunner: () => byName(current) as unknown as RunnerChild,
    arm: (pending) => {
      pending.timer = RUNNING;
      armed.push(pending.msg.id);
    },
    loadChanged: (child, load) => loads.push([(child as unknown as FakeRunner).name, { ...load }]),
  });
  const requests = new Map<number, Pending>();
  return {
    queue,
    armed,
    loads,
    runner: byName,
    useRunner: (name: string) => void (current = name),
    send(id: number, key?: string): Pending {
      const pending = { msg: { id }, opts: { key }, timer: undefined, child: undefined, settled: false } as unknown as Pending;
      requests.set(id, pending);
      queue.enqueue(pending);
      queue.dispatch(pending);
      return pending;
    },
    settle(id: number): void {
      const pending = requests.get(id)!;
      pending.settled = true;
      queue.settled(pending);
    },
    where: (id: number) => (requests.get(id)!.child as unknown as FakeRunner | undefined)?.name ?? "held",
  };
}

describe("RunnerQueue", () => {
  it("a keyless request has its deadline at once; a key's later ones only once those before are done", () => {
    const w = world();
    w.send(1);
    w.send(2, "a");
    w.send(3, "a");
    w.send(4, "b");
    assert.deepEqual(w.armed, [1, 2, 4]);
    w.settle(2);
    assert.deepEqual(w.armed, [1, 2, 4, 3]);
    assert.deepEqual(w.runner("r1").posted, [1, 2, 3, 4]);
  });

  const table: Array<{ name: string; steps: (w: ReturnType<typeof world>) => void; where: Record<number, string> }> = [
    {
      name: "a key's requests follow its earlier ones to their runner, while new keys go to the current one",
      steps: (w) => {
        w.send(1, "a");
        w.useRunner("r2");
        w.send(2, "a");
        w.send(3, "b");
      },
      where: { 1: "r1", 2: "r1", 3: "r2" },
    },
    {
      name: "once a key's earlier ones are done it goes to the current runner",
      steps: (w) => {
        w.send(1, "a");
        w.useRunner("r2");
        w.settle(1);
        w.send(2, "a");
      },
      where: { 2: "r2" },
    },
    {
      name: "behind a retiring runner a key's requests are held, and go to the current runner once its earlier ones are done",
      steps: (w) => {
        w.send(1, "a");
        w.queue.retire(w.runner("r1") as unknown as RunnerChild);
        w.useRunner("r2");
        w.send(2, "a");
        w.send(3, "a");
        w.send(4, "b");
        assert.equal(w.where(2), "held");
        w.settle(1);
      },
      where: { 2: "r2", 3: "r2", 4: "r2" },
    },
    {
      name: "behind a runner whose channel closed (its death not yet handled) they are held, and handed back on its death",
      steps: (w) => {
        w.send(1, "a");
        w.runner("r1").connected = false;
        w.send(2, "a");
        w.send(3);
        assert.deepEqual(w.queue.takeHeld().map((pending) => pending.msg.id), [2]);
      },
      where: { 1: "r1", 2: "held", 3: "r1" },
    },
    {
      name: "once closed, nothing held is sent",
      steps: (w) => {
        w.send(1, "a");
        w.queue.retire(w.runner("r1") as unknown as RunnerChild);
        w.useRunner("r2");
        w.send(2, "a");
        w.queue.close();
        w.settle(1);
      },
      where: { 2: "held" },
    },
  ];
  for (const { name, steps, where } of table) {
    it(name, () => {
      const w = world();
      steps(w);
      for (const [id, runner] of Object.entries(where)) assert.equal(w.where(Number(id)), runner, `request ${id}`);
    });
  }

  it("reports each runner's load as it changes: a retiring runner that is done says so", () => {
    const w = world();
    w.send(1, "a");
    w.send(2);
    const load = w.queue.retire(w.runner("r1") as unknown as RunnerChild);
    assert.deepEqual([load?.pending, load?.retiring], [2, true]);
    assert.equal(w.queue.retire(w.runner("r1") as unknown as RunnerChild), undefined, "retired once");
    w.settle(1);
    w.settle(2);
    const [runner, last] = w.loads.at(-1)!;
    assert.deepEqual([runner, last.pending, last.retiring], ["r1", 0, true]);
    assert.equal(w.queue.pendingOn(w.runner("r1") as unknown as RunnerChild), 0);
    assert.equal(w.queue.removeRunner(w.runner("r1") as unknown as RunnerChild), true);
    assert.equal(w.queue.removeRunner(w.runner("r1") as unknown as RunnerChild), false, "forgotten once");
  });
});
