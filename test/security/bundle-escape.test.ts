import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assertErrorEnvelope, createSource, serveFiles, startApp, waitEvents, type TestApp } from "../helpers.ts";
import { startRegistry, type FixturePackage, type LocalRegistry } from "../fixtures/npm-registry.ts";

// A bundle may contain only files of the packages resolved for the save, from their own
// directories in the cache, loaded as code or JSON. Each attack here read a host file into the
// saved component before the fix (the data dir's secret key, the database, /proc/self/environ):
// now each save is refused with 422 naming the import, and nothing of the file is stored.

const UP = "../".repeat(24);
let root: string;
let dataDir: string;
let secretPath: string;
let secretJson: string;
let registry: LocalRegistry;
let t: TestApp;

// package code as a hostile author writes it; `SECRET` and `SECRET_JSON` stand for absolute paths
function pkgs(secret: string, json: string): FixturePackage[] {
  return [
    { name: "plain", version: "1.0.0", files: { "index.js": `module.exports = "plain";`, "data.json": `{"ok":true}`, "notes.txt": "text" } },
    { name: "abs-text", version: "1.0.0", type: "module", files: { "index.js": `import s from ${JSON.stringify(secret)} with { type: "text" }; export default s;` } },
    { name: "abs-require", version: "1.0.0", files: { "index.js": `module.exports = require(${JSON.stringify(json)});` } },
    { name: "climb", version: "1.0.0", files: { "index.js": `module.exports = require(${JSON.stringify(UP.slice(0, -1) + json)});` } },
    { name: "bad-main", version: "1.0.0", main: UP + secret.slice(1), files: { "index.js": `module.exports = 1;` } },
    { name: "own-text", version: "1.0.0", type: "module", files: { "index.js": `import t from "./notes.txt" with { type: "text" }; export default t;`, "notes.txt": "text" } },
    { name: "undeclared", version: "1.0.0", files: { "index.js": `module.exports = require("leaky");` } },
    { name: "glob-climb", version: "1.0.0", files: { "index.js": `const name = "hostname"; module.exports = require(${JSON.stringify(UP)} + "etc/" + name);` } },
    { name: "glob-own", version: "1.0.0", files: { "index.js": `const l = "a"; module.exports = require("./locale/" + l + ".json");`, "locale/a.json": `{"locale":"a"}`, "locale/b.json": `{"locale":"b"}` } },
    { name: "proc-env", version: "1.0.0", type: "module", files: { "index.js": `import e from "/proc/self/environ" with { type: "text" }; export default e;` } },
    {
      name: "good-json",
      version: "1.0.0",
      type: "module",
      dependencies: { plain: "1.0.0" },
      files: { "index.js": `import d from "./d.json" with { type: "json" }; import p from "plain"; import pd from "plain/data.json"; export default { d, p, pd };`, "d.json": `{"n":1}` },
    },
  ];
}

before(async () => {
  root = mkdtempSync(join(tmpdir(), "tributary-escape-"));
  dataDir = join(root, "data");
  mkdirSync(dataDir);
  // a package the service can reach by walking up from its cache, declared by nobody
  mkdirSync(join(root, "node_modules", "leaky"), { recursive: true });
  writeFileSync(join(root, "node_modules", "leaky", "package.json"), `{"name":"leaky","version":"1.0.0","main":"index.js"}`);
  writeFileSync(join(root, "node_modules", "leaky", "index.js"), `module.exports = "LEAKED-FROM-OUTSIDE";`);
  secretPath = join(dataDir, "secret.key");
  secretJson = join(root, "secret.json");
  writeFileSync(secretJson, `{"leaked":"LEAKED-JSON"}`);
  registry = await startRegistry(pkgs(secretPath, secretJson));
  t = await startApp({ TRIBUTARY_DATA_DIR: dataDir, TRIBUTARY_NPM_REGISTRY: registry.url, TRIBUTARY_FETCH_ALLOW: registry.hostPort });
});
after(async () => {
  await t.close();
  await registry.close();
  rmSync(root, { recursive: true, force: true });
});

async function save(code: string) {
  return t.request("POST", "/v1/components", { body: { component_code: code } });
}

function assertRefused(res: Awaited<ReturnType<typeof save>>, names: RegExp): void {
  assertErrorEnvelope(res, 422, "invalid_component");
  assert.match(res.body.error.message, names);
  const secret = readFileSync(secretPath, "utf8").trim();
  assert.ok(!res.text.includes(secret), "the secret key is not in the answer");
  assert.ok(!res.text.includes("LEAKED"), "no outside file is in the answer");
}

