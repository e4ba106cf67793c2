// The runner's side of node:crypto's keys for the sandbox (node/crypto-keys.js, crypto-dh.js):
// stateless ops over keys that cross as descriptors ({keyObject, der}: the key's own DER, which
// is the component's anyway), PEM text or bytes. Everything comes from hostile code: each argument
// is checked, sizes are bounded, and nothing expensive (big RSA keys, safe primes) is made.
import {
  createDiffieHellman, createECDH, createPrivateKey, createPublicKey, createSecretKey, diffieHellman, generateKeyPairSync,
  getCiphers, getCurves, getDiffieHellman, getHashes, sign, verify, type KeyObject, type SignKeyObjectInput,
} from "node:crypto";

/** the most bytes a key, a prime or a signed message may have */
const MAX_KEY_BYTES = 64 * 1024;
const MAX_DATA_BYTES = 16 * 1024 * 1024;
const KEY_TYPES = new Set(["pkcs1", "spki", "pkcs8", "sec1"]);
const PAIR_TYPES = new Set(["rsa", "rsa-pss", "ec", "ed25519", "ed448", "x25519", "x448"]);
const DH_GROUPS = new Set(["modp1", "modp2", "modp5", "modp14", "modp15", "modp16", "modp17", "modp18"]);

export type KeyDescriptor = { keyObject: "secret" | "public" | "private"; der: Uint8Array; asymmetricKeyType?: string; details?: Record<string, unknown>; size?: number };

