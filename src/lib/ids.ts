import { randomBytes } from "node:crypto";

// 16 url-safe characters = 96 random bits: unguessable (decisions §4 asks for at least 64).
export function newId(prefix: string): string {
  return prefix + randomBytes(12).toString("base64url");
}

/** API keys: long enough that a fast hash (sha256) is a safe way to store them. */
export function newApiKey(): string {
  return "trb_" + randomBytes(24).toString("base64url");
}
