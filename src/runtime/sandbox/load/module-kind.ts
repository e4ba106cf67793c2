/** CommonJS when it assigns (module.)exports and has no import/export statement. */
export function isCommonJs(code: string): boolean {
  if (!/\b(module\.exports|exports\.[\w$]+)\s*=/.test(code)) return false;
  return !/^\s*(import\s*[\w${*"']|export\b)/m.test(code);
}
