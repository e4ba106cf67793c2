// node:crypto's keys inside the sandbox: KeyObject, key import and generation, sign and verify,
// diffieHellman. The runner does the work (sandbox/crypto/keys.ts); a KeyObject here holds its
// key's DER, which crosses back with each use. Bundled into components.
import { cryptoOp } from "tributary:sockets";
import { fromHost, output, toBytes } from "./crypto-bytes.js";

const DESCRIPTOR = Symbol("key");

export class KeyObject {
  constructor(type, descriptor) {
    if (!descriptor || descriptor.keyObject !== type) throw new TypeError("KeyObject can't be made directly: use createPublicKey, createPrivateKey or createSecretKey");
    this[DESCRIPTOR] = descriptor;
  }
  get type() {
    return this[DESCRIPTOR].keyObject;
  }
  get asymmetricKeyType() {
    return this[DESCRIPTOR].asymmetricKeyType;
  }
  get asymmetricKeyDetails() {
    const d = this[DESCRIPTOR].details;
    return d ? { ...d } : undefined;
  }
  get symmetricKeySize() {
    return this[DESCRIPTOR].size;
  }
  export(options = {}) {
    const out = cryptoOp("exportKey", this[DESCRIPTOR], { ...options });
    return out instanceof Uint8Array ? fromHost(out) : out;
  }
  equals(other) {
    if (!(other instanceof KeyObject) || other.type !== this.type) return false;
    const a = this[DESCRIPTOR].der;
    const b = other[DESCRIPTOR].der;
    return a.length === b.length && a.every((x, i) => x === b[i]);
  }
  toCryptoKey() {
    throw new Error("KeyObject.toCryptoKey is not available in the sandbox");
  }
}

const keyObject = (descriptor) => new KeyObject(descriptor.keyObject, descriptor);

/** a key argument as the runner takes it: a KeyObject's descriptor, PEM text, bytes, or {key, ...} */
export function keyArg(key) {
  if (key instanceof KeyObject) return key[DESCRIPTOR];
  if (typeof key === "string") return key;
  if (ArrayBuffer.isView(key) || key instanceof ArrayBuffer) return toBytes(key);
  if (key && typeof key === "object") {
    const o = { ...key };
    if (o.key instanceof KeyObject) o.key = o.key[DESCRIPTOR];
    else if (ArrayBuffer.isView(o.key) || o.key instanceof ArrayBuffer) o.key = toBytes(o.key);
    else if (typeof o.key === "string" && o.encoding && o.format !== "jwk") o.key = toBytes(o.key, o.encoding);
    if (ArrayBuffer.isView(o.passphrase)) o.passphrase = toBytes(o.passphrase);
    return o;
  }
  throw new TypeError('The "key" argument must be of type string or an instance of Buffer, TypedArray, DataView or KeyObject');
}

export const createPublicKey = (key) => keyObject(cryptoOp("importKey", keyArg(key), "public"));
export const createPrivateKey = (key) => keyObject(cryptoOp("importKey", keyArg(key), "private"));
export const createSecretKey = (key, encoding) => keyObject(cryptoOp("importKey", toBytes(key, encoding, "key"), "secret"));

export function generateKeyPairSync(type, options = {}) {
  const { publicKey, privateKey } = cryptoOp("generate", String(type), { ...options, publicKeyEncoding: undefined, privateKeyEncoding: undefined });
  const pub = keyObject(publicKey);
  const priv = keyObject(privateKey);
  return {
    publicKey: options.publicKeyEncoding ? pub.export(options.publicKeyEncoding) : pub,
    privateKey: options.privateKeyEncoding ? priv.export(options.privateKeyEncoding) : priv,
  };
}

export function generateKeyPair(type, options, callback) {
  const cb = typeof options === "function" ? options : callback;
  let pair;
  try {
    pair = generateKeyPairSync(type, typeof options === "object" ? options : {});
  } catch (e) {
    return queueMicrotask(() => cb(e));
  }
  queueMicrotask(() => cb(null, pair.publicKey, pair.privateKey));
}

function withCallback(fn, callback) {
  if (typeof callback !== "function") return fn();
  let result;
  try {
    result = fn();
  } catch (e) {
    return queueMicrotask(() => callback(e));
  }
  queueMicrotask(() => callback(null, result));
}

export function sign(algorithm, data, key, callback) {
  return withCallback(() => fromHost(cryptoOp("sign", algorithm ?? null, toBytes(data), keyArg(key))), callback);
}

export function verify(algorithm, data, key, signature, callback) {
  return withCallback(() => cryptoOp("verify", algorithm ?? null, toBytes(data), keyArg(key), toBytes(signature, undefined, "signature")), callback);
}

/** Sign and Verify: the data is kept here and signed in one go at the end */
class Signing {
  constructor(algorithm) {
    this._algorithm = String(algorithm);
    this._chunks = [];
  }
  update(data, encoding) {
    this._chunks.push(toBytes(data, encoding));
    return this;
  }
  _data() {
    const total = this._chunks.reduce((n, c) => n + c.length, 0);
    const all = new Uint8Array(total);
    let at = 0;
    for (const c of this._chunks) all.set(c, (at += c.length) - c.length);
    return all;
  }
}

export class Sign extends Signing {
  sign(key, encoding) {
    return output(cryptoOp("sign", this._algorithm, this._data(), keyArg(key)), encoding);
  }
}

export class Verify extends Signing {
  verify(key, signature, encoding) {
    return cryptoOp("verify", this._algorithm, this._data(), keyArg(key), toBytes(signature, encoding, "signature"));
  }
}

export const createSign = (algorithm) => new Sign(algorithm);
export const createVerify = (algorithm) => new Verify(algorithm);

export function diffieHellman({ privateKey, publicKey } = {}) {
  return fromHost(cryptoOp("diffieHellman", keyArg(privateKey), keyArg(publicKey)));
}
