import { test } from "node:test";
import assert from "node:assert/strict";
import { DispatchGate } from "./dispatch-gate.ts";

test("the gate lets `max` through at once and the rest in arrival order", async () => {
  const gate = new DispatchGate(2);
  const order: number[] = [];
  const started: number[] = [];
  let out = 0;
  let peak = 0;
  const job = async (i: number, release: Promise<void>) => {
    const entering = gate.enter();
    if (entering) await entering;
    started.push(i);
    out++;
    peak = Math.max(peak, out);
    await release;
    out--;
    order.push(i);
    gate.leave();
  };
  const releases: Array<() => void> = [];
  const jobs = Array.from({ length: 6 }, (_, i) => job(i, new Promise<void>((r) => releases.push(r))));
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(started, [0, 1]);
  assert.equal(gate.waiting, 4);
  for (const r of releases) r();
  await Promise.all(jobs);
  assert.deepEqual(started, [0, 1, 2, 3, 4, 5]);
  assert.equal(peak, 2);
  assert.equal(gate.waiting, 0);
  // empty again: the next one goes straight through
  assert.equal(gate.enter(), undefined);
});
