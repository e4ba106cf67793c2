import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createCipheriv, randomBytes } from "node:crypto";
import { InvocationCiphers, MAX_CIPHERS } from "./ciphers.ts";
import { cryptoOp } from "./keys.ts";
import { streamCipher } from "./stream.ts";

// The runner's side of the sandbox's node:crypto, called as hostile code would call it.

const bytes = (b: Buffer) => new Uint8Array(b);

describe("stream ciphers, without runner state", () => {
  for (const [alg, keyLen] of [["aes-256-ctr", 32], ["chacha20", 32]] as const) {
    it(`${alg}: any offset into the keystream gives Node's bytes there, the counter carried across words`, () => {
      const key = randomBytes(keyLen);
      // counters just short of a wrap: CTR's low bytes, chacha20's first 32-bit word
      const iv = alg === "chacha20" ? Buffer.concat([Buffer.from([0xfe, 0xff, 0xff, 0xff]), randomBytes(12)]) : Buffer.concat([randomBytes(8), Buffer.alloc(8, 0xff)]);
      const data = randomBytes(1000);
      const whole = createCipheriv(alg, key, iv).update(data);
      let at = 0;
      const parts: Uint8Array[] = [];
      for (const size of [1, 15, 64, 130, 3, 500, 287]) {
        parts.push(streamCipher(alg, bytes(key), bytes(iv), at, bytes(data.subarray(at, at + size))));
        at += size;
      }
      assert.deepEqual(Buffer.concat(parts), whole);
    });
  }

  it("refuses what isn't a stream cipher, a bad iv or offset", () => {
    const key = new Uint8Array(32);
    assert.throws(() => streamCipher("aes-256-cbc", key, new Uint8Array(16), 0, new Uint8Array(1)), /Unknown stream cipher/);
    assert.throws(() => streamCipher("chacha20", key, new Uint8Array(8), 0, new Uint8Array(1)), /Invalid initialization vector/);
    assert.throws(() => streamCipher("chacha20", key, new Uint8Array(16), -1, new Uint8Array(1)), /offset/);
    assert.throws(() => streamCipher("chacha20", key, new Uint8Array(16), 0, "text"), /data must be bytes/);
  });
});

describe("held ciphers", () => {
  it("at most 64 open at once; final() hands the tag over and lets one go; the invocation's end lets all go", () => {
    const ciphers = new InvocationCiphers();
    const key = new Uint8Array(32);
    const ids = Array.from({ length: MAX_CIPHERS }, () => ciphers.call(["create", false, "aes-256-gcm", key, new Uint8Array(12)]) as number);
    assert.throws(() => ciphers.call(["create", false, "aes-256-gcm", key, new Uint8Array(12)]), /more than 64 ciphers open at once/);
    ciphers.call(["update", ids[0], new Uint8Array([1, 2, 3])]);
    const done = ciphers.call(["final", ids[0]]) as { data: Uint8Array; tag: Uint8Array };
    assert.equal(done.tag.length, 16);
    assert.throws(() => ciphers.call(["update", ids[0], new Uint8Array(1)]), /this cipher is finished/);
    assert.equal(typeof ciphers.call(["create", true, "aes-256-gcm", key, new Uint8Array(12)]), "number", "room again");
    ciphers.closeAll();
    assert.throws(() => ciphers.call(["update", ids[1], new Uint8Array(1)]), /this cipher is finished/);
  });

  it("checks what it is given", () => {
    const ciphers = new InvocationCiphers();
    assert.throws(() => ciphers.call(["create", false, "rot13", new Uint8Array(16), null]), /Unknown cipher/);
    assert.throws(() => ciphers.call(["create", false, { toString: () => "aes-128-cbc" }, new Uint8Array(16), new Uint8Array(16)]), /Unknown cipher/);
    const id = ciphers.call(["create", false, "aes-128-cbc", new Uint8Array(16), new Uint8Array(16)]);
    assert.throws(() => ciphers.call(["update", id, "text"]), /data must be bytes/);
    assert.throws(() => ciphers.call(["setAuthTag", id, new Uint8Array(16)]), /setAuthTag is for the deciphers of AEAD modes/);
    assert.throws(() => ciphers.call(["bogus", id]), /unknown cipher call/);
  });
});

describe("keys", () => {
  it("refuses unknown calls, keys of the wrong kind and type, oversized and costly requests", () => {
    assert.throws(() => cryptoOp("__proto__", []), /unknown crypto call/);
    assert.throws(() => cryptoOp("list", ["everything"]), /unknown list/);
    assert.throws(() => cryptoOp("importKey", [{ keyObject: "private", der: "not bytes" }, "private"]), /a key must be bytes/);
    const pair = cryptoOp("generate", ["ed25519", {}]) as { publicKey: unknown; privateKey: unknown };
    assert.throws(() => cryptoOp("sign", [null, new Uint8Array(1), pair.publicKey]), /a public key can't be used as a private one/);
    assert.throws(() => cryptoOp("generate", ["dsa", { modulusLength: 1024 }]), /must be one of/);
    assert.throws(() => cryptoOp("generate", ["rsa", { modulusLength: 1e6 }]), /from 512 to 4096/);
    assert.throws(() => cryptoOp("importKey", [new Uint8Array(70_000), "public"]), /longer than 65536 bytes/);
    assert.throws(() => cryptoOp("dh", ["modp99", undefined, null]), /Unknown DH group/);
    assert.throws(() => cryptoOp("dh", [new Uint8Array(2000), 2, null]), /the prime is longer than 1024 bytes/);
  });
});
