// The modules a component may import (docs/writing-components.md, "Provided modules"), as ES module source compiled inside
// each isolate. Read once per runner process; the files are plain JS so they are readable as-is.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SANDBOX_DIR } from "../sandbox-dir.ts";

const FILES: Record<string, string> = {
  "@pipedream/platform": "platform.js",
  "@pipedream/types": "types.js",
  axios: "axios.js",
  crypto: "crypto.js",
  querystring: "querystring.js",
  url: "url.js",
  "fast-xml-parser": "fast-xml-parser.js",
  // what node/net.js, tls.js and dns.js are built on (not for components' own use)
  "tributary:sockets": "sockets.js",
};

let sources: Map<string, string> | undefined;

export function providedModuleSource(specifier: string): string | undefined {
  if (!sources) {
    sources = new Map();
    for (const [name, file] of Object.entries(FILES)) {
      sources.set(name, readFileSync(join(SANDBOX_DIR, "provided", file), "utf8"));
    }
  }
  return sources.get(specifier);
}

export function isProvidedModule(specifier: string): boolean {
  return Object.hasOwn(FILES, specifier);
}
