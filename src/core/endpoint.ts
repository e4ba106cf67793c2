import { randomBytes } from "node:crypto";

/** The public URL of an HTTP source's endpoint (docs/api.md, "HTTP endpoints"), or null without one. */
export function endpointUrl(publicUrl: string, key: string | null): string | null {
  return key ? `${publicUrl}/http/${key}` : null;
}

/**
 * A new endpoint key: 128 random bits as lower-case hex. Lower case because endpoints are looked
 * up case-insensitively (Pipedream's SDK lower-cases workflow URLs), so a key must not depend on
 * case for its entropy.
 */
export function newEndpointKey(): string {
  return randomBytes(16).toString("hex");
}
