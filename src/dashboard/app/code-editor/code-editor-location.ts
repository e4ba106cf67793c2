// Where in the code an API message points. The service bundles code with esbuild, whose messages
// end with the file, a 1-based line and a 0-based column: `syntax error: Unexpected ";"
// (component.mjs:3:15)`. Only the code's own file names count, so a position inside a package the
// code imports isn't put on the user's line 3.

export interface Location {
  /** 1-based */
  line: number;
  /** 0-based, as esbuild counts */
  column: number;
}

const AT_FILE = /\bcomponent\.mjs:(\d+):(\d+)/;
const IN_WORDS = /\bline (\d+)(?:,? column (\d+))?/i;

/** The line (and column) a message names, if it names one. */
export function locationOf(message: string | undefined): Location | undefined {
  if (!message) return undefined;
  const m = AT_FILE.exec(message) ?? IN_WORDS.exec(message);
  if (!m) return undefined;
  const line = Number(m[1]);
  return line >= 1 ? { line, column: Number(m[2] ?? 0) } : undefined;
}

/** The message with its position in words a person counts in: "(line 3, column 16)". */
export function readable(message: string): string {
  return message.replace(/\(component\.mjs:(\d+):(\d+)\)/g, (_, line: string, column: string) => `(line ${line}, column ${Number(column) + 1})`);
}
