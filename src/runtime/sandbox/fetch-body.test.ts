import { test } from "node:test";
import assert from "node:assert/strict";
import { PassThrough, Readable } from "node:stream";
import { gzipSync } from "node:zlib";
import { decodedBody, heldBytes, readCapped } from "./fetch-body.ts";

const MB = 1024 * 1024;

test("a body is read whole and the bytes it held are given back", async () => {
  const bytes = await readCapped(Readable.from([Buffer.from("ab"), Buffer.from("cd")]), NaN);
  assert.equal(Buffer.from(bytes).toString(), "abcd");
  assert.equal(heldBytes(), 0);
});

test("reads that together pass the runner's bound fail; what they held is given back", async () => {
  const slow = new PassThrough();
  slow.write(Buffer.alloc(3 * MB));
  const first = readCapped(slow, NaN, 4 * MB);
  await new Promise((r) => setImmediate(r));
  await assert.rejects(readCapped(Readable.from([Buffer.alloc(2 * MB)]), NaN, 4 * MB), /holds 4 MB of responses being read already/);
  slow.end();
  assert.equal((await first).byteLength, 3 * MB);
  assert.equal(heldBytes(), 0);
});

test("codings are undone last first; an unknown one leaves the body as it came", async () => {
  const twice = decodedBody(Readable.from([gzipSync(gzipSync("x"))]), "gzip, gzip");
  assert.equal(Buffer.from(await readCapped(twice, NaN)).toString(), "x");
  const unknown = decodedBody(Readable.from([Buffer.from("zzz")]), "gzip, compress");
  assert.equal(Buffer.from(await readCapped(unknown, NaN)).toString(), "zzz");
});

test("a body cut off mid-way (an error, or closed before its end) fails as fetch's 'terminated'; what it held is given back", async () => {
  const failing = new PassThrough();
  const failed = readCapped(failing, NaN);
  failing.write(Buffer.alloc(1000));
  await new Promise((r) => setImmediate(r));
  failing.destroy(new Error("socket hang up"));
  await assert.rejects(failed, (e: Error) => e instanceof TypeError && e.message === "terminated" && (e.cause as Error).message === "socket hang up");
  const closing = new PassThrough();
  const closed = readCapped(closing, NaN);
  closing.write("partial");
  await new Promise((r) => setImmediate(r));
  closing.destroy();
  await assert.rejects(closed, (e: Error) => e instanceof TypeError && e.message === "terminated");
  assert.equal(heldBytes(), 0);
});

test("a body over the cap fails with a RangeError, whether its length is declared or only found while reading", async () => {
  await assert.rejects(readCapped(Readable.from([Buffer.from("x")]), 11 * MB), RangeError);
  const big = new PassThrough();
  const read = readCapped(big, NaN);
  big.write(Buffer.alloc(6 * MB));
  big.write(Buffer.alloc(6 * MB));
  await assert.rejects(read, /larger than 10485760 bytes/);
  assert.equal(heldBytes(), 0);
});
