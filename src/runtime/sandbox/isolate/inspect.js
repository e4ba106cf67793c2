// Runs INSIDE the isolate: a small, single-line cousin of Node's util.inspect / util.format, for
// console capture and for describing thrown non-Errors. Never runs getters.
const MAX_ITEMS = 100;
const MAX_DEPTH = 2;
const IDENT = /^[A-Za-z_$][\w$]*$/;

function key(k) {
  return typeof k === "symbol" ? `[${String(k)}]` : IDENT.test(k) ? k : `'${k}'`;
}

function inspectValue(v, depth, seen) {
  switch (typeof v) {
    case "string":
      return depth === 0 ? v : `'${v.replace(/'/g, "\\'")}'`;
    case "number":
      return Object.is(v, -0) ? "-0" : String(v);
    case "bigint":
      return `${v}n`;
    case "function": {
      const kind = /^class\b/.test(Function.prototype.toString.call(v)) ? "class" : "Function";
      return v.name ? `[${kind}: ${v.name}]` : `[${kind} (anonymous)]`;
    }
    case "object":
      if (v === null) return "null";
      return inspectObject(v, depth, seen);
    default:
      return String(v);
  }
}

function inspectObject(v, depth, seen) {
  if (seen.includes(v)) return "[Circular]";
  if (v instanceof Error) {
    const stack = typeof v.stack === "string" ? v.stack : "";
    return stack || `${v.name}: ${v.message}`;
  }
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? "Invalid Date" : v.toISOString();
  if (v instanceof RegExp) return String(v);
  if (typeof v.then === "function" && v instanceof Promise) return "Promise { <pending> }";
  const inner = (x) => inspectValue(x, depth + 1, [...seen, v]);
  const list = (items, open, close, prefix = "") => {
    if (depth >= MAX_DEPTH && items.length) return prefix ? `[${prefix.trim()}]` : open === "[" ? "[Array]" : "[Object]";
    const shown = items.slice(0, MAX_ITEMS);
    if (items.length > MAX_ITEMS) shown.push(`... ${items.length - MAX_ITEMS} more items`);
    return shown.length ? `${prefix}${open} ${shown.join(", ")} ${close}` : `${prefix}${open}${close}`;
  };
  if (Array.isArray(v)) return list(Array.from(v, inner), "[", "]");
  if (ArrayBuffer.isView(v) && !(v instanceof DataView)) {
    return list(Array.from(v, (x) => String(x)), "[", "]", `${v.constructor.name}(${v.length}) `);
  }
  if (v instanceof Map) return list([...v].map(([k, x]) => `${inner(k)} => ${inner(x)}`), "{", "}", `Map(${v.size}) `);
  if (v instanceof Set) return list([...v].map(inner), "{", "}", `Set(${v.size}) `);
  const entries = Reflect.ownKeys(v)
    .filter((k) => Object.getOwnPropertyDescriptor(v, k)?.enumerable)
    .map((k) => {
      const d = Object.getOwnPropertyDescriptor(v, k);
      const value = d.get ? (d.set ? "[Getter/Setter]" : "[Getter]") : inner(d.value);
      return `${key(k)}: ${value}`;
    });
  const name = Object.getPrototypeOf(v) === null ? "[Object: null prototype] " : "";
  const ctor = !name && v.constructor && v.constructor !== Object && typeof v.constructor.name === "string" ? `${v.constructor.name} ` : "";
  return list(entries, "{", "}", name || ctor);
}

export function inspect(v) {
  try {
    return inspectValue(v, typeof v === "string" ? 1 : 0, []);
  } catch {
    return "[uninspectable value]";
  }
}

function str(v) {
  return typeof v === "string" ? v : inspect(v);
}

export function format(args) {
  const out = [];
  let i = 0;
  if (typeof args[0] === "string") {
    i = 1;
    out.push(
      args[0].replace(/%[sdifjoOc%]/g, (m) => {
        if (m === "%%") return "%";
        if (i >= args.length) return m;
        const a = args[i++];
        switch (m[1]) {
          case "s":
            return typeof a === "bigint" ? `${a}n` : str(a);
          case "d":
          case "i": {
            if (typeof a === "bigint") return `${a}n`;
            const n = Number(a);
            return String(m[1] === "i" ? Math.trunc(n) : n);
          }
          case "f":
            return String(parseFloat(a));
          case "j":
            try {
              return JSON.stringify(a);
            } catch {
              return "[Circular]";
            }
          case "c":
            return "";
          default:
            return inspect(a);
        }
      }),
    );
  }
  for (; i < args.length; i++) out.push(str(args[i]));
  return out.join(" ");
}
