import { test } from "node:test";
import assert from "node:assert/strict";
import { ContextSlots } from "./contexts.ts";

// Which context each run of a workflow gets: a free one, a new one only while a busy one waits on
// the host, else it waits its turn (in arrival order), handed the context the run before it frees.

function slots() {
  const awaiting = new Set<string>();
  return { awaiting, contexts: new ContextSlots((slot) => awaiting.has(slot)) };
}

const settled = async <T>(p: Promise<T>): Promise<T | "pending"> => Promise.race([p, new Promise<"pending">((r) => setImmediate(() => r("pending")))]);

test("the first run takes the source's first context; a source's next run takes it again once freed", async () => {
  const { contexts } = slots();
  const first = contexts.claimNow("p_1");
  assert.equal(first, "p_1");
  contexts.release(first!);
  assert.equal(contexts.claimNow("p_1"), "p_1");
});

test("a run that only computes waits while the busy context computes, and is handed it when freed", async () => {
  const { contexts } = slots();
  const busy = contexts.claimNow("p_1")!;
  assert.equal(contexts.claimNow("p_1"), undefined, "no new context while the busy one computes");
  const waiting = contexts.claim("p_1");
  assert.equal(await settled(waiting), "pending");
  contexts.release(busy);
  assert.equal(await waiting, busy);
  assert.ok(contexts.claimed(busy), "handed on still claimed");
});

test("a new context is made while every made one is busy and one of them waits on the host", async () => {
  const { contexts, awaiting } = slots();
  const busy = contexts.claimNow("p_1")!;
  awaiting.add(busy);
  const second = contexts.claimNow("p_1");
  assert.ok(second !== undefined && second !== busy);
  assert.ok(contexts.claimed(second));
});

test("a waiting run gets a new context once a busy one starts waiting on the host (the recheck)", async () => {
  const { contexts, awaiting } = slots();
  const busy = contexts.claimNow("p_1")!;
  const waiting = contexts.claim("p_1");
  awaiting.add(busy);
  const slot = await waiting;
  assert.notEqual(slot, busy);
});

test("runs waiting for a context get one in arrival order, and a new arrival doesn't jump the queue", async () => {
  const { contexts } = slots();
  const busy = contexts.claimNow("p_1")!;
  const order: string[] = [];
  const a = contexts.claim("p_1").then((s) => (order.push("a"), s));
  const b = contexts.claim("p_1").then((s) => (order.push("b"), s));
  assert.equal(contexts.claimNow("p_1"), undefined, "runs wait before it");
  contexts.release(busy);
  const slotA = await a;
  contexts.release(slotA!);
  await b;
  assert.deepEqual(order, ["a", "b"]);
});

test("sources don't share contexts or queues", async () => {
  const { contexts } = slots();
  const busy = contexts.claimNow("p_1")!;
  const waiting = contexts.claim("p_1");
  assert.equal(contexts.claimNow("p_2"), "p_2");
  assert.equal(await settled(waiting), "pending");
  contexts.release(busy);
  assert.equal(await waiting, busy);
});

test("a run that waited its longest for a context gives up (undefined) and leaves the queue", async () => {
  const { contexts } = slots();
  const busy = contexts.claimNow("p_1")!;
  assert.equal(await contexts.claim("p_1", 5), undefined);
  const next = contexts.claim("p_1");
  contexts.release(busy);
  assert.equal(await next, busy, "the run after it gets the context");
});

test("a run's next step takes the context its step before ran in, when it is free; else another", async () => {
  const { contexts, awaiting } = slots();
  const first = contexts.claimNow("p_1")!;
  awaiting.add(first);
  const second = contexts.claimNow("p_1")!;
  contexts.release(first);
  contexts.release(second);
  assert.equal(contexts.claimNow("p_1", second), second, "the preferred one, though the first is free too");
  assert.equal(contexts.claimNow("p_1", second), first, "busy: another");
  assert.equal(contexts.claimNow("p_2", first), "p_2", "another workflow's context is never taken");
});
