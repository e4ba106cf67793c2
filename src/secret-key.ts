import { readFileSync, writeFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { fileError, makeDataDirectory } from "./store/file-errors.ts";

/**
 * The key that seals secret props: TRIBUTARY_SECRET_KEY (several nodes must share it), else a
 * file made once in the data directory, readable by this user only. A file that can't be made
 * or read stops the start with its path and the cause.
 */
export function loadSecretKey(configured: string | undefined, dataDir: string): Buffer {
  if (configured) {
    const key = /^[0-9a-f]{64}$/i.test(configured) ? Buffer.from(configured, "hex") : Buffer.from(configured, "base64");
    if (key.length !== 32) throw new Error("TRIBUTARY_SECRET_KEY must be 32 bytes, as 64 hex or 44 base64 characters");
    return key;
  }
  const file = join(dataDir, "secret.key");
  let text = readKeyFile(file);
  if (text === undefined) {
    makeKeyFile(dataDir, file);
    text = readKeyFile(file) ?? "";
  }
  if (!/^[0-9a-f]{64}$/i.test(text.trim())) {
    throw new Error(
      `the secret key file ${file} is damaged (it must hold 64 hex characters); restore it from a backup, ` +
        "or remove it only if no secret props were saved yet (they can't be opened without it)",
    );
  }
  return Buffer.from(text.trim(), "hex");
}

/** the file's text, or undefined when there is no such file */
function readKeyFile(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw fileError("cannot read the secret key file", file, err);
  }
}

function makeKeyFile(dataDir: string, file: string): void {
  makeDataDirectory(dataDir);
  try {
    writeFileSync(file, randomBytes(32).toString("hex"), { mode: 0o600, flag: "wx" });
  } catch (err) {
    // another process made it first: use theirs
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return;
    // a write that failed part way (disk full) must not leave a short key for the next start
    try {
      rmSync(file, { force: true });
    } catch {
      // the error below says what is wrong with the file
    }
    throw fileError("cannot create the secret key file", file, err);
  }
}
