// Nesting depth of JSON, bounded at the edges (HTTP bodies, emits, db, respond bodies): V8 parses
// any depth, but JSON.stringify, structured clone and IPC recurse and throw a RangeError past a
// few thousand levels, far from where the value came in. Values deeper than this are refused
// where they enter, with an error that names the limit.
export const MAX_JSON_DEPTH = 256;

/**
 * Whether JSON text nests arrays/objects deeper than `max`. One pass over the characters, no
 * parse, no recursion: cheap enough to run on every body before it is parsed.
 */
export function jsonTooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  // Fast path: a text with fewer brackets than the limit can't nest past it.
  if (text.length <= max) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > max) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      depth--;
    }
  }
  return false;
}

/** The same bound for a value already parsed (iterative: a deep value can't overflow the check). */
export function valueTooDeep(value: unknown, max = MAX_JSON_DEPTH): boolean {
  if (typeof value !== "object" || value === null) return false;
  const stack: Array<[object, number]> = [[value, 1]];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (depth > max) return true;
    if (seen.has(v)) continue;
    seen.add(v);
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}
