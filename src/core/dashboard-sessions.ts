import { createHmac } from "node:crypto";
import type { UserRow, UserStore } from "../store/port.ts";
import { SecretBox } from "../lib/secret-box.ts";
import { sha256Hex } from "../lib/hash.ts";

// The web dashboard's sign-in (docs/dashboard.md). A session is a sealed token (AES-256-GCM, a key
// derived from the service's secret key) holding the hash of the API key it was opened with and
// when it ends. Nothing is kept in memory: a restart keeps users signed in, and every node of a
// cluster (they share the secret key) reads the same token. The hash is looked up on every use,
// so rotating the key or deleting the user ends their sessions at once, on every node. The key
// itself is never in the token.

export const SESSION_COOKIE = "tributary_session";
export const SESSION_SECONDS = 30 * 24 * 60 * 60;

const SEALED = "enc:v1:";
// a sealed token is a 12-byte nonce, a 16-byte tag and the payload (~80 bytes), in base64url: one
// shorter than nonce and tag would give GCM a short tag to check, one much longer isn't ours
const MIN_TOKEN = 40;
const MAX_TOKEN = 512;

interface Payload {
  /** sha256 of the API key the session was opened with */
  h: string;
  /** when the session ends, in seconds since the epoch */
  e: number;
}

export interface DashboardSession {
  token: string;
  expiresAt: number;
}

export class DashboardSessions {
  readonly #box: SecretBox;
  readonly #users: Pick<UserStore, "byKeyHash">;

  /** `secretKey`: the service's secret key (secret-key.ts); sessions use a key derived from it. */
  constructor(secretKey: Buffer, users: Pick<UserStore, "byKeyHash">) {
    // a key of its own: a sealed secret prop can never pass for a session, nor a session for one
    this.#box = new SecretBox(createHmac("sha256", secretKey).update("tributary dashboard session").digest());
    this.#users = users;
  }

  /** A session for `apiKey`, which the caller has checked (Users.authenticate). */
  open(apiKey: string, nowMs = Date.now()): DashboardSession {
    const expiresAt = Math.floor(nowMs / 1000) + SESSION_SECONDS;
    const payload: Payload = { h: sha256Hex(apiKey), e: expiresAt };
    return { token: this.#box.seal(JSON.stringify(payload)).slice(SEALED.length), expiresAt };
  }

  /** The user of a token, or undefined when it is not one of ours, has ended, or its key no longer opens an account. */
  async user(token: string, nowMs = Date.now()): Promise<{ user: UserRow; expiresAt: number } | undefined> {
    const payload = this.#read(token);
    if (!payload || payload.e * 1000 <= nowMs) return undefined;
    const user = await this.#users.byKeyHash(payload.h);
    return user ? { user, expiresAt: payload.e } : undefined;
  }

  #read(token: string): Payload | undefined {
    if (token.length < MIN_TOKEN || token.length > MAX_TOKEN) return undefined;
    try {
      const p = JSON.parse(this.#box.open(SEALED + token)) as Partial<Payload>;
      return typeof p.h === "string" && typeof p.e === "number" ? { h: p.h, e: p.e } : undefined;
    } catch {
      // forged, tampered with, cut short, or sealed with another service's key
      return undefined;
    }
  }
}
