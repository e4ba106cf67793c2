// node:crypto's key agreement inside the sandbox: ECDH and finite-field Diffie-Hellman. The
// runner computes (sandbox/crypto/keys.ts); the keys, the component's own, are kept here.
import { cryptoOp } from "tributary:sockets";
import { output, toBytes } from "./crypto-bytes.js";

export class ECDH {
  constructor(curve) {
    this._curve = String(curve);
    this._keys = undefined;
    if (!getCurves().includes(this._curve)) throw new TypeError(`Invalid EC curve name`);
  }
  generateKeys(encoding, format) {
    this._keys = cryptoOp("ecdh", this._curve, null, format);
    return output(this._keys.publicKey, encoding);
  }
  computeSecret(otherPublicKey, inputEncoding, outputEncoding) {
    if (!this._keys) throw new Error("Failed to compute ECDH key");
    return output(cryptoOp("ecdhSecret", this._curve, this._keys.privateKey, toBytes(otherPublicKey, inputEncoding, "otherPublicKey")), outputEncoding);
  }
  getPublicKey(encoding, format) {
    if (!this._keys) throw new Error("Failed to get ECDH public key");
    const key = format && format !== "uncompressed" ? cryptoOp("ecdh", this._curve, this._keys.privateKey, format).publicKey : this._keys.publicKey;
    return output(key, encoding);
  }
  getPrivateKey(encoding) {
    if (!this._keys) throw new Error("Failed to get ECDH private key");
    return output(this._keys.privateKey, encoding);
  }
  setPrivateKey(key, encoding) {
    this._keys = cryptoOp("ecdh", this._curve, toBytes(key, encoding, "key"));
    return this;
  }
}

export const createECDH = (curve) => new ECDH(curve);

export class DiffieHellman {
  constructor(prime, generator) {
    this._prime = prime;
    this._generator = generator;
    this._keys = undefined;
    this.verifyError = 0;
  }
  _params() {
    return this._keys ?? cryptoOp("dh", this._prime, this._generator, null);
  }
  generateKeys(encoding) {
    this._keys = cryptoOp("dh", this._prime, this._generator, this._keys?.privateKey ?? null);
    return output(this._keys.publicKey, encoding);
  }
  computeSecret(otherPublicKey, inputEncoding, outputEncoding) {
    if (!this._keys) throw new Error("Failed to compute DH key: no private key");
    return output(cryptoOp("dhSecret", this._prime, this._generator, this._keys.privateKey, toBytes(otherPublicKey, inputEncoding, "otherPublicKey")), outputEncoding);
  }
  getPrime(encoding) {
    return output(this._params().prime, encoding);
  }
  getGenerator(encoding) {
    return output(this._params().generator, encoding);
  }
  getPublicKey(encoding) {
    if (!this._keys) throw new Error("No public key - did you forget to generate one?");
    return output(this._keys.publicKey, encoding);
  }
  getPrivateKey(encoding) {
    if (!this._keys) throw new Error("No private key - did you forget to generate one?");
    return output(this._keys.privateKey, encoding);
  }
  setPrivateKey(key, encoding) {
    this._keys = cryptoOp("dh", this._prime, this._generator, toBytes(key, encoding, "key"));
    return this;
  }
}

/** (prime[, primeEncoding][, generator][, generatorEncoding]): a prime given, never one to search for */
export function createDiffieHellman(prime, primeEncoding, generator, generatorEncoding) {
  if (typeof prime === "number") throw new Error("createDiffieHellman(primeLength) would search for a prime, which the sandbox doesn't: give the prime, or use getDiffieHellman(group)");
  if (typeof primeEncoding !== "string") [generator, generatorEncoding, primeEncoding] = [primeEncoding, generator, undefined];
  const p = toBytes(prime, primeEncoding, "prime");
  const g = generator === undefined ? 2 : typeof generator === "number" ? generator : toBytes(generator, generatorEncoding, "generator");
  return new DiffieHellman(p, g);
}

export const getDiffieHellman = (group) => new DiffieHellman(String(group), undefined);
export const createDiffieHellmanGroup = getDiffieHellman;
export const DiffieHellmanGroup = DiffieHellman;

let curves;
export function getCurves() {
  return [...(curves ??= cryptoOp("list", "curves"))];
}

