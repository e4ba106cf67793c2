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

export default { createHash, createHmac, randomUUID, randomBytes, timingSafeEqual };
