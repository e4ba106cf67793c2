// Source of the "querystring" module inside the isolate: the parse/stringify subset of Node's.
function decodePart(s) {
  try {
    return decodeURIComponent(s.replace(/\+/g, " "));
  } catch {
    return s;
  }
}

function encodeValue(v) {
  if (typeof v === "string") return encodeURIComponent(v);
  if (typeof v === "number" && isFinite(v)) return String(v);
  if (typeof v === "bigint" || typeof v === "boolean") return String(v);
  return "";
}

export function parse(str, sep = "&", eq = "=") {
  const out = Object.create(null);
  if (typeof str !== "string" || str === "") return out;
  for (const part of str.split(sep)) {
    if (part === "") continue;
    const i = part.indexOf(eq);
    const key = decodePart(i >= 0 ? part.slice(0, i) : part);
    const value = i >= 0 ? decodePart(part.slice(i + eq.length)) : "";
    if (!(key in out)) out[key] = value;
    else if (Array.isArray(out[key])) out[key].push(value);
    else out[key] = [out[key], value];
  }
  return out;
}

export function stringify(obj, sep = "&", eq = "=") {
  if (obj === null || typeof obj !== "object") return "";
  const parts = [];
  for (const key of Object.keys(obj)) {
    const k = encodeURIComponent(key) + eq;
    const v = obj[key];
    if (Array.isArray(v)) for (const item of v) parts.push(k + encodeValue(item));
    else parts.push(k + encodeValue(v));
  }
  return parts.join(sep);
}

export const decode = parse;
export const encode = stringify;
export const escape = encodeURIComponent;
export const unescape = decodePart;

export default { parse, stringify, decode: parse, encode: stringify, escape, unescape };
