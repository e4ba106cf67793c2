import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

// The repository explains itself: a comment in src/ or test/ that points a reader somewhere points
// into docs/ (or says the reason in words), never at a section of a design note, decision list or
// spec that isn't in the repository (a name such as "workflows", "DESIGN" or "api-v1", with or
// without ".md", then a section sign and a number). Comments and strings are both read (a test's
// name is documentation too), and a citation wrapped onto the next comment line counts as well.
// The failure lists every offending line, file:line, so a citation that comes back is easy to find.

const ROOT = join(import.meta.dirname, "..");
const TEXT = /\.(ts|tsx|js|mjs|cjs|css)$/;
const CITATION = /(workflows|decisions|components|extensions|integrations|DESIGN|api-v1)(\.md)?(?: |\n[ \t]*(?:\/\/|\*|#)?[ \t]*)\u00a7/g;

function files(dir: string): string[] {
  return (readdirSync(join(ROOT, dir), { recursive: true, encoding: "utf8" }) as string[])
    .filter((f) => TEXT.test(f) && !f.split(/[\\/]/).includes("node_modules"))
    .map((f) => join(dir, f).replaceAll("\\", "/"))
    .sort();
}

test("src/ and test/ cite no document the repository doesn't have", () => {
  const scanned = [...files("src"), ...files("test")];
  assert.ok(scanned.length > 300 && scanned.includes("test/self-contained.test.ts"), `scanned ${scanned.length} files`);
  const found: string[] = [];
  for (const path of scanned) {
    const text = readFileSync(join(ROOT, path), "utf8");
    const lines = text.split("\n");
    for (const m of text.matchAll(CITATION)) {
      const line = text.slice(0, m.index).split("\n").length;
      found.push(`${path}:${line}: ${lines[line - 1]!.trim()}`);
    }
  }
  assert.equal(
    found.length,
    0,
    `${found.length} line(s) cite a document that is not in the repository; cite a page of docs/ ` +
      `(adding a paragraph to it if none says it) or say the reason in words:\n${found.join("\n")}`,
  );
});
