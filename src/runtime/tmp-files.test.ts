// The sandbox's /tmp (sandbox/node/fs.cjs): files in memory, for code of a component's own that
// imports fs, bundled at save as the service bundles it and run on a real runner.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { events, harness, testRunner } from "./fixtures/invoke-harness.ts";
import { Bundler } from "./packages/bundler.ts";

const runner = testRunner();
const { run, source } = harness(runner);
let server: Server;
let origin = "";
let allow: string[] = [];
let cacheDir = "";
let bundler: Bundler;
const PAYLOAD = Buffer.alloc(300 * 1024, "0123456789abcdef");

before(async () => {
  cacheDir = mkdtempSync(join(tmpdir(), "tributary-tmp-files-"));
  bundler = new Bundler({
    cacheDir, npm: false, registryUrl: "http://127.0.0.1:9", npmAllow: [], fetchAllow: [],
    cacheMb: 16, maxPackageMb: 16, maxSaveMb: 16, maxFiles: 100, maxPackumentMb: 1,
  });
  server = createServer((req, res) => {
    if (req.url === "/file.bin") return void res.writeHead(200, { "content-type": "application/octet-stream" }).end(PAYLOAD);
    res.writeHead(404).end();
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  allow = [`127.0.0.1:${port}`];
});
after(async () => {
  await runner.close();
  await new Promise((done) => server.close(done));
  rmSync(cacheDir, { recursive: true, force: true });
});

/** The component as saved: its own code's `fs` bundled in. */
async function bundled(code: string): Promise<string> {
  const out = await bundler.bundle(code, null);
  assert.ok(out, "code importing fs is bundled");
  return out.code;
}

async function emitted(code: string, extra: Parameters<typeof run>[1] = {}) {
  const r = await run(await bundled(code), extra);
  assert.equal(r.error, undefined, r.error?.message);
  return events(r);
}

describe("/tmp in the sandbox", () => {
  it("code of a component's own imports fs, node:fs and fs/promises: write, read, append, stat, readdir, rename, copy, rm (sync)", async () => {
    const [e] = await emitted(`import fs from "fs"; import * as nfs from "node:fs"; import fsp from "fs/promises";
      export default { run() {
        fs.writeFileSync("/tmp/data.json", JSON.stringify({ a: 1 }));
        const back = JSON.parse(fs.readFileSync("/tmp/data.json", "utf8"));
        fs.appendFileSync("/tmp/log.txt", "one\\n");
        fs.appendFileSync("/tmp/log.txt", Buffer.from("two\\n"));
        const log = fs.readFileSync("/tmp/log.txt").toString();
        fs.mkdirSync("/tmp/a/b/c", { recursive: true });
        fs.writeFileSync("/tmp/a/b/c/x.bin", new Uint8Array([1, 2, 3]));
        const st = fs.statSync("/tmp/a/b/c/x.bin");
        const dir = fs.lstatSync("/tmp/a/b");
        const list = fs.readdirSync("/tmp").filter((n) => ["a", "data.json", "log.txt"].includes(n));
        const typed = fs.readdirSync("/tmp/a/b", { withFileTypes: true }).map((d) => [d.name, d.isDirectory()]);
        fs.renameSync("/tmp/log.txt", "/tmp/a/log.txt");
        fs.copyFileSync("/tmp/a/log.txt", "/tmp/a/copy.txt");
        const copied = nfs.readFileSync("//tmp/./a/../a/copy.txt", "utf8");
        const existed = fs.existsSync("/tmp/a/copy.txt");
        fs.unlinkSync("/tmp/a/copy.txt");
        fs.rmSync("/tmp/a", { recursive: true, force: true });
        fs.rmSync("/tmp/none", { force: true });
        const err = (f) => { try { f(); return "no error"; } catch (e) { return [e.code, e.errno, e.syscall, e.path, e.message]; } };
        fs.mkdirSync("/tmp/d/e", { recursive: true });
        fs.writeFileSync("/tmp/d/e/f.txt", "f");
        fs.cpSync("/tmp/d", "/tmp/d2", { recursive: true });
        const cp = [fs.readFileSync("/tmp/d2/e/f.txt", "utf8"), err(() => fs.cpSync("/tmp/d", "/tmp/d/inside", { recursive: true }))[0]];
        const tmpDir = fs.mkdtempSync("/tmp/job-");
        this.$emit({ back, log, st: [st.isFile(), st.isDirectory(), st.size, st.mtime instanceof Date], dir: [dir.isFile(), dir.isDirectory()],
          list: list.sort(), typed, copied, existed, gone: fs.existsSync("/tmp/a"),
          missing: err(() => fs.readFileSync("/tmp/a/log.txt")), notEmpty: err(() => fs.rmdirSync("/tmp/d"))[0],
          isDir: err(() => fs.readFileSync("/tmp/d"))[0], exists: err(() => fs.mkdirSync("/tmp/d"))[0],
          cp, tmpDir: /^\\/tmp\\/job-\\w{6}$/.test(tmpDir) && fs.statSync(tmpDir).isDirectory(),
          same: nfs.readFileSync === fs.readFileSync, promises: fsp === fs.promises });
      } }`);
    assert.deepEqual(e, {
      back: { a: 1 }, log: "one\ntwo\n", st: [true, false, 3, true], dir: [false, true], list: ["a", "data.json", "log.txt"],
      typed: [["c", true]], copied: "one\ntwo\n", existed: true, gone: false,
      missing: ["ENOENT", -2, "open", "/tmp/a/log.txt", "ENOENT: no such file or directory, open '/tmp/a/log.txt'"],
      notEmpty: "ENOTEMPTY", isDir: "EISDIR", exists: "EEXIST", cp: ["f", "EINVAL"], tmpDir: true, same: true, promises: true,
    });
  });

  it("callbacks and promises", async () => {
    const [e] = await emitted(`import fs from "node:fs"; import { readFile, writeFile, appendFile, stat, readdir, rm, mkdir, access } from "fs/promises";
      import { promisify } from "util";
      export default { async run() {
        const cb = await new Promise((ok, no) => fs.writeFile("/tmp/cb.txt", "cb", (err) => err ? no(err) : fs.appendFile("/tmp/cb.txt", "!", "utf8", (err) =>
          err ? no(err) : fs.readFile("/tmp/cb.txt", "utf8", (err, text) => err ? no(err) : fs.stat("/tmp/cb.txt", (err, st) => err ? no(err) : ok([text, st.size]))))));
        const cbMissing = await new Promise((ok) => fs.readFile("/tmp/nope", (err, data) => ok([err && err.code, data])));
        const exists = await new Promise((ok) => fs.exists("/tmp/cb.txt", ok));
        await mkdir("/tmp/p/q", { recursive: true });
        await writeFile("/tmp/p/q/a.txt", "A");
        await appendFile("/tmp/p/q/a.txt", "B");
        const text = await readFile("/tmp/p/q/a.txt", "utf8");
        const size = (await stat("/tmp/p/q/a.txt")).size;
        const names = await readdir("/tmp/p/q");
        await access("/tmp/p/q/a.txt");
        const rejected = await readFile("/tmp/p/none").then(() => "read", (e) => e.code);
        await rm("/tmp/p", { recursive: true });
        const after = await stat("/tmp/p").then(() => "there", (e) => e.code);
        const viaPromisify = await promisify(fs.readFile)("/tmp/cb.txt", "utf8");
        const viaFsPromises = await fs.promises.readFile("/tmp/cb.txt", "utf8");
        this.$emit({ cb, cbMissing, exists, text, size, names, rejected, after, viaPromisify, viaFsPromises });
      } }`);
    assert.deepEqual(e, {
      cb: ["cb!", 3], cbMissing: ["ENOENT", null], exists: true, text: "AB", size: 2, names: ["a.txt"], rejected: "ENOENT", after: "ENOENT",
      viaPromisify: "cb!", viaFsPromises: "cb!",
    });
  });

  it("a download (fetch, axios' responseType: \"stream\") streamed into createWriteStream (stream.pipeline, .pipe), read back with createReadStream", async () => {
    const [e] = await emitted(`import fs from "fs"; import { pipeline } from "stream/promises"; import stream, { Readable } from "stream";
      import crypto from "crypto"; import axios from "axios";
      export default { async run() {
        const res = await fetch(${JSON.stringify(`${origin}/file.bin`)});
        const out = fs.createWriteStream("/tmp/file.bin");
        const seen = [];
        for (const name of ["open", "ready", "finish", "close"]) out.on(name, () => seen.push(name));
        await pipeline(Readable.fromWeb(res.body), out);
        const again = await fetch(${JSON.stringify(`${origin}/file.bin`)});
        await new Promise((ok, no) => Readable.fromWeb(again.body).pipe(fs.createWriteStream("/tmp/copy.bin")).on("close", ok).on("error", no));
        await new Promise((ok, no) => stream.pipeline(fs.createReadStream("/tmp/copy.bin"), fs.createWriteStream("/tmp/copy2.bin", { flags: "a" }), (e) => e ? no(e) : ok()));
        // the provided axios with responseType "stream", as Pipedream's docs download to /tmp
        const viaAxios = await axios({ method: "GET", url: ${JSON.stringify(`${origin}/file.bin`)}, responseType: "stream" });
        await pipeline(viaAxios.data, fs.createWriteStream("/tmp/axios.bin"));
        const piped = await axios.get(${JSON.stringify(`${origin}/file.bin`)}, { responseType: "stream" });
        await new Promise((ok, no) => piped.data.pipe(fs.createWriteStream("/tmp/axios-piped.bin")).on("finish", ok).on("error", no));
        const axiosSame = fs.readFileSync("/tmp/axios.bin").equals(fs.readFileSync("/tmp/file.bin")) && fs.readFileSync("/tmp/axios-piped.bin").equals(fs.readFileSync("/tmp/file.bin"));
        const hash = crypto.createHash("sha256");
        const rs = fs.createReadStream("/tmp/file.bin");
        const readEvents = [];
        for (const name of ["open", "ready", "end", "close"]) rs.on(name, () => readEvents.push(name));
        let chunks = 0;
        for await (const chunk of rs) { hash.update(chunk); chunks++; }
        await new Promise((ok) => (rs.closed ? ok() : rs.on("close", ok)));
        const failed = await new Promise((ok) => fs.createReadStream("/tmp/nope").on("error", (e) => ok(e.code)));
        this.$emit({ seen, bytesWritten: out.bytesWritten, size: fs.statSync("/tmp/file.bin").size, copy: fs.statSync("/tmp/copy.bin").size,
          copy2: fs.readFileSync("/tmp/copy2.bin").equals(fs.readFileSync("/tmp/file.bin")), hash: hash.digest("hex"), chunks: chunks > 1, readEvents, failed, axiosSame });
      } }`, { fetchAllow: allow });
    const { createHash } = await import("node:crypto");
    assert.deepEqual(e, {
      seen: ["open", "ready", "finish", "close"], bytesWritten: PAYLOAD.length, size: PAYLOAD.length, copy: PAYLOAD.length, copy2: true,
      hash: createHash("sha256").update(PAYLOAD).digest("hex"), chunks: true, readEvents: ["open", "ready", "end", "close"], failed: "ENOENT", axiosSame: true,
    });
  });

  it("a path that leaves /tmp is what it was: missing for reads, read-only for writes", async () => {
    const [e] = await emitted(`import fs from "fs";
      export default { async run() {
        const err = (f) => { try { f(); return "no error"; } catch (e) { return e.code; } };
        fs.writeFileSync("/tmp/../tmp/inside.txt", "in");
        this.$emit({
          escape: err(() => fs.readFileSync("/tmp/../etc/passwd")), deep: err(() => fs.readFileSync("/tmp/a/../../etc/hostname")),
          exists: fs.existsSync("/tmp/../etc/passwd"), root: err(() => fs.readdirSync("/")), relative: err(() => fs.readFileSync("etc/passwd")),
          write: err(() => fs.writeFileSync("/tmp/../etc/x", "x")), mkdir: err(() => fs.mkdirSync("/tmp/../../x", { recursive: true })),
          renameOut: err(() => fs.renameSync("/tmp/inside.txt", "/tmp/../inside.txt")),
          promise: await fs.promises.readFile("/tmp/../etc/passwd").then(() => "read", (e) => e.code),
          stream: await new Promise((ok) => fs.createReadStream("/tmp/../etc/passwd").on("error", (e) => ok(e.code))),
          inside: fs.readFileSync("/tmp//./inside.txt", "utf8"), tmpItself: fs.statSync("/tmp/..//tmp/").isDirectory(),
        });
      } }`);
    assert.deepEqual(e, {
      escape: "ENOENT", deep: "ENOENT", exists: false, root: "ENOENT", relative: "ENOENT", write: "EROFS", mkdir: "EROFS", renameOut: "EROFS",
      promise: "ENOENT", stream: "ENOENT", inside: "in", tmpItself: true,
    });
  });

  it("/tmp holds 64 MiB of files: a write past that fails with ENOSPC, and removing files makes room", async () => {
    const [e] = await emitted(`import fs from "fs";
      export default { async run() {
        const mib = Buffer.alloc(1024 * 1024, 7);
        for (let i = 0; i < 63; i++) fs.appendFileSync("/tmp/big.bin", mib);
        fs.writeFileSync("/tmp/last.bin", mib);
        const err = (f) => { try { f(); return "no error"; } catch (e) { return [e.code, e.syscall]; } };
        const full = err(() => fs.writeFileSync("/tmp/one-more.bin", "x"));
        const append = err(() => fs.appendFileSync("/tmp/big.bin", "x"));
        const streamed = await new Promise((ok) => { const w = fs.createWriteStream("/tmp/s.bin"); w.on("error", (e) => ok(e.code)); w.write("x"); });
        const size = fs.statSync("/tmp/big.bin").size;
        fs.rmSync("/tmp/last.bin");
        fs.writeFileSync("/tmp/one-more.bin", "fits");
        this.$emit({ full, append, streamed, size, after: fs.readFileSync("/tmp/one-more.bin", "utf8") });
      } }`, { limits: { memoryMb: 128, timeoutMs: 10_000 } });
    assert.deepEqual(e, { full: ["ENOSPC", "write"], append: ["ENOSPC", "write"], streamed: "ENOSPC", size: 63 * 1024 * 1024, after: "fits" });
  });

  it("a file written in one run is there in the next run of the same source (a warm context), and not in another source", async () => {
    const code = await bundled(`import fs from "fs";
      export default { run(event) {
        if (event.body === "write") fs.writeFileSync("/tmp/state.txt", "from run 1");
        this.$emit({ text: fs.existsSync("/tmp/state.txt") ? fs.readFileSync("/tmp/state.txt", "utf8") : null });
      } }`);
    const src = source(code);
    const first = await src({ event: { body: "write" } });
    assert.equal(first.error, undefined, first.error?.message);
    const second = await src({ event: { body: "read" } });
    assert.equal(second.error, undefined, second.error?.message);
    assert.deepEqual(events(second), [{ text: "from run 1" }]);
    const other = await source(code)({ event: { body: "read" } });
    assert.deepEqual(events(other), [{ text: null }]);
  });
});
