// Ciphers for the sandbox (node/crypto-ciphers.js): Node's own Cipheriv and Decipheriv, held by
// the runner under handles of one invocation. A handle goes at final() (its auth tag, if any, is
// handed over with the last bytes), when the isolate frees it, or when the invocation ends; at
// most MAX_CIPHERS are open at once. Arguments come from hostile code and are checked.
import { createCipheriv, createDecipheriv, getCiphers, type Cipheriv, type Decipheriv, type KeyObject } from "node:crypto";
import { keyOf } from "./keys.ts";

export const MAX_CIPHERS = 64;
const MAX_UPDATE_BYTES = 16 * 1024 * 1024;

/** what an AEAD mode (GCM, CCM, OCB, chacha20-poly1305) has beyond other ciphers */
type Aead = {
  setAAD(aad: Uint8Array, options?: { plaintextLength: number }): void;
  getAuthTag(): Buffer;
  setAuthTag(tag: Uint8Array): void;
};
type Handle = { cipher: (Cipheriv | Decipheriv) & Partial<Aead>; decrypt: boolean; aead: boolean; name: string };
type Make = (alg: string, key: KeyObject, iv: Uint8Array | null, options?: { authTagLength: number }) => Cipheriv | Decipheriv;

// counted across invocations, so an id an earlier one handed out never names a new cipher
let nextId = 1;
let known: Set<string> | undefined;

function bytes(v: unknown, what: string, max = 1024): Uint8Array {
  if (!(v instanceof Uint8Array)) throw new TypeError(`${what} must be bytes`);
  if (v.byteLength > max) throw new RangeError(`${what} is longer than ${max} bytes`);
  return v;
}

export class InvocationCiphers {
  readonly #handles = new Map<number, Handle>();

  /** [op, ...args]: create, update, final, setAAD, setAuthTag, setAutoPadding, free */
  call(args: unknown[]): unknown {
    const [op, ...rest] = args;
    if (op === "create") return this.#create(rest[0], rest[1], rest[2], rest[3], rest[4]);
    const id = rest[0];
    const h = typeof id === "number" ? this.#handles.get(id) : undefined;
    if (op === "free") return void this.#handles.delete(id as number);
    if (!h) throw new Error("this cipher is finished (ciphers end with final() or with their invocation)");
    switch (op) {
      case "update":
        return new Uint8Array(h.cipher.update(bytes(rest[1], "data", MAX_UPDATE_BYTES)));
      case "final": {
        this.#handles.delete(id as number);
        const data = new Uint8Array(h.cipher.final());
        return h.aead && !h.decrypt ? { data, tag: new Uint8Array((h.cipher as Aead).getAuthTag()) } : { data };
      }
      case "setAAD": {
        const length = rest[2];
        const options = typeof length === "number" && Number.isInteger(length) && length >= 0 ? { plaintextLength: length } : undefined;
        if (!h.aead) throw new Error(`${h.name} takes no AAD`);
        (h.cipher as Aead).setAAD(bytes(rest[1], "the AAD", MAX_UPDATE_BYTES), options);
        return;
      }
      case "setAuthTag":
        if (!h.decrypt || !h.aead) throw new Error("setAuthTag is for the deciphers of AEAD modes");
        (h.cipher as Aead).setAuthTag(bytes(rest[1], "the auth tag", 16));
        return;
      case "setAutoPadding":
        h.cipher.setAutoPadding(rest[1] !== false);
        return;
      default:
        throw new TypeError(`unknown cipher call "${String(op)}"`);
    }
  }

  closeAll(): void {
    this.#handles.clear();
  }

  #create(decrypt: unknown, alg: unknown, key: unknown, iv: unknown, raw: unknown): number {
    if (typeof alg !== "string" || !(known ??= new Set(getCiphers())).has(alg.toLowerCase())) throw new Error(`Unknown cipher "${String(alg)}"`);
    if (this.#handles.size >= MAX_CIPHERS) throw new RangeError(`more than ${MAX_CIPHERS} ciphers open at once in one invocation (final() ends one)`);
    const name = alg.toLowerCase();
    const o = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
    const tagLength = o.authTagLength;
    const options = typeof tagLength === "number" && Number.isInteger(tagLength) && tagLength >= 4 && tagLength <= 16 ? { authTagLength: tagLength } : undefined;
    const secret = keyOf(key instanceof Uint8Array ? { keyObject: "secret", der: key } : key, "secret");
    const vector = iv === null || iv === undefined ? null : bytes(iv, "the iv");
    const make = (decrypt === true ? createDecipheriv : createCipheriv) as Make;
    const cipher = make(name, secret, vector, options);
    const aead = /-(gcm|ccm|ocb)$|^chacha20-poly1305$/.test(name);
    const id = nextId++;
    this.#handles.set(id, { cipher, decrypt: decrypt === true, aead, name });
    return id;
  }
}
