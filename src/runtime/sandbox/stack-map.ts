import { decode, encode, type SourceMapMappings } from "@jridgewell/sourcemap-codec";

// Code that imports a package or a Node module runs as a bundle (packages/bundler.ts), where the
// user's own lines come after everything they import: a throw on line 4 would read
// `component.mjs:1833:11`. The bundler keeps the part of esbuild's source map that covers the
// user's file, as a last comment line of the bundle, and the runner turns the bundle's positions
// in an error's stack back into the user's own. Only that file's segments are kept (a few KiB
// for a long component), so the bundle barely grows, and a frame inside a package stays as it is.

const MARK = "\n//# tributaryMap=";
/** a frame's position in the bundle (bundles are ES modules, compiled as component.mjs) */
const FRAME = /\bcomponent\.mjs:(\d+):(\d+)\b/g;

/**
 * The bundle with its map of the user's file appended. `map` is esbuild's source map (JSON);
 * `entry` the name the user's code was bundled as (its `sources` entry).
 */
export function withLineMap(bundle: string, map: string, entry: string): string {
  const parsed = JSON.parse(map) as { sources: string[]; mappings: string };
  const index = parsed.sources.findIndex((s) => s === entry || s.endsWith(`/${entry}`));
  if (index < 0) return bundle;
  const own: SourceMapMappings = decode(parsed.mappings).map((line) =>
    line.filter((seg) => seg.length >= 4 && seg[1] === index).map((seg) => [seg[0], 0, seg[2]!, seg[3]!] as [number, number, number, number]),
  );
  // trailing lines with no segment of the user's file say nothing
  while (own.length > 0 && own[own.length - 1]!.length === 0) own.pop();
  return bundle + MARK + encode(own) + "\n";
}

// Decoded maps of recent codes: a source that throws on every run decodes its map once.
const decoded = new Map<string, SourceMapMappings>();
const DECODED_KEPT = 64;

function mapOf(code: string): SourceMapMappings | undefined {
  const at = code.lastIndexOf(MARK);
  if (at < 0) return undefined;
  const text = code.slice(at + MARK.length).trimEnd();
  let lines = decoded.get(text);
  if (!lines) {
    try {
      lines = decode(text);
    } catch {
      return undefined;
    }
    if (decoded.size >= DECODED_KEPT) decoded.delete(decoded.keys().next().value!);
    decoded.set(text, lines);
  }
  return lines;
}

/** The user's line and column (1-based) of a bundle position, if the map covers it. */
function original(lines: SourceMapMappings, line: number, column: number): [number, number] | undefined {
  const segs = lines[line - 1];
  if (!segs || segs.length === 0) return undefined;
  let best = segs[0]!;
  for (const seg of segs) {
    if (seg[0] <= column - 1) best = seg;
    else break;
  }
  return [best[2]! + 1, best[3]! + 1];
}

// the sandbox's own frames (isolate/*.js, loaded as tributary:<name>.js): how the run was called,
// which says nothing about the user's code
const RUNTIME_FRAME = /\n\s+at (?:[^\n]*\()?tributary:[\w./-]+:\d+:\d+\)?(?=\n|$)/g;

/** `stack` without the sandbox's own frames. */
export function withoutRuntimeFrames(stack: string): string {
  return stack.includes("tributary:") ? stack.replace(RUNTIME_FRAME, "") : stack;
}

/**
 * `stack` with its frames in the bundle pointing at the user's own lines, when `code` is a bundle
 * that carries its map; as it is otherwise.
 */
export function mapStack(stack: string, code: string): string {
  if (!stack || !stack.includes("component.mjs:")) return stack;
  const lines = mapOf(code);
  if (!lines) return stack;
  return stack.replace(FRAME, (frame, line: string, column: string) => {
    const at = original(lines, Number(line), Number(column));
    return at ? `component.mjs:${at[0]}:${at[1]}` : frame;
  });
}
