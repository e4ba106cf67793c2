/** CommonJS when it assigns (module.)exports and has no import/export statement. */
export function isCommonJs(code: string): boolean {
  if (!/\b(module\.exports|exports\.[\w$]+)\s*=/.test(code)) return false;
  // Only spaces and tabs before the keyword: `\s*` after a multiline `^` would run on across every
  // following line at each line start, and a component of blank lines took minutes of the main
  // thread (quadratic); this stays linear.
  return !/^[^\S\r\n\u2028\u2029]*(import\s*[\w${*"']|export\b)/m.test(code);
}
