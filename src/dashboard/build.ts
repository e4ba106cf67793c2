import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants as zlib, gzip } from "node:zlib";

// Compressing at the highest levels takes over a second of CPU for the whole bundle: done on
// libuv's thread pool, so a service building its dashboard keeps answering meanwhile.
const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

// The dashboard's browser code is bundled by the service itself (esbuild, already a dependency
// with a prebuilt binary), so a user never runs a build step: the first time it is needed the
// app under app/ is bundled into memory (minified, content-hashed names, precompressed), and the
// result is cached on disk keyed by a hash of the sources and the lockfile, so a restart with the
// same code serves it at once.

const APP_DIR = join(import.meta.dirname, "app");
const ROOT = join(import.meta.dirname, "..", "..");
// the browser code imports the typed client; both are part of what the cache key covers
const SOURCE_DIRS = [APP_DIR, join(ROOT, "src", "client")];
const LOCKFILE = join(ROOT, "package-lock.json");
const CACHE_DIR = join(ROOT, "node_modules", ".cache", "tributary-dashboard");

export interface Asset {
  /** e.g. main-5FQX2JQK.js: the content hash is in the name, so it may be cached forever */
  name: string;
  type: string;
  etag: string;
  raw: Buffer;
  gzip: Buffer;
  br: Buffer;
}

export interface DashboardBuild {
  html: string;
  assets: Map<string, Asset>;
  /** how it was obtained and how long it took (ms), for the log and the docs' numbers */
  from: "esbuild" | "cache";
  ms: number;
}

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/** A hash of everything the bundle is made from: the app, the client and the locked versions. */
export function sourceHash(): string {
  const h = createHash("sha256");
  for (const dir of SOURCE_DIRS) {
    for (const f of files(dir)) h.update(relative(ROOT, f)).update("\0").update(readFileSync(f)).update("\0");
  }
  h.update(readFileSync(LOCKFILE));
  return h.digest("hex").slice(0, 16);
}

// The icon is inline (a data: URL, which the page's CSP allows for images), so a browser asks for
// no /favicon.ico: an indigo tile with three streams flowing into one.
const FAVICON =
  "data:image/svg+xml," +
  encodeURIComponent(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#4c6ef5"/>` +
      `<path d="M6 9c6 0 8 7 14 7M6 16h14M6 23c6 0 8-7 14-7h6" stroke="#fff" stroke-width="2.6" fill="none" stroke-linecap="round"/></svg>`,
  );