function bytes(v: unknown, what: string, max = MAX_KEY_BYTES): Buffer {
  if (!(v instanceof Uint8Array)) throw new TypeError(`${what} must be bytes`);
  if (v.byteLength > max) throw new RangeError(`${what} is longer than ${max} bytes`);
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

const text = (v: unknown, what: string, max = MAX_KEY_BYTES) => {
  if (typeof v !== "string" || v.length > max) throw new TypeError(`${what} must be a string of at most ${max} characters`);
  return v;
};
const record = (v: unknown) => (typeof v === "object" && v !== null ? v : {}) as Record<string, unknown>;
const optional = <T>(v: unknown, check: (x: unknown) => T) => (v === undefined || v === null ? undefined : check(v));

/** Node's details, with bigints as numbers so they cross into the isolate */
function details(k: KeyObject): Record<string, unknown> {
  const d = { ...(k.asymmetricKeyDetails ?? {}) } as Record<string, unknown>;
  if (typeof d.publicExponent === "bigint") d.publicExponent = Number(d.publicExponent);
  return d;
}

export function describeKey(k: KeyObject): KeyDescriptor {
  if (k.type === "secret") return { keyObject: "secret", der: new Uint8Array(k.export()), size: k.symmetricKeySize };
  const der = k.export({ format: "der", type: k.type === "public" ? "spki" : "pkcs8" });
  return { keyObject: k.type, der: new Uint8Array(der), asymmetricKeyType: k.asymmetricKeyType, details: details(k) };
}

/** A key as Node's functions take it: a descriptor, PEM text or bytes, or {key, format, type, passphrase}. */
export function keyOf(v: unknown, want: "public" | "private" | "secret"): KeyObject {
  const o = record(v);
  if (o.keyObject === "secret" || o.keyObject === "public" || o.keyObject === "private") {
    const der = bytes(o.der, "a key");
    if (o.keyObject === "secret") return createSecretKey(der);
    if (o.keyObject === "private") return want === "public" ? createPublicKey(createPrivateKey({ key: der, format: "der", type: "pkcs8" })) : createPrivateKey({ key: der, format: "der", type: "pkcs8" });
    if (want === "private") throw new TypeError("a public key can't be used as a private one");
    return createPublicKey({ key: der, format: "der", type: "spki" });
  }
  if (want === "secret") return createSecretKey(typeof v === "string" ? Buffer.from(text(v, "a key")) : bytes(v, "a key"));
  if (typeof v === "string" || v instanceof Uint8Array) return want === "public" ? createPublicKey(typeof v === "string" ? text(v, "a key") : bytes(v, "a key")) : createPrivateKey(typeof v === "string" ? v : bytes(v, "a key"));
  if (typeof o.key === "object" && o.key !== null && !(o.key instanceof Uint8Array) && "keyObject" in o.key) return keyOf(o.key, want);
  const format = optional(o.format, (f) => (f === "pem" || f === "der" || f === "jwk" ? f : undefined)) ?? "pem";
  const type = optional(o.type, (t) => (typeof t === "string" && KEY_TYPES.has(t) ? (t as "pkcs1") : undefined));
  const key = format === "jwk" ? (JSON.parse(text(JSON.stringify(o.key ?? null), "a JWK")) as object) : typeof o.key === "string" ? text(o.key, "a key") : bytes(o.key, "a key");
  const passphrase = optional(o.passphrase, (p) => (typeof p === "string" ? p : bytes(p, "a passphrase")));
  const input = { key, format, type, passphrase } as Parameters<typeof createPrivateKey>[0] & object;
  return want === "public" ? createPublicKey(input as Parameters<typeof createPublicKey>[0]) : createPrivateKey(input);
}

/** what Node's sign and verify take beside the key (RSA padding, DSA/ECDSA signature encoding) */
function signingKey(v: unknown, want: "public" | "private"): SignKeyObjectInput {
  const o = record(v);
  const key = keyOf(v, want);
  const num = (x: unknown) => (typeof x === "number" && Number.isInteger(x) ? x : undefined);
  const dsaEncoding = o.dsaEncoding === "der" || o.dsaEncoding === "ieee-p1363" ? o.dsaEncoding : undefined;
  return { key, padding: num(o.padding), saltLength: num(o.saltLength), dsaEncoding: dsaEncoding as SignKeyObjectInput["dsaEncoding"] };
}

function algorithm(v: unknown): string | null {
  return v === null || v === undefined ? null : text(v, "the algorithm", 64);
}

function generate(type: unknown, raw: unknown): { publicKey: KeyDescriptor; privateKey: KeyDescriptor } {
  if (typeof type !== "string" || !PAIR_TYPES.has(type)) throw new TypeError(`The argument 'type' must be one of ${[...PAIR_TYPES].join(", ")} in the sandbox`);
  const o = record(raw);
  const options: Record<string, unknown> = {};
  if (type === "rsa" || type === "rsa-pss") {
    const bits = o.modulusLength;
    // a bigger key blocks the runner for seconds to make
    if (typeof bits !== "number" || !Number.isInteger(bits) || bits < 512 || bits > 4096) throw new RangeError("modulusLength must be an integer from 512 to 4096 in the sandbox");
    options.modulusLength = bits;
    if (o.publicExponent !== undefined) options.publicExponent = o.publicExponent === 3 ? 3 : 65537;
    for (const k of ["hashAlgorithm", "mgf1HashAlgorithm"]) if (typeof o[k] === "string") options[k] = text(o[k], k, 32);
    if (typeof o.saltLength === "number") options.saltLength = o.saltLength;
  }
  if (type === "ec") options.namedCurve = text(o.namedCurve, "namedCurve", 32);
  const pair = generateKeyPairSync(type as "ec", options as { namedCurve: string });
  return { publicKey: describeKey(pair.publicKey), privateKey: describeKey(pair.privateKey) };
}

function exportKey(desc: unknown, raw: unknown): string | Uint8Array | object {
  const want = record(desc).keyObject;
  const k = keyOf(desc, want === "public" ? "public" : want === "secret" ? "secret" : "private");
  const o = record(raw);
  if (k.type === "secret") return o.format === "jwk" ? k.export({ format: "jwk" }) : new Uint8Array(k.export());
  if (o.format === "jwk") return k.export({ format: "jwk" });
  const format = o.format === "der" ? "der" : "pem";
  const type = typeof o.type === "string" && KEY_TYPES.has(o.type) ? o.type : k.type === "public" ? "spki" : "pkcs8";
  const cipher = optional(o.cipher, (c) => text(c, "cipher", 64));
  const passphrase = optional(o.passphrase, (p) => (typeof p === "string" ? p : bytes(p, "a passphrase")));
  const out = k.export({ format, type, cipher, passphrase } as Parameters<KeyObject["export"]>[0] & { format: "pem" });
  return typeof out === "string" ? out : new Uint8Array(out);
}

/** DH from a group's name, or a prime and generator given as bytes */
function dhOf(prime: unknown, generator: unknown) {
  if (typeof prime === "string") {
    if (!DH_GROUPS.has(prime)) throw new Error(`Unknown DH group "${prime}"`);
    // a group's own object can't take a private key: the same prime and generator can
    const group = getDiffieHellman(prime);
    return createDiffieHellman(group.getPrime(), group.getGenerator());
  }
  const g = typeof generator === "number" && Number.isInteger(generator) && generator > 1 && generator < 256 ? generator : bytes(generator, "the generator", 1024);
  return createDiffieHellman(bytes(prime, "the prime", 1024), g as Buffer);
}

const OPS: Record<string, (...args: unknown[]) => unknown> = {
  list(what) {
    if (what === "ciphers") return getCiphers();
    if (what === "hashes") return getHashes();
    if (what === "curves") return getCurves();
    throw new TypeError(`unknown list "${String(what)}"`);
  },
  importKey: (v, want) => describeKey(keyOf(v, want === "public" ? "public" : want === "secret" ? "secret" : "private")),
  exportKey,
  generate,
  sign: (alg, data, key) => new Uint8Array(sign(algorithm(alg), bytes(data, "data", MAX_DATA_BYTES), signingKey(key, "private"))),
  verify: (alg, data, key, sig) => verify(algorithm(alg), bytes(data, "data", MAX_DATA_BYTES), signingKey(key, "public"), bytes(sig, "the signature")),
  diffieHellman: (priv, pub) => new Uint8Array(diffieHellman({ privateKey: keyOf(priv, "private"), publicKey: keyOf(pub, "public") })),
  ecdh(curve, privateKey, format) {
    const e = createECDH(text(curve, "the curve", 32));
    if (privateKey === undefined || privateKey === null) e.generateKeys();
    else e.setPrivateKey(bytes(privateKey, "the private key"));
    return { privateKey: new Uint8Array(e.getPrivateKey()), publicKey: new Uint8Array(e.getPublicKey(undefined, format === "compressed" || format === "hybrid" ? format : "uncompressed")) };
  },
  ecdhSecret(curve, privateKey, other) {
    const e = createECDH(text(curve, "the curve", 32));
    e.setPrivateKey(bytes(privateKey, "the private key"));
    return new Uint8Array(e.computeSecret(bytes(other, "the other key")));
  },
  dh(prime, generator, privateKey) {
    const dh = dhOf(prime, generator);
    if (privateKey !== undefined && privateKey !== null) dh.setPrivateKey(bytes(privateKey, "the private key"));
    dh.generateKeys();
    return { prime: new Uint8Array(dh.getPrime()), generator: new Uint8Array(dh.getGenerator()), privateKey: new Uint8Array(dh.getPrivateKey()), publicKey: new Uint8Array(dh.getPublicKey()) };
  },
  dhSecret(prime, generator, privateKey, other) {
    const dh = dhOf(prime, generator);
    dh.setPrivateKey(bytes(privateKey, "the private key"));
    return new Uint8Array(dh.computeSecret(bytes(other, "the other key")));
  },
};

/** [op, ...args] from node/crypto-*.js */
export function cryptoOp(op: unknown, args: unknown[]): unknown {
  if (typeof op !== "string" || !Object.hasOwn(OPS, op)) throw new TypeError(`unknown crypto call "${String(op)}"`);
  return OPS[op](...args);
}
