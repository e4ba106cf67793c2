import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { Agent, createServer, get, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import zlib from "node:zlib";
import { Header } from "tar";
import { assertErrorEnvelope, startApp, type TestApp } from "../helpers.ts";
import { containedPath } from "../../src/lib/contained-path.ts";
import { dirName } from "../../src/runtime/packages/install.ts";
import { unpackPackage } from "../../src/runtime/packages/extract.ts";
import { layoutTree } from "../../src/runtime/packages/layout.ts";
import { isValidName, isValidVersion } from "../../src/runtime/packages/package-name.ts";
import { PackumentCache } from "../../src/runtime/packages/packument-cache.ts";
import { trimPackument } from "../../src/runtime/packages/packument.ts";

// The npm registry is hostile here (a compromised or malicious one): each attack a security
// review reproduced against the package installer, served by a registry this test runs. Before
// the fix, the first three wrote outside the package cache and the others filled the disk,
// the memory, or stalled the event loop; now each save answers 422 invalid_component naming
// the problem, and nothing is written outside the cache.

const MiB = 1024 * 1024;

// -- a registry that answers what each attack needs --

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
interface Hostile {
  url: string;
  hostPort: string;
  routes: Map<string, Handler>;
  close(): Promise<void>;
}

async function startHostile(): Promise<Hostile> {
  const routes = new Map<string, Handler>();
  const server = createServer((req, res) => {
    res.on("error", () => {});
    const path = decodeURIComponent((req.url ?? "/").split("?")[0]);
    const handler = routes.get(path);
    if (handler) return handler(req, res);
    res.writeHead(404, { "content-type": "application/json" }).end('{"error":"Not found"}');
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    hostPort: `127.0.0.1:${port}`,
    routes,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

let registry: Hostile;

/** Serves `tgz` as a tarball; returns its dist (URL and integrity). */
function serveTarball(file: string, tgz: Buffer) {
  registry.routes.set(`/tarballs/${file}`, (_req, res) => void res.writeHead(200, { "content-type": "application/octet-stream" }).end(tgz));
  return { tarball: `${registry.url}tarballs/${file}`, integrity: "sha512-" + createHash("sha512").update(tgz).digest("base64") };
}

/** Serves a packument for the path `name` is asked at; its content is the attack's. */
function servePackument(name: string, doc: unknown) {
  registry.routes.set("/" + name, (_req, res) => void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(doc)));
}

/** A plain package: a packument naming itself, one version, a tarball with `files`. */
function publish(name: string, version: string, files: Record<string, string>, manifest: Record<string, unknown> = {}) {
  const dist = serveTarball(`${name.replace("/", "-")}-${version}.tgz`, tgz({ "package.json": JSON.stringify({ name, version, ...manifest }), ...files }));
  servePackument(name, { name, "dist-tags": { latest: version }, versions: { [version]: { name, version, ...manifest, dist } } });
}

// -- tarballs, made here entry by entry --

function header(path: string, size: number, type = "File", linkpath?: string): Buffer {
  const b = Buffer.alloc(512);
  new Header({ path, mode: type === "Directory" ? 0o755 : 0o644, size, type: type as "File", linkpath, mtime: new Date(0) }).encode(b, 0);
  return b;
}
const padded = (b: Buffer) => Buffer.concat([b, Buffer.alloc((512 - (b.length % 512)) % 512)]);
function tar(files: Record<string, string>, extra: Buffer[] = []): Buffer {
  const blocks = Object.entries(files).flatMap(([path, text]) => [header(`package/${path}`, Buffer.byteLength(text)), padded(Buffer.from(text))]);
  return Buffer.concat([...blocks, ...extra, Buffer.alloc(1024)]);
}
const tgz = (files: Record<string, string>, extra: Buffer[] = []) => zlib.gzipSync(tar(files, extra));

/**
 * A package whose tarball holds one file of `size` zeros, made without ever holding them: each
 * MiB of zeros deflates to the same bytes from a fresh state (a full flush), so the stream is
 * those bytes repeated, with the CRC of the whole (3 GiB: a 3 MB tarball, in well under a second).
 * A MiB of noise before them keeps the tarball's ratio under tar's own check (1000:1), as the
 * review's 4 MB tarball was.
 */
function zeroBomb(name: string, size: number): Buffer {
  const json = Buffer.from(JSON.stringify({ name, version: "1.0.0" }));
  const noise = randomBytes(MiB);
  const head = Buffer.concat([header("package/package.json", json.length), padded(json), header("package/noise.bin", MiB), noise, header("package/zeros.bin", size)]);
  const flush = { finishFlush: zlib.constants.Z_FULL_FLUSH, level: 9 };
  const zeroMiB = Buffer.alloc(MiB);
  const deflatedMiB = zlib.deflateRawSync(zeroMiB, flush);
  const parts = [Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]), zlib.deflateRawSync(head, flush)];
  let crc = zlib.crc32(head);
  for (let left = size; left >= MiB; left -= MiB) {
    parts.push(deflatedMiB);
    crc = zlib.crc32(zeroMiB, crc);
  }
  const rest = Buffer.alloc((size % MiB) + ((512 - (size % 512)) % 512) + 1024);
  parts.push(zlib.deflateRawSync(rest, flush), zlib.deflateRawSync(Buffer.alloc(0)));
  crc = zlib.crc32(rest, crc);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE((head.length + size - (size % MiB) + rest.length) % 2 ** 32, 4);
  return Buffer.concat([...parts, trailer]);
}

/** A package of `n` empty files (~1.4 MB gzipped for 200,000), gzipped as a stream. */
async function manyFiles(name: string, n: number): Promise<Buffer> {
  const json = Buffer.from(JSON.stringify({ name, version: "1.0.0" }));
  function* blocks() {
    yield header("package/package.json", json.length);
    yield padded(json);
    for (let i = 0; i < n; i++) yield header(`package/f/${i}.js`, 0);
    yield Buffer.alloc(1024);
  }
  const chunks: Buffer[] = [];
  for await (const c of Readable.from(blocks()).pipe(zlib.createGzip())) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

function healthz(url: string, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { agent }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    }).on("error", reject);
  });
}