function html(js: string, css: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tributary</title>
<link rel="icon" href="${FAVICON}">
<link rel="stylesheet" href="/assets/${css}">
<script type="module" src="/assets/${js}"></script>
</head>
<body><div id="root"></div></body>
</html>
`;
}

async function asset(name: string, raw: Buffer): Promise<Asset> {
  const ext = name.slice(name.lastIndexOf("."));
  const [gz, br] = await Promise.all([
    gzipAsync(raw, { level: 9 }),
    brotliAsync(raw, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length } }),
  ]);
  return {
    name,
    type: TYPES[ext] ?? "application/octet-stream",
    etag: `"${createHash("sha256").update(raw).digest("base64url").slice(0, 22)}"`,
    raw,
    gzip: gz,
    br,
  };
}

interface CachedManifest {
  html: string;
  assets: { name: string; type: string; etag: string }[];
}

function readCache(dir: string): Omit<DashboardBuild, "from" | "ms"> | undefined {
  try {
    const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as CachedManifest;
    const assets = new Map<string, Asset>();
    for (const a of manifest.assets) {
      const read = (suffix: string) => readFileSync(join(dir, a.name + suffix));
      assets.set(a.name, { ...a, raw: read(""), gzip: read(".gz"), br: read(".br") });
    }
    return { html: manifest.html, assets };
  } catch {
    return undefined;
  }
}

function writeCache(dir: string, build: Omit<DashboardBuild, "from" | "ms">): void {
  // written to a temp dir and renamed, so a concurrent start never reads half a cache
  const tmp = `${dir}.tmp-${process.pid}-${Date.now()}`;
  try {
    mkdirSync(tmp, { recursive: true });
    for (const a of build.assets.values()) {
      writeFileSync(join(tmp, a.name), a.raw);
      writeFileSync(join(tmp, a.name + ".gz"), a.gzip);
      writeFileSync(join(tmp, a.name + ".br"), a.br);
    }
    const manifest: CachedManifest = { html: build.html, assets: [...build.assets.values()].map(({ name, type, etag }) => ({ name, type, etag })) };
    writeFileSync(join(tmp, "manifest.json"), JSON.stringify(manifest));
    mkdirSync(dirname(dir), { recursive: true });
    renameSync(tmp, dir);
    // builds of older sources are never read again (nor temp dirs a killed start left behind;
    // removing one still being written only costs that start its cache)
    for (const old of readdirSync(CACHE_DIR)) if (!old.startsWith(basename(dir))) rmSync(join(CACHE_DIR, old), { recursive: true, force: true });
  } catch {
    // a read-only node_modules (or a concurrent start that won the rename) only costs the cache
    rmSync(tmp, { recursive: true, force: true });
  }
}

async function bundle(): Promise<Omit<DashboardBuild, "from" | "ms">> {
  const esbuild = await import("../lib/esbuild.ts");
  const result = await esbuild.build({
    entryPoints: { main: join(APP_DIR, "main.tsx") },
    bundle: true,
    write: false,
    outdir: "/assets",
    entryNames: "[name]-[hash]",
    // what is imported lazily (the code editor: CodeMirror is ~145 KB gzipped) is its own chunk,
    // loaded by the pages that show an editor, not by the first page
    splitting: true,
    chunkNames: "chunk-[hash]",
    format: "esm",
    platform: "browser",
    target: ["es2022", "chrome110", "firefox110", "safari16"],
    jsx: "automatic",
    minify: true,
    legalComments: "none",
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "silent",
    absWorkingDir: ROOT,
  });
  const assets = new Map<string, Asset>();
  let js = "";
  let css = "";
  for (const out of result.outputFiles) {
    const name = out.path.slice(out.path.lastIndexOf("/") + 1);
    assets.set(name, await asset(name, Buffer.from(out.contents)));
    // the page loads the entry (main-<hash>) and its styles; chunks are imported by it
    if (name.startsWith("main-") && name.endsWith(".js")) js = name;
    if (name.startsWith("main-") && name.endsWith(".css")) css = name;
  }
  return { html: html(js, css), assets };
}

/** The dashboard's files: from the disk cache when the sources are unchanged, else bundled now. */
export async function buildDashboard(): Promise<DashboardBuild> {
  const started = performance.now();
  const dir = join(CACHE_DIR, sourceHash());
  const cached = readCache(dir);
  if (cached) return { ...cached, from: "cache", ms: Math.round(performance.now() - started) };
  // Services started together on a fresh install (a test suite, several nodes on one machine)
  // build once: the first takes the lock, the others wait for its cache (esbuild uses every core).
  const lock = `${dir}.lock`;
  const locked = takeLock(lock);
  if (!locked) {
    const waited = await waitForCache(dir, lock);
    if (waited) return { ...waited, from: "cache", ms: Math.round(performance.now() - started) };
  }
  try {
    const built = await bundle();
    writeCache(dir, built);
    return { ...built, from: "esbuild", ms: Math.round(performance.now() - started) };
  } finally {
    if (locked) rmSync(lock, { recursive: true, force: true });
  }
}

const STALE_LOCK_MS = 60_000;

function takeLock(lock: string): boolean {
  try {
    mkdirSync(dirname(lock), { recursive: true });
    mkdirSync(lock);
    return true;
  } catch {
    // taken by another start, or node_modules is read-only: then nobody can lock, and each builds
    return false;
  }
}

// The cache, once the lock's holder wrote it; undefined when it gave up (or died: a lock older
// than a build could take is stale), and this start builds for itself.
async function waitForCache(dir: string, lock: string): Promise<Omit<DashboardBuild, "from" | "ms"> | undefined> {
  for (;;) {
    const cached = readCache(dir);
    if (cached) return cached;
    let age: number;
    try {
      age = Date.now() - statSync(lock).mtimeMs;
    } catch {
      return readCache(dir);
    }
    if (age > STALE_LOCK_MS) return undefined;
    await new Promise((r) => setTimeout(r, 100));
  }
}
