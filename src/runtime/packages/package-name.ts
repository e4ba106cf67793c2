import { createRequire } from "node:module";
import semver from "semver";

// What a registry says is data from a stranger: names and versions become directory names in
// the cache, so each is checked by npm's own rules before it is used (a hostile registry once
// answered `../../victim` for a name and `1.0.0/../../x` for a version).

type Validate = (name: string) => { validForOldPackages: boolean; errors?: string[] };
const validate = createRequire(import.meta.url)("validate-npm-package-name") as Validate;

/** A name npm accepts (published ever, so old capitalised names pass), without a dot-led scope. */
export function isValidName(name: unknown): name is string {
  // npm's rules let `@../x` through: the scope part is only checked for URL-safe characters
  return typeof name === "string" && validate(name).validForOldPackages && !name.startsWith("@.");
}

/** A version exactly as semver writes it (no `v`, no spaces, nothing after it). */
export function isValidVersion(version: unknown): version is string {
  return typeof version === "string" && semver.valid(version) === version;
}
