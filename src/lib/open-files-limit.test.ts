import { test } from "node:test";
import assert from "node:assert/strict";
import { openFilesLimit } from "./open-files-limit.ts";

test("openFilesLimit reads the soft limit from a /proc limits table", () => {
  const table = [
    "Limit                     Soft Limit           Hard Limit           Units     ",
    "Max processes             63704                63704                processes ",
    "Max open files            1024                 1048576              files     ",
  ].join("\n");
  assert.equal(openFilesLimit(table), 1024);
  assert.equal(openFilesLimit("Max open files            unlimited            unlimited            files"), undefined);
  assert.equal(openFilesLimit(""), undefined);
});
