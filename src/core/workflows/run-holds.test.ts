import { test } from "node:test";
import assert from "node:assert/strict";
import { RunHolds } from "./run-holds.ts";

test("a held run retries by itself after a backoff that doubles while it finds no room, up to 5 s", () => {
  const holds = new RunHolds();
  const waits = Array.from({ length: 8 }, () => holds.retryAt("w", "r1", 1000) - 1000);
  assert.deepEqual(waits, [100, 200, 400, 800, 1600, 3200, 5000, 5000]);
});

test("while many runs are held, each tries again less often by itself (the runs that end take them up meanwhile)", () => {
  const holds = new RunHolds();
  for (let i = 0; i < 1000; i++) holds.retryAt("w", `r${i}`, 0);
  const waits = Array.from({ length: 12 }, () => holds.retryAt("w", "r0", 0));
  assert.equal(waits.at(-1), 1000 * 50, "1,000 held: at most every 50 s");
});

test("held runs are taken up oldest first, per workflow, each once", () => {
  const holds = new RunHolds();
  holds.retryAt("w1", "a", 0);
  holds.retryAt("w2", "x", 0);
  holds.retryAt("w1", "b", 0);
  holds.retryAt("w1", "a", 0);
  assert.equal(holds.next("w1"), "a");
  assert.equal(holds.next("w1"), "b");
  assert.equal(holds.next("w1"), undefined);
  assert.equal(holds.next("w2"), "x");
});

test("a run that found room is no longer held, and its backoff starts over if it is held again", () => {
  const holds = new RunHolds();
  holds.retryAt("w", "a", 0);
  holds.retryAt("w", "a", 0);
  holds.admitted("w", "a");
  assert.equal(holds.next("w"), undefined);
  assert.equal(holds.retryAt("w", "a", 0), 100);
});
