// Runs INSIDE the isolate: a workflow step's props with their `{{ … }}` expressions evaluated
// (docs/writing-workflows.md, Props), in the step's isolate, with `steps` (the results so far) and `process.env` in
// scope. A value that is exactly one expression takes the expression's value, with its type;
// otherwise each expression's value is put into the text. The Function constructor is captured
// here, before any step code could replace it.
import { inspect } from "./inspect.js";
import { resolveProp } from "./this.js";

const FunctionCtor = Function;
const { keys, hasOwn } = Object;
const { stringify } = JSON;
const EXPRESSION = /\{\{([\s\S]*?)\}\}/g;
const WHOLE = /^\s*\{\{([\s\S]*?)\}\}\s*$/;

function evaluate(prop, expr, steps) {
  try {
    return new FunctionCtor("steps", "process", `"use strict";\nreturn (${expr}\n);`)(steps, globalThis.process ?? { env: {} });
  } catch (e) {
    const why = e instanceof Error ? `${e.name}: ${e.message}` : inspect(e);
    const error = new Error(`prop "${prop}": {{${expr.trim()}}} failed: ${why}`);
    error.name = "ExpressionError";
    throw error;
  }
}

function isSecret(defs, name) {
  try {
    return typeof defs === "object" && defs !== null && hasOwn(defs, name) && resolveProp(defs[name]).secret === true;
  } catch {
    return false;
  }
}

const asText = (v) => (typeof v === "string" ? v : v === undefined ? "" : typeof v === "object" && v !== null ? stringify(v) : String(v));

/**
 * The step's prop values with expressions evaluated; throws an ExpressionError naming the prop.
 * A secret prop's value is never code: it is taken as written (a password may hold "{{").
 */
export function evaluateProps(values, steps, defs) {
  if (typeof values !== "object" || values === null) return {};
  const out = {};
  for (const name of keys(values)) {
    const v = values[name];
    if (typeof v !== "string" || !v.includes("{{") || isSecret(defs, name)) {
      out[name] = v;
      continue;
    }
    const whole = WHOLE.exec(v);
    if (whole && !whole[1].includes("}}")) out[name] = evaluate(name, whole[1], steps);
    else out[name] = v.replace(EXPRESSION, (_, expr) => asText(evaluate(name, expr, steps)));
  }
  return out;
}