// -- what is on disk --

let root: string;
let dataDir: string;
let t: TestApp;

/** Every path under the test's root that isn't a data directory, with each file's text. */
function outsideData(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (dir === root && name.startsWith("data")) continue;
      const st = lstatSync(p);
      out.push(st.isFile() ? `${p}=${readFileSync(p, "utf8")}` : p);
      if (st.isDirectory()) walk(p);
    }
  };
  walk(root);
  return out.sort();
}

function bytesUnder(dir: string): number {
  if (!existsSync(dir)) return 0;
  let n = 0;
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, d.name);
    n += d.isDirectory() ? bytesUnder(p) : lstatSync(p).size;
  }
  return n;
}

const leftovers = (data: string) => (existsSync(join(data, "npm", "files")) ? readdirSync(join(data, "npm", "files")).filter((n) => n.includes(".tmp-")) : []);

/** A path that resolves, from anywhere in the cache, to `target` (an absolute path). */
const climbTo = (target: string) => "../".repeat(40) + target.slice(1);

async function save(app: TestApp, imports: string) {
  return app.request("POST", "/v1/components", { body: { component_code: `${imports}\nexport default { run() {} }` } });
}

/** Saves and checks the refusal: 422 invalid_component, the message matching, nothing written outside. */
async function refused(app: TestApp, imports: string, message: RegExp) {
  const before = outsideData();
  const res = await save(app, imports);
  assert.deepEqual(outsideData(), before, "nothing written outside the data directory");
  assertErrorEnvelope(res, 422, "invalid_component");
  assert.match(res.body.error.message, message);
  return res;
}

before(async () => {
  root = mkdtempSync(join(tmpdir(), "tributary-registry-attacks-"));
  dataDir = join(root, "data");
  mkdirSync(join(root, "victim"), { recursive: true });
  writeFileSync(join(root, "victim", "index.js"), "original");
  registry = await startHostile();
  t = await startApp({ TRIBUTARY_DATA_DIR: dataDir, TRIBUTARY_NPM_REGISTRY: registry.url, TRIBUTARY_FETCH_ALLOW: registry.hostPort });
});
after(async () => {
  await t.close();
  await registry.close();
  rmSync(root, { recursive: true, force: true });
});

