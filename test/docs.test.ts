import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { ERROR_STATUS } from "../src/lib/errors.ts";

// The docs against the code they describe: every setting read in src/config.ts, every metric
// registered in src/http/metrics.ts, every error code of the registry and every top-level CLI
// command is documented, and the docs link only inside the repository. (What the components
// guide's examples do is test/docs-examples.test.ts.)

const ROOT = join(import.meta.dirname, "..");
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");
const DOCS = readdirSync(join(ROOT, "docs"))
  .filter((f) => f.endsWith(".md"))
  .map((f) => `docs/${f}`);

/** `name` in code font somewhere in the page */
const inCode = (page: string, name: string) => new RegExp("`[^`\\n]*\\b" + name.replace(/[$*]/g, "\\$&") + "\\b[^`\\n]*`").test(page);

describe("docs/operations.md", () => {
  const page = read("docs/operations.md");

  it("names every environment variable src/config.ts reads", () => {
    const names = [...new Set([...read("src/config.ts").matchAll(/\be\.([A-Z][A-Z0-9_]*)\b/g)].map((m) => m[1]!))];
    assert.ok(names.length >= 30 && names.includes("PORT") && names.includes("DATABASE_URL"), `read from src/config.ts: ${names.join(", ")}`);
    const missing = names.filter((n) => !inCode(page, n));
    assert.deepEqual(missing, [], "settings read in src/config.ts but not in docs/operations.md");
  });

  it("names every metric src/http/metrics.ts registers", () => {
    const names = [...read("src/http/metrics.ts").matchAll(/\bname:\s*"(tributary_[a-z0-9_]+)"/g)].map((m) => m[1]!);
    assert.ok(names.length >= 10, `metrics found: ${names.join(", ")}`);
    const missing = names.filter((n) => !inCode(page, n));
    assert.deepEqual(missing, [], "metrics registered but not in docs/operations.md");
  });
});

describe("docs/api.md", () => {
  it("has every error code of the registry, with its status", () => {
    const page = read("docs/api.md");
    const problems: string[] = [];
    for (const [code, status] of Object.entries(ERROR_STATUS)) {
      const row = page.split("\n").find((l) => l.startsWith(`| \`${code}\` |`));
      if (!row) problems.push(`${code}: no row in the error table`);
      else if (!row.includes(`| ${status} |`)) problems.push(`${code}: the row doesn't say ${status}`);
    }
    assert.deepEqual(problems, []);
  });
});

describe("docs/cli.md", () => {
  it("describes every top-level command registered in src/cli", () => {
    const page = read("docs/cli.md");
    const commands = [...read("src/cli/main.ts").matchAll(/\bprogram\s*\.command\(\s*"([a-z][a-z-]*)/g)].map((m) => m[1]!);
    assert.ok(commands.includes("deploy") && commands.includes("dev") && commands.includes("users"), `commands found: ${commands.join(", ")}`);
    const missing = commands.filter((c) => !new RegExp(`^#{2,4} .*\\b${c}\\b`, "m").test(page) || !inCode(page, `tributary ${c}`));
    assert.deepEqual(missing, [], "commands without a section and an example (`tributary <command> ...`) in docs/cli.md");
  });
});

describe("the docs stand alone", () => {
  const pages = ["README.md", ...DOCS];

  it("no page points outside the repository", () => {
    for (const p of pages) {
      const text = read(p);
      for (const bad of ["../shared", "/work/"]) assert.ok(!text.includes(bad), `${p} mentions ${bad}`);
    }
  });

  it("README.md links every page of docs/", () => {
    const readme = read("README.md");
    const wanted = ["api", "operations", "cli", "architecture", "writing-components", "dashboard", "several-nodes"].map((n) => `docs/${n}.md`);
    for (const p of new Set([...wanted, ...DOCS])) assert.ok(readme.includes(`](${p})`), `README.md links ${p}`);
  });

  it("relative links lead to files in the repository, and to headings that exist", () => {
    // pages other people are writing now: a link to one is checked once it exists
    const pending = new Set(["docs/dashboard.md", "docs/several-nodes.md"]);
    const slugs = (md: string) =>
      new Set(
        [...md.replace(/```[\s\S]*?```/g, "").matchAll(/^#{1,6} (.+)$/gm)].map((m) =>
          m[1]!.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, "").replace(/ /g, "-"),
        ),
      );
    const problems: string[] = [];
    for (const p of pages) {
      const text = read(p).replace(/```[\s\S]*?```/g, "");
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1]!;
        if (/^[a-z]+:/i.test(target)) continue; // http(s):, mailto:
        const [file, anchor] = target.split("#") as [string, string | undefined];
        const path = file ? relative(ROOT, resolve(ROOT, dirname(p), file)) : p;
        if (path.startsWith("..")) problems.push(`${p}: ${target} leaves the repository`);
        else if (!existsSync(join(ROOT, path))) {
          if (!pending.has(path)) problems.push(`${p}: ${target}: no such file`);
        } else if (anchor && path.endsWith(".md") && !slugs(read(path)).has(anchor)) problems.push(`${p}: ${target}: no such heading`);
      }
    }
    assert.deepEqual(problems, []);
  });
});
