// Source of the "crypto" module inside the isolate: the subset of node:crypto components use,
// computed by the runner's own node:crypto. Buffers don't exist here, so binary results are
// Uint8Arrays whose toString(encoding) works like a Buffer's.
const call = globalThis.__tributaryHost.call;

class Bytes extends Uint8Array {
  toString(encoding) {
    return call("bytesToString", new Uint8Array(this), encoding ?? "utf8");
  }
}

function bytes(data, what) {
  if (typeof data === "string") return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data.slice(0));
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength));
  throw new TypeError(`The "${what}" argument must be of type string or an instance of Buffer, TypedArray, or DataView`);
}

class Digest {
  #kind;
  #alg;
  #key;
  #chunks = [];
  #done = false;

  constructor(kind, alg, key) {
    this.#kind = kind;
    this.#alg = String(alg);
    this.#key = key;
    // Fails early, like node:crypto, on an unknown algorithm or a bad key.
    call("digest", kind, this.#alg, key, [], "hex");
  }

  update(data, inputEncoding) {
    if (this.#done) throw new Error("Digest already called");
    const b = bytes(data, "data");
    this.#chunks.push(typeof b === "string" ? [b, inputEncoding ?? "utf8"] : b);
    return this;
  }

  // Node's Hash#copy (the AWS SDK copies its hashes); an Hmac has none
  copy() {
    if (this.#kind !== "hash") throw new TypeError("hmac.copy is not a function");
    if (this.#done) throw new Error("Digest already called");
    const twin = new Digest("hash", this.#alg, undefined);
    twin.#chunks = [...this.#chunks];
    return twin;
  }

  digest(encoding) {
    if (this.#done) throw new Error("Digest already called");
    this.#done = true;
    const out = call("digest", this.#kind, this.#alg, this.#key, this.#chunks, encoding);
    return typeof out === "string" ? out : new Bytes(out);
  }
}

export function createHash(algorithm) {
  return new Digest("hash", algorithm, undefined);
}

export function createHmac(algorithm, key) {
  return new Digest("hmac", algorithm, bytes(key, "key"));
}

export function randomUUID() {
  return call("randomUUID");
}

export function randomBytes(size) {
  return new Bytes(call("randomBytes", size));
}

export function timingSafeEqual(a, b) {
  const x = bytes(a, "buf1");
  const y = bytes(b, "buf2");
  if (typeof x === "string" || typeof y === "string") throw new TypeError("timingSafeEqual takes Buffers or TypedArrays");
  return call("timingSafeEqual", x, y);
}

const MAX_RANDOM = 65536;

/** Fills a TypedArray/DataView (or a slice of it) with random bytes, in place, like node:crypto. */
export function randomFillSync(buf, offset = 0, size) {
  if (!ArrayBuffer.isView(buf) && !(buf instanceof ArrayBuffer)) throw new TypeError('The "buf" argument must be an ArrayBuffer or an ArrayBufferView');
  const base = buf instanceof ArrayBuffer ? new Uint8Array(buf) : new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  const view = base.subarray(offset, size === undefined ? undefined : offset + size);
  for (let i = 0; i < view.length; i += MAX_RANDOM) view.set(call("randomBytes", Math.min(MAX_RANDOM, view.length - i)), i);
  return buf;
}

export function randomFill(buf, offset, size, callback) {
  const cb = [offset, size, callback].find((f) => typeof f === "function");
  const at = typeof offset === "number" ? offset : 0;
  try {
    randomFillSync(buf, at, typeof size === "number" ? size : undefined);
    Promise.resolve().then(() => cb?.(null, buf));
  } catch (e) {
    Promise.resolve().then(() => cb?.(e));
  }
}

export function randomInt(min, max) {
  if (max === undefined) [min, max] = [0, min];
  if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || max <= min) throw new RangeError("randomInt(min, max) takes safe integers with min < max");
  const b = call("randomBytes", 6);
  const n = b[0] * 2 ** 40 + b[1] * 2 ** 32 + b[2] * 2 ** 24 + b[3] * 2 ** 16 + b[4] * 2 ** 8 + b[5];
  return min + (n % (max - min));
}

export function getRandomValues(array) {
  return randomFillSync(array);
}

export const webcrypto = { getRandomValues, randomUUID };

export function getHashes() {
  return ["md5", "sha1", "sha224", "sha256", "sha384", "sha512"];
}

export default { createHash, createHmac, randomUUID, randomBytes, randomFillSync, randomFill, randomInt, getRandomValues, webcrypto, getHashes, timingSafeEqual };
