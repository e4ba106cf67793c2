// node:crypto's ciphers inside the sandbox: Node's own, run by the runner. Stream ciphers (CTR,
// chacha20) keep their place in the keystream here and need no runner state (sandbox/
// crypto/stream.ts); the others are held by the runner for the invocation until final()
// (sandbox/crypto/ciphers.ts). Bundled into components.
import { StringDecoder } from "string_decoder";
import { cipher as hostCipher, cryptoOp } from "tributary:sockets";
import { fromHost, toBytes } from "./crypto-bytes.js";
import { KeyObject, keyArg } from "./crypto-keys.js";

const STREAM = /^(aes-(128|192|256)-ctr|chacha20)$/;
const freed = typeof FinalizationRegistry === "function" ? new FinalizationRegistry((id) => quietly("free", id)) : undefined;

function quietly(...args) {
  try {
    hostCipher(...args);
  } catch {
    // its invocation is over, and the runner let it go then
  }
}

const keyOf = (key, what) => (key instanceof KeyObject ? keyArg(key) : toBytes(key, undefined, what));

class CipherBase {
  constructor(decrypt, algorithm, key, iv, options = {}) {
    this._alg = String(algorithm).toLowerCase();
    this._decoder = undefined;
    this._tag = undefined;
    const k = keyOf(key, "key");
    const vector = iv === null || iv === undefined ? null : toBytes(iv, undefined, "iv");
    if (STREAM.test(this._alg)) {
      if (!vector || vector.length !== 16) throw new RangeError("Invalid initialization vector");
      this._stream = { key: k, iv: vector, offset: 0 };
      // a wrong key length fails here, as Node's would
      cryptoOp("stream", this._alg, k, vector, 0, new Uint8Array(0));
      return;
    }
    this._id = hostCipher("create", decrypt, this._alg, k, vector, { authTagLength: options.authTagLength });
    freed?.register(this, this._id, this);
  }

  _out(bytes, encoding, last) {
    const b = fromHost(bytes);
    if (!encoding || encoding === "buffer") return b;
    this._decoder ??= new StringDecoder(encoding);
    return last ? this._decoder.end(b) : this._decoder.write(b);
  }

  update(data, inputEncoding, outputEncoding) {
    const bytes = toBytes(data, inputEncoding);
    if (this._stream) {
      const out = cryptoOp("stream", this._alg, this._stream.key, this._stream.iv, this._stream.offset, bytes);
      this._stream.offset += bytes.length;
      return this._out(out, outputEncoding, false);
    }
    return this._out(hostCipher("update", this._id, bytes), outputEncoding, false);
  }

  final(outputEncoding) {
    if (this._stream) return this._out(new Uint8Array(0), outputEncoding, true);
    freed?.unregister(this);
    const { data, tag } = hostCipher("final", this._id);
    if (tag) this._tag = fromHost(tag);
    return this._out(data, outputEncoding, true);
  }

  setAutoPadding(autoPadding = true) {
    if (!this._stream) hostCipher("setAutoPadding", this._id, autoPadding !== false);
    return this;
  }

  setAAD(buffer, options) {
    if (this._stream) throw new Error(`${this._alg} takes no AAD`);
    hostCipher("setAAD", this._id, toBytes(buffer, undefined, "buffer"), options?.plaintextLength);
    return this;
  }
}

export class Cipheriv extends CipherBase {
  constructor(algorithm, key, iv, options) {
    super(false, algorithm, key, iv, options);
  }
  getAuthTag() {
    if (!this._tag) throw new Error("Invalid state for operation getAuthTag");
    return this._tag;
  }
}

export class Decipheriv extends CipherBase {
  constructor(algorithm, key, iv, options) {
    super(true, algorithm, key, iv, options);
  }
  setAuthTag(tag, encoding) {
    if (this._stream) throw new Error(`${this._alg} has no auth tag`);
    hostCipher("setAuthTag", this._id, toBytes(tag, encoding, "buffer"));
    return this;
  }
}

export const createCipheriv = (algorithm, key, iv, options) => new Cipheriv(algorithm, key, iv, options);
export const createDecipheriv = (algorithm, key, iv, options) => new Decipheriv(algorithm, key, iv, options);

let ciphers;
export const getCiphers = () => [...(ciphers ??= cryptoOp("list", "ciphers"))];
