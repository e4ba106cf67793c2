// The shape of JSON text, read in one pass over its characters before anything parses it: how
// deep it nests, and whether any one object has more members than a bound. Parsing an 850 KB
// object of 100,000 keys costs a tenth of a second and more; counting its colons costs a few ms.

export type ShapeProblem = { kind: "deep" } | { kind: "wide" };

/**
 * How deep JSON may nest wherever it comes in (HTTP bodies, emits, db, respond bodies): V8 parses
 * any depth, but JSON.stringify, structured clone and IPC recurse and throw a RangeError past a
 * few thousand levels, far from where the value came in.
 */
export const MAX_JSON_DEPTH = 256;

/** Whether JSON text nests arrays/objects deeper than `max`. */
export function jsonTooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  // a text with fewer characters than the limit can't nest past it
  return text.length > max && jsonShapeProblem(text, max, Number.POSITIVE_INFINITY)?.kind === "deep";
}

/**
 * The first way `text` breaks the bounds, or undefined. Text that isn't valid JSON may pass (the
 * parser refuses it next); valid JSON within the bounds always passes.
 */
export function jsonShapeProblem(text: string, maxDepth: number, maxKeys: number): ShapeProblem | undefined {
  // members counted per open object; arrays hold -1 (their elements aren't counted)
  const members: number[] = [];
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
      continue;
    }
    switch (c) {
      case 0x22: // "
        inString = true;
        break;
      case 0x7b: // {
      case 0x5b: // [
        if (members.length >= maxDepth) return { kind: "deep" };
        members.push(c === 0x7b ? 0 : -1);
        break;
      case 0x7d: // }
      case 0x5d: // ]
        members.pop();
        break;
      case 0x3a: {
        // : (one per member of the innermost object)
        const top = members.length - 1;
        if (top >= 0 && members[top] >= 0 && ++members[top] > maxKeys) return { kind: "wide" };
        break;
      }
    }
  }
  return undefined;
}
