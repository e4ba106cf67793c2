import { createHash } from "node:crypto";
import { fetchBytes } from "../../lib/net/fetch-text.ts";
import { Limiter } from "./concurrency.ts";
import { isValidName } from "./package-name.ts";
import { PackumentCache } from "./packument-cache.ts";
import { pickVersion, trimPackument, type PackageVersion, type Packument } from "./packument.ts";

// A client of an npm registry: package metadata (the abbreviated "corgi" form npm itself uses)
// and tarballs, every request under the same address guard as components' own fetches, with a
// deadline, a size cap, and only so many at once. The registry may be hostile: what it answers
// is checked against what was asked (packument.ts), and tarballs against the integrity it published.

export type { PackageVersion };

export interface RegistryOptions {
  url: string;
  /** private host:ports the guard lets through (TRIBUTARY_FETCH_ALLOW) */
  fetchAllow: readonly string[];
  /** the largest packument read, bytes (TRIBUTARY_NPM_MAX_PACKUMENT_MB) */
  maxPackumentBytes?: number;
}

const MiB = 1024 * 1024;
const TARBALL_MAX_BYTES = 64 * MiB;
const TIMEOUT_MS = 60_000;
// a packument or tarball is held whole while it is read: these bound what all saves hold at once
const PACKUMENTS_AT_ONCE = 8;
const TARBALLS_AT_ONCE = 4;
/** metadata is reused this long: saving several components in a row asks the registry once */
const METADATA_TTL_MS = 5 * 60_000;

export class Registry {
  readonly #base: string;
  readonly #allow: readonly string[];
  readonly #maxPackumentBytes: number;
  readonly #packuments = new PackumentCache({ maxEntries: 200, maxWeight: 64 * MiB, ttlMs: METADATA_TTL_MS });
  /** packuments being fetched: a tree asks for the same name from several places at once */
  readonly #fetching = new Map<string, Promise<Packument>>();
  readonly #metadataLimit = new Limiter(PACKUMENTS_AT_ONCE);
  readonly #tarballLimit = new Limiter(TARBALLS_AT_ONCE);

  constructor(opts: RegistryOptions) {
    this.#base = opts.url.endsWith("/") ? opts.url : opts.url + "/";
    this.#allow = opts.fetchAllow;
    this.#maxPackumentBytes = opts.maxPackumentBytes ?? 16 * MiB;
  }

  /** The version of `name` that `range` (a semver range or a dist-tag) picks; throws when none. */
  async pick(name: string, range: string): Promise<PackageVersion> {
    if (!isValidName(name)) throw new Error(`${JSON.stringify(name)} is not a valid package name`);
    return pickVersion(await this.#packument(name), range);
  }

  async tarball(v: PackageVersion): Promise<Buffer> {
    const bytes = await this.#tarballLimit.run(() => fetchBytes(v.dist.tarball, { timeoutMs: TIMEOUT_MS, maxBytes: TARBALL_MAX_BYTES, allow: this.#allow }));
    checkIntegrity(v, bytes);
    return bytes;
  }

  #packument(name: string): Promise<Packument> {
    const cached = this.#packuments.get(name);
    if (cached) return Promise.resolve(cached);
    let value = this.#fetching.get(name);
    if (!value) {
      value = this.#metadataLimit.run(() => this.#fetchPackument(name));
      this.#fetching.set(name, value);
      value.then(
        (p) => this.#packuments.set(name, p),
        () => {},
      );
      value.finally(() => this.#fetching.delete(name)).catch(() => {});
    }
    return value;
  }

  async #fetchPackument(name: string): Promise<Packument> {
    const url = this.#base + name.replace("/", "%2f");
    let bytes: Buffer;
    try {
      bytes = await fetchBytes(url, {
        timeoutMs: TIMEOUT_MS,
        maxBytes: this.#maxPackumentBytes,
        allow: this.#allow,
        headers: { accept: "application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8" },
      });
    } catch (e) {
      const message = (e as Error).message;
      if (/HTTP 404/.test(message)) throw new Error(`${name} is not in the registry`, { cause: e });
      if (/ is larger than \d+ bytes$/.test(message)) {
        throw new Error(`the registry's metadata of ${name} is larger than ${this.#maxPackumentBytes / MiB} MiB (TRIBUTARY_NPM_MAX_PACKUMENT_MB)`, { cause: e });
      }
      throw new Error(message, { cause: e });
    }
    let raw: unknown;
    try {
      raw = JSON.parse(bytes.toString("utf8"));
    } catch {
      throw new Error(`the registry's answer for ${name} is not package metadata`);
    }
    return trimPackument(raw, name);
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
