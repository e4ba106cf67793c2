import { test } from "node:test";
import assert from "node:assert/strict";
import { HeldQueue } from "./held-queue.ts";

test("held requests are let in one connection at a time in turn, and refused past their bound", async () => {
  const q = new HeldQueue();
  const [a, b, c] = [{}, {}, {}];
  const order: string[] = [];
  const refusal = () => new Error("refused");
  // connection a pipelined four, then b and c one each
  const held = [
    ...[1, 2, 3, 4].map((i) => q.add(a, 10, 60_000, refusal).then(() => order.push(`a${i}`))),
    q.add(b, 10, 60_000, refusal).then(() => order.push("b1")),
    q.add(c, 10, 60_000, refusal).then(() => order.push("c1")),
  ];
  assert.equal(q.size, 6);
  assert.equal(q.bytes, 60);
  while (q.letNextIn());
  await Promise.all(held);
  // before a's second, every other waiting connection had its turn
  assert.deepEqual(order, ["a1", "b1", "c1", "a2", "a3", "a4"]);
  assert.equal(q.size, 0);
  assert.equal(q.bytes, 0);

  const late = q.add(a, 5, 20, refusal);
  await assert.rejects(late, /refused/);
  assert.equal(q.size, 0);
  assert.equal(q.letNextIn(), false);
});
