import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { tributaryClient, type TributaryClient } from "../client/index.ts";
import { CliError, reachingFetch } from "./output.ts";

// The login profile: $XDG_CONFIG_HOME/tributary/config.json (0600). TRIBUTARY_URL and
// TRIBUTARY_API_KEY override what it holds.

export interface Profile {
  url: string;
  key?: string;
}

export const DEFAULT_URL = "http://127.0.0.1:3000";

export function profilePath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || join(homedir(), ".config");
  return join(base, "tributary", "config.json");
}

export function readProfile(): Partial<Profile> {
  try {
    const p = JSON.parse(readFileSync(profilePath(), "utf8")) as Partial<Profile>;
    return typeof p === "object" && p ? p : {};
  } catch {
    return {};
  }
}

export function writeProfile(profile: Profile): string {
  const file = profilePath();
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, JSON.stringify(profile, null, 2) + "\n", { mode: 0o600 });
  chmodSync(file, 0o600);
  return file;
}

export function resolveProfile(): Profile {
  const saved = readProfile();
  const url = process.env.TRIBUTARY_URL || saved.url || DEFAULT_URL;
  const key = process.env.TRIBUTARY_API_KEY || saved.key;
  return { url: url.replace(/\/+$/, ""), ...(key ? { key } : {}) };
}

export function api(): { client: TributaryClient; profile: Profile } {
  const profile = resolveProfile();
  if (!profile.key) throw new CliError("not logged in", "run `tributary login --key trb_...` or set TRIBUTARY_API_KEY");
  return { client: tributaryClient({ url: profile.url, key: profile.key, fetch: reachingFetch(profile.url) }), profile };
}
