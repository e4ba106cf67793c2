import { createCipheriv, createDecipheriv, createHmac, createSecretKey, randomBytes, timingSafeEqual, type KeyObject } from "node:crypto";

// Secret prop values are stored encrypted at rest (docs/security.md, "At rest and in logs"): AES-256-GCM, with a
// random nonce per value, so equal secrets don't look equal in the store.
// Keys are held as KeyObjects: given a Buffer, every createHmac or createCipheriv imports the key
// again, which cost 10.7 µs a token against 1.6 µs (a workflow step's resume URL is a token, and
// that import was a tenth of the service's thread in the workflows bench).
const PREFIX = "enc:v1:";

export class SecretBox {
  readonly #key: KeyObject;
  /** the HMAC keys of token(), one per purpose, derived once */
  readonly #tokenKeys = new Map<string, KeyObject>();

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error("secret key must be 32 bytes");
    this.#key = createSecretKey(key);
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.#key, iv);
    const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
  }

  open(sealed: string): string {
    if (!sealed.startsWith(PREFIX)) throw new Error("not a sealed value");
    const raw = Buffer.from(sealed.slice(PREFIX.length), "base64url");
    const decipher = createDecipheriv("aes-256-gcm", this.#key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
  }

  /**
   * An unguessable token naming `text` for `purpose` (a run's resume URL): an HMAC under a key
   * derived from this one, so nothing is stored, a token opens only what it names, and the
   * service can give the same one out again.
   */
  token(purpose: string, text: string): string {
    let key = this.#tokenKeys.get(purpose);
    if (!key) this.#tokenKeys.set(purpose, (key = createSecretKey(createHmac("sha256", this.#key).update(`tributary:${purpose}`).digest())));
    return createHmac("sha256", key).update(text).digest("base64url");
  }

  /** whether `token` is token(purpose, text), compared in constant time */
  checkToken(purpose: string, text: string, token: string): boolean {
    const want = Buffer.from(this.token(purpose, text));
    const got = Buffer.from(token);
    return got.length === want.length && timingSafeEqual(got, want);
  }
}
