// Stream ciphers (aes-*-ctr, chacha20) for the sandbox without runner state: each update says how
// far into the keystream it starts, and the cipher is made afresh there, its counter advanced. So
// a component (ssh2 makes a chacha20 cipher per packet and never ends it) holds no runner handle.
import { createCipheriv, type CipherKey } from "node:crypto";
import { keyOf } from "./keys.ts";

const MAX_UPDATE_BYTES = 16 * 1024 * 1024;

/** whether `alg` is a stream cipher this module runs (others are held: ciphers.ts) */
export function isStreamCipher(alg: string): boolean {
  return /^aes-(128|192|256)-ctr$/.test(alg) || alg === "chacha20";
}

/** `iv` with its counter moved on by `blocks`: big-endian over all 16 bytes (CTR), little-endian over the first 8 (chacha20, as OpenSSL carries it) */
function advanced(alg: string, iv: Uint8Array, blocks: number): Buffer {
  const out = Buffer.from(iv);
  let carry = BigInt(blocks);
  const order = alg === "chacha20" ? [0, 1, 2, 3, 4, 5, 6, 7] : Array.from({ length: 16 }, (_, i) => 15 - i);
  for (const i of order) {
    if (carry === 0n) break;
    const sum = BigInt(out[i]) + (carry & 0xffn);
    out[i] = Number(sum & 0xffn);
    carry = (carry >> 8n) + (sum >> 8n);
  }
  return out;
}

/** [alg, key, iv, offset, data]: `data` through the keystream from byte `offset` on */
export function streamCipher(alg: unknown, key: unknown, iv: unknown, offset: unknown, data: unknown): Uint8Array {
  const name = typeof alg === "string" ? alg.toLowerCase() : "";
  if (!isStreamCipher(name)) throw new Error(`Unknown stream cipher "${String(alg)}"`);
  if (!(iv instanceof Uint8Array) || iv.byteLength !== 16) throw new RangeError("Invalid initialization vector");
  if (typeof offset !== "number" || !Number.isSafeInteger(offset) || offset < 0) throw new RangeError("the keystream offset must be a non-negative integer");
  if (!(data instanceof Uint8Array) || data.byteLength > MAX_UPDATE_BYTES) throw new TypeError(`data must be bytes, at most ${MAX_UPDATE_BYTES}`);
  const block = name === "chacha20" ? 64 : 16;
  const secret = keyOf(key instanceof Uint8Array ? { keyObject: "secret", der: key } : key, "secret") as CipherKey;
  const cipher = createCipheriv(name, secret, advanced(name, iv, Math.floor(offset / block)));
  const skip = offset % block;
  if (skip > 0) cipher.update(Buffer.alloc(skip));
  return new Uint8Array(cipher.update(data));
}