describe("A. a hostile registry's names, versions and keys never write outside the cache", () => {
  it("a packument naming another package (../../victim) is refused; the victim is untouched", async () => {
    const victim = climbTo(join(root, "victim"));
    const dist = serveTarball("evil-name.tgz", tgz({ "package.json": "{}", "index.js": "pwned" }));
    servePackument("evil-name", { name: victim, "dist-tags": { latest: "1.0.0" }, versions: { "1.0.0": { name: victim, version: "1.0.0", dist } } });
    await refused(t, `import x from "evil-name";`, /cannot install evil-name: the registry answered with the metadata of ".*victim" when asked for evil-name/);
    // the packument is right, the version's manifest isn't
    servePackument("evil-name2", { name: "evil-name2", "dist-tags": { latest: "1.0.0" }, versions: { "1.0.0": { name: victim, version: "1.0.0", dist } } });
    await refused(t, `import x from "evil-name2";`, /cannot install evil-name2: the registry's metadata of evil-name2@1\.0\.0 names ".*victim"@"1\.0\.0" instead/);
    assert.equal(readFileSync(join(root, "victim", "index.js"), "utf8"), "original");
  });

  it("a version of 1.0.0/../../… (a tag naming it, or a manifest claiming it) is refused", async () => {
    const bad = "1.0.0/" + climbTo(join(root, "by-version"));
    const dist = serveTarball("evil-version.tgz", tgz({ "package.json": "{}", "index.js": "pwned" }));
    servePackument("evil-version", { name: "evil-version", "dist-tags": { latest: bad }, versions: { [bad]: { name: "evil-version", version: bad, dist } } });
    await refused(t, `import x from "evil-version";`, /cannot install evil-version: the registry's "latest" tag of evil-version is "1\.0\.0\/\.\.\/.*", which is not a version/);
    servePackument("evil-version2", { name: "evil-version2", "dist-tags": { latest: "1.0.0" }, versions: { "1.0.0": { name: "evil-version2", version: bad, dist } } });
    await refused(t, `import x from "evil-version2";`, /cannot install evil-version2: the registry's metadata of evil-version2@1\.0\.0 names "evil-version2"@"1\.0\.0\/\.\.\/.*" instead/);
    assert.equal(existsSync(join(root, "by-version")), false);
  });

  it("a dependency (or peer dependency) key with ../ is refused, naming the package and the key", async () => {
    const key = climbTo(join(root, "by-dep"));
    publish("evil-dep", "1.0.0", { "index.js": "module.exports = 1;" }, { dependencies: { [key]: "1.0.0" } });
    // the old installer asked the registry for the key as a name: answer anything it asks
    publish("whatever", "1.0.0", { "index.js": "module.exports = 2;" });
    registry.routes.set(join("/", key), registry.routes.get("/whatever")!);
    const res = await refused(t, `import x from "evil-dep";`, /cannot install evil-dep: evil-dep@1\.0\.0 depends on "(\.\.\/)+.*by-dep", which is not a valid package name/);
    assert.ok(res.body.error.message.includes(JSON.stringify(key)), res.body.error.message);
    publish("evil-peer", "1.0.0", { "index.js": "module.exports = 1;" }, { peerDependencies: { "@../by-peer": "1.0.0" } });
    await refused(t, `import x from "evil-peer";`, /cannot install evil-peer: evil-peer@1\.0\.0 depends on "@\.\.\/by-peer", which is not a valid package name/);
    assert.equal(existsSync(join(root, "by-dep")), false);
  });

  it("a tarball entry climbing out of the package, or a link, writes nothing outside (unpacked off the event loop)", async () => {
    const escape = header("package/../../../escaped.js", 5);
    const dist = serveTarball("evil-entry.tgz", tgz({ "package.json": "{}", "index.js": "1" }, [escape, padded(Buffer.from("pwned"))]));
    servePackument("evil-entry", { name: "evil-entry", "dist-tags": { latest: "1.0.0" }, versions: { "1.0.0": { name: "evil-entry", version: "1.0.0", dist } } });
    await refused(t, `import x from "evil-entry";`, /evil-entry@1\.0\.0: its tarball has a file outside the package/);
    // links are skipped: the package installs without them
    const link = header("package/passwd", 0, "SymbolicLink", "/etc/passwd");
    const linked = serveTarball("with-link.tgz", tgz({ "package.json": JSON.stringify({ name: "with-link", version: "1.0.0" }), "index.js": "module.exports = 1;" }, [link]));
    servePackument("with-link", { name: "with-link", "dist-tags": { latest: "1.0.0" }, versions: { "1.0.0": { name: "with-link", version: "1.0.0", dist: linked } } });
    const ok = await save(t, `import x from "with-link";`);
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual(readdirSync(join(dataDir, "npm", "files", "with-link@1.0.0")).sort(), ["index.js", "package.json"]);
  });

  it("defense in depth: paths built from names are checked even if validation let one through", async () => {
    const files = join(root, "data-unit", "files");
    mkdirSync(join(files, "ok@1.0.0"), { recursive: true });
    writeFileSync(join(files, "ok@1.0.0", "index.js"), "x");
    const before = outsideData();
    const rootDir = join(root, "data-unit", "roots", "r1");
    assert.throws(() => layoutTree(rootDir, files, [{ dir: "ok@1.0.0", name: climbTo(join(root, "victim")), deps: [] }]), /leads outside its directory/);
    assert.throws(() => layoutTree(rootDir, files, [{ dir: "ok@1.0.0", name: "ok", deps: [["../../../x", "ok@1.0.0"]] }]), /leads outside its directory/);
    await assert.rejects(unpackPackage({ files, dir: "../../x", tmp: "t", key: "x", tarball: new Uint8Array(), maxBytes: 1, maxFiles: 1 }), /leads outside/);
    assert.throws(() => containedPath(files, "1.0.0/" + climbTo(root)), /leads outside/);
    assert.deepEqual(outsideData(), before);
    assert.equal(existsSync(rootDir), false, "the half-made tree is removed");
    assert.equal(readFileSync(join(root, "victim", "index.js"), "utf8"), "original");
    // a scope's slash, and any other, is replaced: a directory name never nests
    assert.equal(dirName("@a/b@1.0.0"), "@a+b@1.0.0");
    assert.equal(dirName("a/b/c@1/2"), "a+b+c@1+2");
    for (const n of ["lodash", "@aws-sdk/client-s3", "JSONStream"]) assert.equal(isValidName(n), true, n);
    for (const n of ["../x", "@../x", "@a/..", "a/b", "@a/b/c", "", ".bin", "node_modules", "__proto__", " x"]) assert.equal(isValidName(n), false, n);
    for (const v of ["1.0.0", "0.0.1-rc.1"]) assert.equal(isValidVersion(v), true, v);
    // semver drops build metadata: npm never publishes it, and a version that isn't its own normal form is refused
    for (const v of ["v1.0.0", "1.0.0/../x", " 1.0.0", "1.0", "=1.0.0", "1.0.0+build.5"]) assert.equal(isValidVersion(v), false, v);
  });
});

describe("B. installs are bounded on disk, in memory, and off the event loop", () => {
  it("a 3 GiB file of zeros (a 3 MB tarball) is refused at the default limit, before it is written", async () => {
    const dist = serveTarball("big-zeros.tgz", zeroBomb("big-zeros", 3 * 1024 * MiB));
    assert.ok(dist.tarball.length > 0);
    servePackument("big-zeros", { name: "big-zeros", "dist-tags": { latest: "1.0.0" }, versions: { "1.0.0": { name: "big-zeros", version: "1.0.0", dist } } });
    await refused(t, `import z from "big-zeros";`, /cannot install big-zeros@1\.0\.0: it unpacks to more than 512 MiB \(TRIBUTARY_NPM_MAX_PACKAGE_MB\)/);
    assert.deepEqual(leftovers(dataDir), [], "the temporary directory is removed");
    assert.ok(bytesUnder(join(dataDir, "npm")) < 5 * MiB, `the cache holds ${bytesUnder(join(dataDir, "npm"))} bytes`);
  });

  it("TRIBUTARY_NPM_MAX_PACKAGE_MB and TRIBUTARY_NPM_MAX_SAVE_MB: per package, and per save in all", async () => {
    const data = join(root, "data-limits");
    const app = await startApp({ TRIBUTARY_DATA_DIR: data, TRIBUTARY_NPM_MAX_PACKAGE_MB: "64", TRIBUTARY_NPM_MAX_SAVE_MB: "32", TRIBUTARY_NPM_REGISTRY: registry.url, TRIBUTARY_FETCH_ALLOW: registry.hostPort });
    try {
      const gib = serveTarball("gib-zeros.tgz", zeroBomb("gib-zeros", 1024 * MiB));
      servePackument("gib-zeros", { name: "gib-zeros", "dist-tags": { latest: "1.0.0" }, versions: { "1.0.0": { name: "gib-zeros", version: "1.0.0", dist: gib } } });
      await refused(app, `import z from "gib-zeros";`, /cannot install gib-zeros@1\.0\.0: the component's packages unpack to more than 32 MiB in all \(TRIBUTARY_NPM_MAX_SAVE_MB\)/);
      // two packages of 20 MiB: each passes, together they don't
      for (const n of ["zeros-a", "zeros-b"]) {
        const dist = serveTarball(`${n}.tgz`, zeroBomb(n, 20 * MiB));
        servePackument(n, { name: n, "dist-tags": { latest: "1.0.0" }, versions: { "1.0.0": { name: n, version: "1.0.0", dist } } });
      }
      await refused(app, `import a from "zeros-a"; import b from "zeros-b";`, /cannot install zeros-[ab]@1\.0\.0: the component's packages unpack to more than 32 MiB in all \(TRIBUTARY_NPM_MAX_SAVE_MB\)/);
      assert.deepEqual(leftovers(data), []);
      assert.ok(bytesUnder(join(data, "npm")) < 22 * MiB, "only the package that passed (21 MiB) is kept");
    } finally {
      await app.close();
    }
    const small = join(root, "data-small");
    const one = await startApp({ TRIBUTARY_DATA_DIR: small, TRIBUTARY_NPM_MAX_PACKAGE_MB: "64", TRIBUTARY_NPM_REGISTRY: registry.url, TRIBUTARY_FETCH_ALLOW: registry.hostPort });
    try {
      await refused(one, `import z from "gib-zeros";`, /cannot install gib-zeros@1\.0\.0: it unpacks to more than 64 MiB \(TRIBUTARY_NPM_MAX_PACKAGE_MB\)/);
      assert.ok(bytesUnder(join(small, "npm")) < MiB);
    } finally {
      await one.close();
    }
  });

  it("200,000 empty files (a 1.4 MB tarball): refused at TRIBUTARY_NPM_MAX_FILES, /healthz answering all along", async () => {
    const dist = serveTarball("many-files.tgz", await manyFiles("many-files", 200_000));
    servePackument("many-files", { name: "many-files", "dist-tags": { latest: "1.0.0" }, versions: { "1.0.0": { name: "many-files", version: "1.0.0", dist } } });
    // the default (50,000) stops it a quarter of the way; at 200,000 it unpacks them all first
    for (const [limit, env] of [["50000", {}], ["200000", { TRIBUTARY_NPM_MAX_FILES: "200000" }]] as const) {
      const data = join(root, `data-files-${limit}`);
      const app = await startApp({ TRIBUTARY_DATA_DIR: data, ...env, TRIBUTARY_NPM_REGISTRY: registry.url, TRIBUTARY_FETCH_ALLOW: registry.hostPort });
      try {
        const base = await app.app.http.listen({ port: 0, host: "127.0.0.1" });
        // node:http on one kept-alive connection: the probe makes little garbage of its own (it runs
        // on the service's event loop, and a busier GC there would be the probe's doing)
        const agent = new Agent({ keepAlive: true, maxSockets: 1 });
        let done = false;
        const during: number[] = [];
        const loop = monitorEventLoopDelay({ resolution: 10 });
        loop.enable();
        const poll = (async () => {
          while (!done) {
            const unpacking = leftovers(data).length > 0;
            const t0 = performance.now();
            assert.equal(await healthz(`${base}/healthz`, agent), 200);
            if (unpacking) during.push(performance.now() - t0);
          }
        })();
        const saved = refused(app, `import m from "many-files";`, new RegExp(`cannot install many-files@1\\.0\\.0: it has more than ${limit} files \\(TRIBUTARY_NPM_MAX_FILES\\)`));
        await saved.finally(() => (done = true));
        await poll;
        agent.destroy();
        loop.disable();
        const sorted = during.sort((a, b) => a - b);
        const max = sorted.at(-1) ?? 0;
        console.log(
          `# /healthz during the unpack (limit ${limit}): ${during.length} answers, p99 ${sorted[Math.floor(sorted.length * 0.99)].toFixed(1)} ms, ` +
            `the slowest ${max.toFixed(1)} ms; event-loop delay max ${(loop.max / 1e6).toFixed(0)} ms`,
        );
        assert.ok(during.length >= 3, `/healthz was asked ${during.length} times while the unpack ran`);
        assert.ok(max < 1000, `/healthz took ${max.toFixed(0)} ms during the unpack`);
        assert.deepEqual(leftovers(data), []);
        assert.ok(bytesUnder(join(data, "npm")) < MiB, "the partly unpacked files are removed");
      } finally {
        await app.close();
      }
    }
  });

  it("a packument over TRIBUTARY_NPM_MAX_PACKUMENT_MB (16 MiB) is refused; what is cached of one is trimmed and bounded", async () => {
    registry.routes.set("/huge-meta", (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      const pad = "x".repeat(MiB);
      let i = 0;
      const more = () => {
        while (i < 60) {
          const chunk = i++ === 0 ? `{"name":"huge-meta","readme":"${pad}` : pad;
          if (!res.write(chunk)) return void res.once("drain", more);
        }
        res.end(`","versions":{}}`);
      };
      more();
    });
    await refused(t, `import h from "huge-meta";`, /cannot install huge-meta: the registry's metadata of huge-meta is larger than 16 MiB \(TRIBUTARY_NPM_MAX_PACKUMENT_MB\)/);

    // what the cache keeps of a packument: the fields the installer reads, not readmes
    const readme = "r".repeat(MiB);
    const versions = Object.fromEntries(
      Array.from({ length: 20 }, (_, i) => [`1.0.${i}`, { name: "fat", version: `1.0.${i}`, readme, scripts: { x: readme }, dependencies: { a: "^1" }, dist: { tarball: "http://x/t.tgz", integrity: "sha512-x", fileCount: 3 } }]),
    );
    const p = trimPackument({ name: "fat", readme, "dist-tags": { latest: "1.0.19" }, versions }, "fat");
    assert.ok(p.weight < 64 * 1024, `trimmed weight ${p.weight}`);
    assert.deepEqual(Object.keys(p.versions.get("1.0.3")!).sort(), ["dependencies", "dist", "hasInstallScript", "name", "peerDependencies", "version"]);
    assert.deepEqual(p.versions.get("1.0.3")!.dist, { tarball: "http://x/t.tgz", integrity: "sha512-x", shasum: undefined });
    const cache = new PackumentCache({ maxEntries: 200, maxWeight: 10 * p.weight, ttlMs: 60_000 });
    for (let i = 0; i < 250; i++) cache.set(`p${i}`, { ...p, weight: 1 });
    assert.equal(cache.size, 200, "at most 200 packuments");
    assert.equal(cache.get("p0"), undefined, "the least recently used went first");
    for (let i = 0; i < 20; i++) cache.set(`fat${i}`, p);
    assert.ok(cache.weight <= 10 * p.weight, "and no more than their bound in all");
  });

  it("packuments are fetched at most 8 at a time, tarballs at most 4", async () => {
    const deps = Array.from({ length: 40 }, (_, i) => `fan-${String(i).padStart(2, "0")}`);
    publish("fan-out", "1.0.0", { "index.js": "module.exports = 1;" }, { dependencies: Object.fromEntries(deps.map((d) => [d, "1.0.0"])) });
    for (const d of deps) publish(d, "1.0.0", { "index.js": `module.exports = "${d}";` });
    // each kind of request is held while fewer than the bound are in flight; at the bound the
    // oldest is answered (all of them once every request has come): a client asking for more at
    // once shows as a maximum above the bound, one that keeps to it never waits in vain
    const later = (turns: number, fn: () => void): void => void setImmediate(() => (turns > 1 ? later(turns - 1, fn) : fn()));
    const held = (paths: RegExp, bound: number, total: number) => {
      const state = { inFlight: 0, max: 0, arrived: 0, waiting: [] as Array<() => void> };
      for (const [path, handler] of registry.routes) {
        if (!paths.test(path)) continue;
        registry.routes.set(path, (req, res) => {
          state.arrived++;
          state.max = Math.max(state.max, ++state.inFlight);
          // finished: handed to the socket, before the client can ask for another
          res.on("finish", () => state.inFlight--);
          state.waiting.push(() => handler(req, res));
          if (state.arrived >= total) for (const go of state.waiting.splice(0)) go();
          // a few turns of the event loop later: a client asking for more than the bound at once
          // has more of them in by then (the client is in this process too)
          else if (state.inFlight >= bound) later(10, () => state.waiting.shift()?.());
        });
      }
      return state;
    };
    const packuments = held(/^\/fan-\d+$/, 8, 40);
    const tarballs = held(/^\/tarballs\/fan-/, 4, 41);
    const res = await save(t, `import f from "fan-out";`);
    assert.equal(res.status, 200, res.text);
    assert.equal(packuments.max, 8, "packuments in flight at once");
    assert.equal(tarballs.max, 4, "tarballs in flight at once");
  });
});
