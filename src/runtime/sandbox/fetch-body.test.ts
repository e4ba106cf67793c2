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
