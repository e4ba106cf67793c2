import type { PluginBuild } from "../../lib/esbuild.ts";
import { fetchText } from "../../lib/net/fetch-text.ts";
import { isCommonJs } from "../sandbox/load/module-kind.ts";

// The component's own code as the bundler sees it: the saved module (esbuild's stdin) and the
// files beside its component_url, fetched under the address guard. Packages' relative imports
// resolve on disk, inside their tree (confine.ts).

const FILE_MAX_BYTES = 1024 * 1024;
const FILES_MAX_BYTES = 5 * 1024 * 1024;
const FILES_MAX = 200;
const FETCH_TIMEOUT_MS = 10_000;
const FILES_TOTAL_MS = 60_000;
const REMOTE = "remote";

// The saved module is given to esbuild as stdin, which it names after a (nonexistent) file in
// this folder: component.mjs, or component.cjs for CommonJS code (module.exports = ...), so
// esbuild reads each as what it is.
export const ENTRY_DIR = "/tributary-component";
export const entryName = (code: string) => (isCommonJs(code) ? "component.cjs" : "component.mjs");

/** The component's own code: the saved module, or one of its files beside component_url. */
export function isOwn(args: { importer: string; namespace: string }): boolean {
  return (args.importer.startsWith(`${ENTRY_DIR}/component.`) && args.namespace === "file") || args.namespace === REMOTE;
}

/** The component's own files fetched for one save, and what they have cost so far. */
export class RemoteFiles extends Map<string, string> {
  bytes = 0;
  readonly deadline = Date.now() + FILES_TOTAL_MS;
}

/**
 * Relative imports of the component's own code: files beside component_url, fetched under the
 * guard (1 MiB each, 5 MiB and 200 files in all, within 60 s).
 */
export function ownFiles(b: PluginBuild, url: string | null, remote: RemoteFiles, fetchAllow: readonly string[]): void {
  b.onResolve({ filter: /^\.{0,2}\// }, (args) => {
    if (!isOwn(args)) return undefined;
    const base = args.namespace === REMOTE ? args.importer : url;
    if (!base) throw new Error(`cannot import "${args.path}": relative imports need component_url (the CLI bundles local files itself)`);
    return { path: new URL(args.path, base).href, namespace: REMOTE };
  });
  b.onLoad({ filter: /.*/, namespace: REMOTE }, async (args) => {
    let text = remote.get(args.path);
    if (text === undefined) {
      // a server answering slowly, file after file, must not hold a save (and esbuild) for hours
      if (remote.size >= FILES_MAX) throw new Error(`the component has more than ${FILES_MAX} files`);
      const left = remote.deadline - Date.now();
      if (left <= 0) throw new Error(`the component's files took more than ${FILES_TOTAL_MS / 1000} s to fetch`);
      text = await fetchText(args.path, { timeoutMs: Math.min(FETCH_TIMEOUT_MS, left), maxBytes: FILE_MAX_BYTES, allow: fetchAllow });
      remote.set(args.path, text);
      remote.bytes += Buffer.byteLength(text);
      if (remote.bytes > FILES_MAX_BYTES) throw new Error(`the component's files are over ${FILES_MAX_BYTES / 1048576} MiB in all`);
    }
    return { contents: text, loader: args.path.endsWith(".json") ? "json" : "js" };
  });
}
