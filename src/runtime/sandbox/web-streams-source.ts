// web-streams-polyfill (the WHATWG reference implementation, as a package) as one script for the
// isolate's lazy stream globals (isolate/web-streams.js): evaluating the script gives the
// package's exports. Read from node_modules once per runner, when a component first names one of
// the classes (runner-process.ts lets runners read this package).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { SANDBOX_DIR } from "./sandbox-dir.ts";

let source: string | undefined;

// the runner may run as one bundled file (runner-entry.ts): SANDBOX_DIR, not import.meta.url
const ponyfill = () => createRequire(join(SANDBOX_DIR, "web-streams-source.ts")).resolve("web-streams-polyfill");

export function webStreamsSource(): string {
  // the UMD build: given `module` and `exports`, it fills them and touches no global
  source ??= `(function () {
const module = { exports: {} };
(function (module, exports) {
${readFileSync(ponyfill(), "utf8")}
}).call(undefined, module, module.exports);
return module.exports;
})()
//# sourceURL=node:stream/web`;
  return source;
}

/** the package folder a runner must be able to read for it */
export function webStreamsPackageDir(): string {
  return dirname(dirname(ponyfill()));
}
