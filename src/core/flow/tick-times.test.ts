import { test } from "node:test";
import assert from "node:assert/strict";
import { afterTick } from "./tick-times.ts";

// When the next tick is due after one fires, for the wall clock as it may be then.

const every60s = { intervalSeconds: 60 };
const due = Date.UTC(2026, 10, 28, 12, 0, 0);

test("on time (or a millisecond early): the next tick is one interval after the due time", () => {
  assert.deepEqual(afterTick(every60s, due, due), { now: due, next: due + 60_000 });
  assert.deepEqual(afterTick(every60s, due, due - 1), { now: due, next: due + 60_000 });
});

test("late (the service was down or busy): it counts once, and the next is due on schedule", () => {
  assert.deepEqual(afterTick(every60s, due, due + 5_000), { now: due + 5_000, next: due + 60_000 });
  assert.deepEqual(afterTick(every60s, due, due + 185_000), { now: due + 185_000, next: due + 245_000 });
});

test("the wall clock stepped back an hour: the next tick is one interval from now, not an hour and one interval", () => {
  const wall = due - 3600_000;
  const { now, next } = afterTick(every60s, due, wall);
  assert.equal(now, wall);
  assert.equal(next - wall, 60_000);
});

test("a cron timer after a step back: its next time by the wall clock", () => {
  const wall = due - 3600_000; // 11:00
  assert.deepEqual(afterTick({ cron: "*/15 * * * *" }, due, wall), { now: wall, next: wall + 15 * 60_000 });
});
