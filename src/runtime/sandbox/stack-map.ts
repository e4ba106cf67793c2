import { decode, encode, type SourceMapLine, type SourceMapMappings } from "@jridgewell/sourcemap-codec";

// Code that imports a package or a Node module runs as a bundle (packages/bundler.ts), where the
// user's own lines come after everything they import: a throw on line 4 would read
// `component.mjs:1833:11`. The bundler keeps the part of esbuild's source map that covers the
// user's file, as a last comment line of the bundle (`//# tributaryMap=<first line>;<mappings>`),
// and the runner turns the bundle's positions in an error's stack back into the user's own.
//
// Component code is hostile: anyone can end unbundled code with such a line. All a forged map can
// do is misplace its own code's frames, so the runner only bounds what one costs: a map over
// MAX_MAP_CHARS is ignored, a line's segments are binary-searched, and only the first
// MAX_FRAMES frames of a stack are looked up.

const MARK = "\n//# tributaryMap=";
/** the user's file's part of a map: its segments, a few KiB for a long component */
const MAX_MAP_CHARS = 256 * 1024;
const MAX_FRAMES = 50;
/** a frame's position in the bundle (bundles are ES modules, compiled as component.mjs) */
const FRAME = /\bcomponent\.mjs:(\d+):(\d+)\b/g;

const B64 = new Int8Array(128).fill(-1);
for (const [i, c] of [..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"].entries()) B64[c.charCodeAt(0)] = i;

/**
 * The segments of source `entry` in esbuild's `mappings`, by generated line, in one pass that
 * keeps nothing of the other sources' (a bundle of a large package has a map of megabytes, and
 * this runs on the service's thread at every save).
 */
function entrySegments(mappings: string, entry: number): SourceMapMappings {
  const lines: SourceMapMappings = [[]];
  const seg = [0, 0, 0, 0, 0];
  let fields = 0;
  let value = 0;
  let shift = 0;
  let genCol = 0;
  let src = 0;
  let line = 0;
  let col = 0;
  const endSegment = () => {
    if (fields === 0) return;
    genCol += seg[0]!;
    if (fields >= 4) {
      src += seg[1]!;
      line += seg[2]!;
      col += seg[3]!;
      if (src === entry) lines[lines.length - 1]!.push([genCol, 0, line, col]);
    }
    fields = 0;
  };
  for (let i = 0; i < mappings.length; i++) {
    const c = mappings.charCodeAt(i);
    if (c === 59 /* ; */) {
      endSegment();
      lines.push([]);
      genCol = 0;
      continue;
    }
    if (c === 44 /* , */) {
      endSegment();
      continue;
    }
    const digit = c < 128 ? B64[c]! : -1;
    if (digit < 0) return [];
    value += (digit & 31) * 2 ** shift;
    if (digit & 32) {
      shift += 5;
      continue;
    }
    if (fields < 5) seg[fields++] = value % 2 === 1 ? -(value - 1) / 2 : value / 2;
    value = 0;
    shift = 0;
  }
  endSegment();
  return lines;
}

/**
 * The bundle with its map of the user's file appended. `map` is esbuild's source map (JSON);
 * `entry` the name the user's code was bundled as (its `sources` entry).
 */
export function withLineMap(bundle: string, map: string, entry: string): string {
  const parsed = JSON.parse(map) as { sources?: unknown; mappings?: unknown };
  if (!Array.isArray(parsed.sources) || typeof parsed.mappings !== "string") return bundle;
  const sources = parsed.sources as unknown[];
  let index = sources.indexOf(entry);
  if (index < 0) index = sources.findIndex((s) => typeof s === "string" && s.endsWith(`/${entry}`));
  if (index < 0) return bundle;
  const own = entrySegments(parsed.mappings, index);
  // the user's file is at the bundle's end: the lines before its first segment are left out
  const first = own.findIndex((l) => l.length > 0);
  if (first < 0) return bundle;
  let last = own.length;
  while (last > first && own[last - 1]!.length === 0) last--;
  const text = encode(own.slice(first, last));
  return text.length > MAX_MAP_CHARS ? bundle : `${bundle}${MARK}${first};${text}\n`;
}

/** A bundle's map, decoded: the first generated line it covers (0-based), and its lines. */
export interface LineMap {
  first: number;
  lines: SourceMapMappings;
}

/** The map `code` ends with, or null (no map, or one too large to be the bundler's). */
export function lineMapOf(code: string): LineMap | null {
  const at = code.lastIndexOf(MARK);
  if (at < 0 || code.length - at > MAX_MAP_CHARS + 32) return null;
  const text = code.slice(at + MARK.length).trimEnd();
  const sep = text.indexOf(";");
  const first = Number(text.slice(0, sep));
  if (sep < 0 || !Number.isSafeInteger(first) || first < 0) return null;
  try {
    return { first, lines: decode(text.slice(sep + 1)) };
  } catch {
    return null;
  }
}

/** The user's line and column (1-based) of a bundle position, if the map covers it. */
function original(map: LineMap, line: number, column: number): [number, number] | undefined {
  const segs: SourceMapLine | undefined = map.lines[line - 1 - map.first];
  if (!segs || segs.length === 0) return undefined;
  // the last segment starting at or before the column (segments are in column order)
  let lo = 0;
  let hi = segs.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (segs[mid]![0] <= column - 1) lo = mid;
    else hi = mid - 1;
  }
  const seg = segs[lo]!;
  if (seg.length < 4) return undefined;
  return [seg[2]! + 1, seg[3]! + 1];
}

/** `stack` with its first frames in the bundle pointing at the user's own lines. */
export function mapStack(stack: string, map: LineMap | null): string {
  if (!map || !stack.includes("component.mjs:")) return stack;
  let frames = 0;
  return stack.replace(FRAME, (frame, line: string, column: string) => {
    if (++frames > MAX_FRAMES) return frame;
    const at = original(map, Number(line), Number(column));
    return at ? `component.mjs:${at[0]}:${at[1]}` : frame;
  });
}

// the sandbox's own frames (isolate/*.js, loaded as tributary:<name>.js): how the run was called,
// which says nothing about the user's code. One line at a time ([ \t], never across lines).
const RUNTIME_FRAME = /\n[ \t]+at (?:[^\n(]*\()?tributary:[\w./-]+:\d+:\d+\)?(?=\n|$)/g;

/** `stack` without the sandbox's own frames. */
export function withoutRuntimeFrames(stack: string): string {
  return stack.includes("tributary:") ? stack.replace(RUNTIME_FRAME, "") : stack;
}
