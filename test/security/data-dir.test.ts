import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startApp } from "../helpers.ts";

describe("the data directory", () => {
  it("is made readable by its owner alone (secret key, database, package cache)", async () => {
    const root = mkdtempSync(join(tmpdir(), "tributary-datadir-"));
    const dataDir = join(root, "made", "here");
    const t = await startApp({ TRIBUTARY_DATA_DIR: dataDir });
    try {
      assert.equal(statSync(dataDir).mode & 0o777, 0o700);
      assert.equal(statSync(join(dataDir, "secret.key")).mode & 0o777, 0o600);
    } finally {
      await t.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("settings", () => {
  it("secrets are refused as flags (a command line is visible to every user of the machine)", async () => {
    const { resolveConfig } = await import("../../src/config.ts");
    for (const flag of ["--admin-key=x", "--secret-key=00", "--metrics-token=t"]) {
      assert.throws(() => resolveConfig({}, [flag]), /can't be given as a flag/);
    }
    assert.equal(resolveConfig({}, ["--port=4321"]).port, 4321);
  });
});
