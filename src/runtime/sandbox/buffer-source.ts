// The `buffer` package (what Node's Buffer is in browsers) as one script for the isolate's lazy
// `Buffer` global (isolate/node-globals.js): its CommonJS files wrapped so that evaluating the
// script gives a function returning the package's exports. Read from node_modules once per
// runner, when a component first touches Buffer (runner-process.ts lets runners read these three
// packages and nothing else of node_modules).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { SANDBOX_DIR } from "./sandbox-dir.ts";

/** the packages, by the name `buffer` requires them by */
const PACKAGES = ["base64-js", "ieee754", "buffer"];

let source: string | undefined;

export function bufferSource(): string {
  if (source === undefined) {
    // the runner may run as one bundled file (runner-entry.ts): SANDBOX_DIR, not import.meta.url
    const fromSandbox = createRequire(join(SANDBOX_DIR, "buffer-source.ts"));
    const main = fromSandbox.resolve("buffer/");
    const fromBuffer = createRequire(main);
    const file = (name: string) => (name === "buffer" ? main : fromBuffer.resolve(name));
    const defs = PACKAGES.map((name) => `${JSON.stringify(name)}: function (module, exports, require) {\n${readFileSync(file(name), "utf8")}\n}`);
    source = `(function () {
const defs = {
${defs.join(",\n")}
};
const made = {};
const require = (name) => {
  let m = made[name];
  if (!m) {
    m = made[name] = { exports: {} };
    defs[name](m, m.exports, require);
  }
  return m.exports;
};
return () => require("buffer");
})()
//# sourceURL=node:buffer`;
  }
  return source;
}

/** the package folders a runner must be able to read for it */
export function bufferPackageDirs(): string[] {
  const main = createRequire(join(SANDBOX_DIR, "buffer-source.ts")).resolve("buffer/");
  const fromBuffer = createRequire(main);
  return [dirname(main), ...PACKAGES.filter((n) => n !== "buffer").map((n) => dirname(fromBuffer.resolve(n)))];
}
