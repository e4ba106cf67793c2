// node:crypto inside the sandbox, for bundled components and packages: the provided "crypto"
// module (hashes and HMACs computed by the runner), plus what packages expect of Node's on top of
// it: randomness from the sandbox's crypto.getRandomValues; ciphers, keys, signatures and key
// agreement from the runner's node:crypto (crypto-ciphers.js, crypto-keys.js, crypto-dh.js; what
// SSH clients need). Bundled into a component, never run by the host.
import * as provided from "crypto";
import { Buffer } from "buffer";
import { cryptoOp } from "tributary:sockets";
import { Cipheriv, Decipheriv, createCipheriv, createDecipheriv, getCiphers } from "./crypto-ciphers.js";
import { KeyObject, Sign, Verify, createPrivateKey, createPublicKey, createSecretKey, createSign, createVerify, diffieHellman, generateKeyPair, generateKeyPairSync, sign, verify } from "./crypto-keys.js";
import { DiffieHellman, DiffieHellmanGroup, ECDH, createDiffieHellman, createDiffieHellmanGroup, createECDH, getCurves, getDiffieHellman } from "./crypto-dh.js";

export { Cipheriv, Decipheriv, createCipheriv, createDecipheriv, getCiphers };
export { KeyObject, Sign, Verify, createPrivateKey, createPublicKey, createSecretKey, createSign, createVerify, diffieHellman, generateKeyPair, generateKeyPairSync, sign, verify };
export { DiffieHellman, DiffieHellmanGroup, ECDH, createDiffieHellman, createDiffieHellmanGroup, createECDH, getCurves, getDiffieHellman };

const base = provided.default ?? provided;

export function randomFillSync(buf, offset = 0, size) {
  const view = new Uint8Array(buf.buffer ?? buf, (buf.byteOffset ?? 0) + offset, size ?? buf.byteLength - offset);
  for (let i = 0; i < view.length; i += 65536) globalThis.crypto.getRandomValues(view.subarray(i, Math.min(view.length, i + 65536)));
  return buf;
}

export function randomBytes(size, callback) {
  const out = randomFillSync(Buffer.alloc(size));
  if (typeof callback === "function") {
    queueMicrotask(() => callback(null, out));
    return undefined;
  }
  return out;
}

export function randomFill(buf, offset, size, callback) {
  const cb = [offset, size, callback].find((f) => typeof f === "function");
  try {
    randomFillSync(buf, typeof offset === "number" ? offset : 0, typeof size === "number" ? size : undefined);
    queueMicrotask(() => cb?.(null, buf));
  } catch (e) {
    queueMicrotask(() => cb?.(e));
  }
}

export function randomInt(min, max) {
  if (max === undefined) [min, max] = [0, min];
  const range = max - min;
  const bytes = randomBytes(6);
  return min + (bytes.readUIntBE(0, 6) % range);
}

export function timingSafeEqual(a, b) {
  if (a.byteLength !== b.byteLength) throw new RangeError("Input buffers must have the same byte length");
  const x = new Uint8Array(a.buffer ?? a, a.byteOffset ?? 0, a.byteLength);
  const y = new Uint8Array(b.buffer ?? b, b.byteOffset ?? 0, b.byteLength);
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= x[i] ^ y[i];
  return diff === 0;
}

function toBuffer(result) {
  return Buffer.from(result.buffer ?? result, result.byteOffset ?? 0, result.byteLength);
}

// Node's digest() returns a Buffer when no encoding is given; the provided module's Uint8Array is
// turned into one, so .toString("base64") and Buffer methods work the same.
function wrapDigest(d, hash = false) {
  const w = {
    update(data, enc) {
      d.update(data, enc);
      return this;
    },
    digest(enc) {
      const out = d.digest(enc);
      return typeof out === "string" ? out : toBuffer(out);
    },
  };
  // a Hash can be copied (the AWS SDK does), an Hmac can't: as in Node
  if (hash) w.copy = () => wrapDigest(d.copy(), true);
  return w;
}

export const createHash = (alg) => wrapDigest(base.createHash(alg), true);
export const createHmac = (alg, key) => wrapDigest(base.createHmac(alg, key));
export const randomUUID = () => base.randomUUID();
export const getRandomValues = (a) => globalThis.crypto.getRandomValues(a);
export const webcrypto = { getRandomValues, randomUUID };
let hashes;
export const getHashes = () => [...(hashes ??= cryptoOp("list", "hashes"))];

export default {
  createHash, createHmac, randomBytes, randomFill, randomFillSync, randomInt, randomUUID, timingSafeEqual, webcrypto, getRandomValues, getHashes,
  Cipheriv, Decipheriv, createCipheriv, createDecipheriv, getCiphers,
  KeyObject, Sign, Verify, createPrivateKey, createPublicKey, createSecretKey, createSign, createVerify, diffieHellman, generateKeyPair, generateKeyPairSync, sign, verify,
  DiffieHellman, DiffieHellmanGroup, ECDH, createDiffieHellman, createDiffieHellmanGroup, createECDH, getCurves, getDiffieHellman,
};