describe("a bundle holds only the resolved packages' own files", () => {
  it("the data dir's secret key exists (what the attacks aim at)", () => {
    assert.ok(existsSync(secretPath));
  });

  it("a component's package subpath climbing out of the package is refused, naming the import", async () => {
    const spec = `plain/${UP}${secretPath.slice(1)}`;
    assertRefused(await save(`import k from ${JSON.stringify(spec)} with { type: "text" }; export default { run() { this.$emit(k) } }`), /cannot import "plain\/\.\.\/.*" with \{ type: "text" \}/);
    assertRefused(await save(`const k = require(${JSON.stringify(`plain/${UP}${secretJson.slice(1)}`)}); module.exports = { run() { this.$emit(k) } }`), /cannot import "plain\/\.\.\/.*": .*"\.\."/);
    assertRefused(await save(`import k from "plain@1.0.0/./../plain/index.js"; export default { run() { this.$emit(k) } }`), /cannot import "plain@1\.0\.0\/\.\/\.\.\/plain\/index\.js"/);
  });

  it("import attributes other than json are refused, in the component and in packages", async () => {
    assertRefused(await save(`import k from "plain/notes.txt" with { type: "text" }; export default { run() { this.$emit(k) } }`), /"plain\/notes\.txt".*type: "text"/);
    assertRefused(await save(`import t from "own-text"; export default { run() { this.$emit(t) } }`), /"\.\/notes\.txt" with \{ type: "text" \}.*own-text/);
    assertRefused(await save(`import k from "plain/data.json" with { type: "json", other: "x" }; export default { run() { this.$emit(k) } }`), /other: "x"/);
  });

  it("a package importing an absolute path, climbing out with a relative one, or naming a main outside itself is refused", async () => {
    assertRefused(await save(`import s from "abs-text"; export default { run() { this.$emit(s) } }`), /abs-text/);
    assertRefused(await save(`import s from "abs-require"; export default { run() { this.$emit(s) } }`), /abs-require.*outside/);
    assertRefused(await save(`import s from "climb"; export default { run() { this.$emit(s) } }`), /climb.*outside/);
    assertRefused(await save(`import s from "bad-main"; export default { run() { this.$emit(s) } }`), /bad-main/);
    assertRefused(await save(`import s from "proc-env"; export default { run() { this.$emit(s) } }`), /proc-env/);
  });

  it("a computed path (esbuild's glob of the disk, which reaches no plugin hook) is refused without naming host files", async () => {
    const own = await save(`const dir = "etc"; module.exports = { run() { this.$emit(require("../" + dir + "/hostname")) } }`);
    assertRefused(own, /computed path/);
    assert.ok(!own.text.includes("/etc/"), own.text);
    const inPackage = await save(`import s from "glob-climb"; export default { run() { this.$emit(s) } }`);
    assertRefused(inPackage, /outside the packages installed for this component \(glob-climb\/index\.js/);
    assert.ok(!inPackage.text.includes("/etc/"), inPackage.text);
  });

  it("a package's own computed path inside itself (a locale folder) still bundles", async () => {
    const source = await createSource(t, `import g from "glob-own"; export default { run() { this.$emit(g) } }`);
    assert.equal((await t.request("POST", `/v1/sources/${source.id}/run`)).status, 202);
    const [e] = await waitEvents(t, source.id, 1);
    assert.deepEqual(e.event, { locale: "a" });
  });

  it("a package requiring a package nobody declared never reaches node_modules folders above the cache", async () => {
    assertRefused(await save(`import s from "undeclared"; export default { run() { this.$emit(s) } }`), /cannot import "leaky".*undeclared/);
  });

  it("the saved components hold nothing of the host's files", async () => {
    const list = await t.request("GET", "/v1/users/me/components?limit=100");
    assert.ok(!list.text.includes("LEAKED"));
    assert.ok(!list.text.includes(readFileSync(secretPath, "utf8").trim()));
  });

  it("JSON inside a package, with or without `type: \"json\"`, and a dependency's files still bundle and run", async () => {
    const source = await createSource(t, `import g from "good-json"; import pd from "plain/data.json"; export default { run() { this.$emit({ g, pd }) } }`);
    assert.equal((await t.request("POST", `/v1/sources/${source.id}/run`)).status, 202);
    const [e] = await waitEvents(t, source.id, 1);
    assert.deepEqual(e.event, { g: { d: { n: 1 }, p: "plain", pd: { ok: true } }, pd: { ok: true } });
  });

  it("the bundler (esbuild's process) runs with an empty environment", () => {
    const children = readdirSync("/proc").filter((p) => /^\d+$/.test(p)).filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("--service=") && readFileSync(`/proc/${pid}/stat`, "utf8").split(" ")[3] === String(process.pid);
      } catch {
        return false;
      }
    });
    assert.ok(children.length >= 1, "esbuild's service process is running under this process");
    for (const pid of children) assert.equal(readFileSync(`/proc/${pid}/environ`, "utf8"), "", `esbuild (pid ${pid}) has no environment`);
  });
});

describe("a component's own files (beside component_url)", () => {
  it("a chain of more than 200 files is refused, having fetched no more than that", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 300; i++) files[`/c/f${i}.mjs`] = i === 299 ? `export const n = ${i};` : `export { n } from "./f${i + 1}.mjs";`;
    files["/c/main.mjs"] = `import { n } from "./f0.mjs"; export default { run() { this.$emit(n) } }`;
    const server = await serveFiles(files);
    const app = await startApp({ TRIBUTARY_FETCH_ALLOW: server.hostPort });
    try {
      const res = await app.request("POST", "/v1/components", { body: { component_url: `${server.origin}/c/main.mjs` } });
      assertErrorEnvelope(res, 422, "invalid_component");
      assert.match(res.body.error.message, /more than 200 files/);
      assert.ok(server.hits.length <= 202, `fetched ${server.hits.length}`);
    } finally {
      await app.close();
      await server.close();
    }
  });
});
