import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Capacity } from "./capacity.ts";
import { EdgeFirst, MIN_INBOX_RUNS, nextInboxLimit } from "./edge-first.ts";

// Past capacity, accepted runs yield the event loop to the HTTP edge (edge-first.ts): a moving
// limit on the accepted runs held at once, which deliveries don't share.

async function until(what: string, cond: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** keeps the event loop busy `ms` at a time, as a saturated service does, until stopped */
function hogLoop(ms: number): () => void {
  const timer = setInterval(() => {
    const end = performance.now() + ms;
    while (performance.now() < end);
  }, ms + 5);
  return () => clearInterval(timer);
}

describe("Capacity: the limit on accepted runs", () => {
  test("accepted runs stop at their limit while deliveries still take room", () => {
    const c = new Capacity(100, 1e9);
    c.inboxLimit = 2;
    assert.ok(c.tryTake(10, true));
    assert.ok(c.tryTake(10, true));
    assert.equal(c.tryTake(10, true), false, "a third accepted run");
    assert.equal(c.freeRuns(true), 0);
    assert.ok(c.tryTake(10), "a delivery");
    assert.equal(c.freeRuns(), 97);
    assert.equal(c.inboxInFlight, 2);
    c.give(10, true);
    assert.equal(c.inboxInFlight, 1);
    assert.ok(c.tryTake(10, true), "room again after one ended");
  });

  test("a waiting accepted run is passed over while its limit binds, and woken when it rises", () => {
    const c = new Capacity(100, 1e9);
    c.inboxLimit = 1;
    assert.ok(c.tryTake(0, true));
    const woken: string[] = [];
    // an accepted run's lane that takes the room it is woken for
    const inbox = () => {
      woken.push("inbox");
      return c.tryTake(0, true);
    };
    const delivery = () => {
      woken.push("delivery");
      return c.tryTake(0);
    };
    c.whenFree(inbox, true);
    c.whenFree(delivery);
    // a delivery ends: the inbox lane came first but can't take anything, so the delivery goes
    assert.ok(c.tryTake(0));
    c.give(0);
    assert.deepEqual(woken, ["delivery"]);
    // the limit rises: the waiting inbox lane is woken and takes its room
    c.inboxLimit = 2;
    assert.deepEqual(woken, ["delivery", "inbox"]);
    assert.equal(c.inboxInFlight, 2);
  });

  test("one accepted run always fits, whatever the limit", () => {
    const c = new Capacity(100, 1e9);
    c.inboxLimit = 0;
    assert.ok(c.tryTake(0, true));
    assert.equal(c.tryTake(0, true), false);
  });

  test("when the limit rises, every inbox lane it makes room for is woken", () => {
    const c = new Capacity(100, 1e9);
    c.inboxLimit = 1;
    assert.ok(c.tryTake(0, true));
    const woken: number[] = [];
    for (let i = 0; i < 4; i++) c.whenFree(() => (woken.push(i), c.tryTake(0, true)), true);
    c.inboxLimit = 10;
    assert.deepEqual(woken, [0, 1, 2, 3]);
    assert.equal(c.inboxInFlight, 5);
  });

  test("room a woken lane leaves unused is passed on to the next waiter, and only while there is room", () => {
    const c = new Capacity(2, 1e9);
    assert.ok(c.tryTake(0));
    assert.ok(c.tryTake(0));
    const woken: string[] = [];
    // a lane that goes for the room, then finds it has nothing to take (over quota, disabled...)
    c.whenFree(() => (woken.push("idle"), true));
    // a lane that takes what it is woken for
    c.whenFree(() => (woken.push("busy"), c.tryTake(0)), true);
    c.give(0);
    assert.deepEqual(woken, ["idle"]);
    // the idle lane ends its turn without taking or waiting: the room goes on
    c.passOn();
    assert.deepEqual(woken, ["idle", "busy"]);
    assert.equal(c.freeRuns(), 0);
    // full: nothing to pass on, and a waiter stays waiting
    c.whenFree(() => (woken.push("later"), c.tryTake(0)));
    c.passOn();
    assert.deepEqual(woken, ["idle", "busy"]);
    c.give(0);
    assert.deepEqual(woken, ["idle", "busy", "later"]);
  });
});

describe("EdgeFirst", () => {
  test("the limit halves while the loop is late, never below the floor, and grows back by a quarter", () => {
    assert.equal(nextInboxLimit(4096, 40, 25, 4096), 2048);
    assert.equal(nextInboxLimit(10, 40, 25, 4096), MIN_INBOX_RUNS);
    assert.equal(nextInboxLimit(100, 5, 25, 4096), 125);
    assert.equal(nextInboxLimit(4000, 5, 25, 4096), 4096);
    // between half the target and the target: held
    assert.equal(nextInboxLimit(100, 20, 25, 4096), 100);
  });

  test("past capacity, a late event loop throttles accepted runs; a quick one lets them all run again", async () => {
    const c = new Capacity(4096, 1e9);
    const edge = new EdgeFirst(c, 25, () => true);
    edge.start();
    const stop = hogLoop(60);
    try {
      await until("the limit to fall to its floor", () => c.inboxLimit === MIN_INBOX_RUNS);
    } finally {
      stop();
    }
    await until("the limit to grow back", () => c.inboxLimit === 4096);
    edge.close();
    assert.equal(c.inboxLimit, Infinity);
  });

  test("below capacity (nothing refused), a busy loop doesn't slow accepted runs", async () => {
    const c = new Capacity(4096, 1e9);
    const edge = new EdgeFirst(c, 25, () => false);
    edge.start();
    const stop = hogLoop(60);
    let least = Infinity;
    const watch = setInterval(() => (least = Math.min(least, c.inboxLimit)), 10);
    try {
      // long enough for several samples, each of which would have halved the limit
      const started = Date.now();
      await until("a second of a busy loop", () => Date.now() - started > 1000);
    } finally {
      stop();
      clearInterval(watch);
      edge.close();
    }
    assert.equal(least, 4096);
  });
});
