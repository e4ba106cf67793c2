import { createHash } from "node:crypto";
import semver from "semver";
import { fetchBytes } from "../../lib/fetch-text.ts";

// A client of an npm registry: package metadata (the abbreviated "corgi" form npm itself uses)
// and tarballs, every request under the same address guard as components' own fetches, with a
// deadline and a size cap. Tarballs are checked against the integrity the registry published.

export interface PackageVersion {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  dist: { tarball: string; integrity?: string; shasum?: string };
  hasInstallScript?: boolean;
}

interface Packument {
  name: string;
  "dist-tags"?: Record<string, string>;
  versions: Record<string, PackageVersion>;
}

export interface RegistryOptions {
  url: string;
  /** private host:ports the guard lets through (TRIBUTARY_FETCH_ALLOW) */
  fetchAllow: readonly string[];
}

const METADATA_MAX_BYTES = 64 * 1024 * 1024;
const TARBALL_MAX_BYTES = 64 * 1024 * 1024;
const TIMEOUT_MS = 60_000;
/** metadata is reused this long: saving several components in a row asks the registry once */
const METADATA_TTL_MS = 5 * 60_000;

export class Registry {
  readonly #base: string;
  readonly #allow: readonly string[];
  readonly #packuments = new Map<string, { at: number; value: Promise<Packument> }>();

  constructor(opts: RegistryOptions) {
    this.#base = opts.url.endsWith("/") ? opts.url : opts.url + "/";
    this.#allow = opts.fetchAllow;
  }

  /** The version of `name` that `range` (a semver range or a dist-tag) picks; throws when none. */
  async pick(name: string, range: string): Promise<PackageVersion> {
    const p = await this.#packument(name);
    const tagged = p["dist-tags"]?.[range];
    const version = tagged ?? semver.maxSatisfying(Object.keys(p.versions), range === "" ? "*" : range);
    if (!version || !p.versions[version]) {
      if (!semver.validRange(range) && !tagged) throw new Error(`"${range}" is not a version range or tag of ${name}`);
      throw new Error(`no version of ${name} matches "${range}"`);
    }
    return p.versions[version];
  }

  async tarball(v: PackageVersion): Promise<Buffer> {
    const bytes = await fetchBytes(v.dist.tarball, { timeoutMs: TIMEOUT_MS, maxBytes: TARBALL_MAX_BYTES, allow: this.#allow });
    checkIntegrity(v, bytes);
    return bytes;
  }

  #packument(name: string): Promise<Packument> {
    const cached = this.#packuments.get(name);
    if (cached && Date.now() - cached.at < METADATA_TTL_MS) return cached.value;
    const value = this.#fetchPackument(name);
    this.#packuments.set(name, { at: Date.now(), value });
    value.catch(() => this.#packuments.delete(name));
    return value;
  }

  async #fetchPackument(name: string): Promise<Packument> {
    const url = this.#base + name.replace("/", "%2f");
    let bytes: Buffer;
    try {
      bytes = await fetchBytes(url, {
        timeoutMs: TIMEOUT_MS,
        maxBytes: METADATA_MAX_BYTES,
        allow: this.#allow,
        headers: { accept: "application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8" },
      });
    } catch (e) {
      const message = (e as Error).message;
      throw new Error(/HTTP 404/.test(message) ? `${name} is not in the registry` : message, { cause: e });
    }
    const p = JSON.parse(bytes.toString("utf8")) as Packument;
    if (typeof p !== "object" || p === null || typeof p.versions !== "object") throw new Error(`the registry's answer for ${name} is not package metadata`);
    return p;
  }
}

function checkIntegrity(v: PackageVersion, bytes: Buffer): void {
  const sri = v.dist.integrity?.split(/\s+/).find((s) => s.startsWith("sha512-"));
  if (sri) {
    const actual = "sha512-" + createHash("sha512").update(bytes).digest("base64");
    if (actual !== sri) throw new Error(`${v.name}@${v.version}: the tarball does not match its published integrity`);
    return;
  }
  if (v.dist.shasum) {
    if (createHash("sha1").update(bytes).digest("hex") !== v.dist.shasum) throw new Error(`${v.name}@${v.version}: the tarball does not match its shasum`);
    return;
  }
  throw new Error(`${v.name}@${v.version}: the registry published no integrity for its tarball`);
}
