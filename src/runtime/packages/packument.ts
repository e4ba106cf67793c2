import semver from "semver";
import { isValidName, isValidVersion } from "./package-name.ts";

// A registry's package metadata ("packument"), kept as only what the installer reads: a
// packument can be tens of MB of JSON (readmes, every version's manifest), and a hostile one is
// made to be. Every name and version it gives is checked against what was asked for before the
// installer builds a path from it.

export interface PackageVersion {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  dist: { tarball: string; integrity?: string; shasum?: string };
  hasInstallScript?: boolean;
}

export interface Packument {
  name: string;
  distTags: Map<string, string>;
  versions: Map<string, PackageVersion>;
  /** about how many bytes the trimmed packument holds in memory (for the cache's bound) */
  weight: number;
}

/** More versions than any real package has (typescript, nightlies included, has ~3,500). */
const MAX_VERSIONS = 20_000;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** The fields the installer uses of the registry's answer for `name`; throws if it isn't `name`'s. */
export function trimPackument(raw: unknown, name: string): Packument {
  if (!isObject(raw) || !isObject(raw.versions)) throw new Error(`the registry's answer for ${name} is not package metadata`);
  if (raw.name !== name) throw new Error(`the registry answered with the metadata of ${JSON.stringify(raw.name)} when asked for ${name}`);
  const entries = Object.entries(raw.versions);
  if (entries.length > MAX_VERSIONS) throw new Error(`the registry lists more than ${MAX_VERSIONS} versions of ${name}`);
  const versions = new Map<string, PackageVersion>();
  let weight = name.length;
  for (const [key, v] of entries) {
    // a key that isn't a version can't be picked by a range; a tag naming one is refused in pickVersion
    if (!isValidVersion(key) || !isObject(v)) continue;
    const trimmed = trimVersion(v);
    versions.set(key, trimmed);
    weight += 200 + JSON.stringify(trimmed).length * 2;
  }
  const distTags = new Map<string, string>();
  for (const [tag, version] of Object.entries(isObject(raw["dist-tags"]) ? raw["dist-tags"] : {})) {
    if (typeof version === "string") distTags.set(tag, version);
  }
  return { name, distTags, versions, weight };
}

function trimVersion(v: Json): PackageVersion {
  const dist = isObject(v.dist) ? v.dist : {};
  const out: PackageVersion = {
    name: str(v.name) ?? "",
    version: str(v.version) ?? "",
    dependencies: strings(v.dependencies),
    peerDependencies: strings(v.peerDependencies),
    dist: { tarball: str(dist.tarball) ?? "", integrity: str(dist.integrity), shasum: str(dist.shasum) },
    hasInstallScript: v.hasInstallScript === true,
  };
  if (isObject(v.peerDependenciesMeta)) {
    out.peerDependenciesMeta = Object.fromEntries(
      Object.entries(v.peerDependenciesMeta).map(([peer, meta]) => [peer, { optional: isObject(meta) && meta.optional === true }]),
    );
  }
  return out;
}

// Object.fromEntries defines own properties: a "__proto__" key stays a key
function strings(v: unknown): Record<string, string> | undefined {
  if (!isObject(v)) return undefined;
  return Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === "string"));
}

/** The version of the packument that `range` (a semver range or a dist-tag) picks, checked; throws when none. */
export function pickVersion(p: Packument, range: string): PackageVersion {
  const tagged = p.distTags.get(range);
  if (tagged !== undefined && !isValidVersion(tagged)) throw new Error(`the registry's "${range}" tag of ${p.name} is ${JSON.stringify(tagged)}, which is not a version`);
  const version = tagged ?? semver.maxSatisfying([...p.versions.keys()], range === "" ? "*" : range);
  const v = version === null ? undefined : p.versions.get(version);
  if (!version || !v) {
    if (!semver.validRange(range) && tagged === undefined) throw new Error(`"${range}" is not a version range or tag of ${p.name}`);
    throw new Error(`no version of ${p.name} matches "${range}"`);
  }
  if (v.name !== p.name || v.version !== version) {
    throw new Error(`the registry's metadata of ${p.name}@${version} names ${JSON.stringify(v.name)}@${JSON.stringify(v.version)} instead`);
  }
  for (const deps of [v.dependencies, v.peerDependencies]) {
    for (const dep of Object.keys(deps ?? {})) {
      if (!isValidName(dep)) throw new Error(`${p.name}@${version} depends on ${JSON.stringify(dep)}, which is not a valid package name`);
    }
  }
  return v;
}
