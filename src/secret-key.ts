import { existsSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";

/**
 * The key that seals secret props: TRIBUTARY_SECRET_KEY (several nodes must share it), else a
 * file made once in the data directory, readable by this user only.
 */
export function loadSecretKey(configured: string | undefined, dataDir: string): Buffer {
  if (configured) {
    const key = /^[0-9a-f]{64}$/i.test(configured) ? Buffer.from(configured, "hex") : Buffer.from(configured, "base64");
    if (key.length !== 32) throw new Error("TRIBUTARY_SECRET_KEY must be 32 bytes, as 64 hex or 44 base64 characters");
    return key;
  }
  const file = join(dataDir, "secret.key");
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString("hex"), { mode: 0o600, flag: "wx" });
  }
  return Buffer.from(readFileSync(file, "utf8").trim(), "hex");
}
