// Compiles a component's code in a given isolate/context, links its imports against the provided
// modules and evaluates its top level. Returns a Reference to the component object (the default
// export, or module.exports for CommonJS). Shared by analysis and invocations; the context must
// already have the runtime installed (runtime-modules.ts). The phases are exported for workflows
// (load-workflow.ts), whose steps must all be compiled and linked before any of them evaluates.
import ivm from "isolated-vm";
import { AppError } from "../../../lib/errors.ts";
import { compileCached, compileScriptCached } from "./compile-cache.ts";
import { POOLED, type IsolateCalls } from "./isolate-calls.ts";
import { isProvidedModule, providedModuleSource } from "../provided/index.ts";
import { sandboxError, type Limits } from "../sandbox-errors.ts";
import { isCommonJs } from "./module-kind.ts";

const COMPONENT = "tributary:component";
// Importing the component through a wrapper tells us when its top level has *finished*: a pending
// top-level await makes evaluate() return early, and then `settled` is still uninitialized.
const WRAPPER = `export * as component from "${COMPONENT}";\nexport const settled = true;\n`;

// Provided modules capture the runtime's host object while they evaluate; the component's own
// code has no use for it.
const HIDE_HOST = "delete globalThis.__tributaryHost;";

// The isolate runs the component's CommonJS as-is; `require` serves only provided modules, with
// Node's interop (a module's default export stands for its module.exports).
const CJS_SETUP = `
const mods = Object.create(null);
for (let i = 1; i < arguments.length; i++) {
  const ns = arguments[i];
  mods[$0[i - 1]] = "default" in ns ? ns.default : ns;
}
const module = { exports: {} };
globalThis.module = module;
globalThis.exports = module.exports;
globalThis.require = function require(name) {
  if (name in mods) return mods[name];
  throw new Error('cannot import "' + name + '": not a provided module');
};
return module;
`;

const CJS_EXPORTS = `
const e = $0.exports;
return e && e.__esModule === true && typeof e.default === "object" ? e.default : e;
`;

export { isCommonJs };

function checkSpecifier(specifier: string): void {
  if (/^(\.{1,2}\/|\/)/.test(specifier)) {
    throw new AppError("invalid_component", `cannot import "${specifier}": relative imports need component_url`);
  }
  if (!isProvidedModule(specifier)) {
    throw new AppError("invalid_component", `cannot import "${specifier}": not a provided module`);
  }
}

async function compile<T>(what: () => Promise<T>): Promise<T> {
  try {
    return await what();
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    throw new AppError("invalid_component", `syntax error: ${message}`);
  }
}

async function providedModule(isolate: ivm.Isolate, context: ivm.Context, specifier: string, calls: IsolateCalls): Promise<ivm.Module> {
  const source = providedModuleSource(specifier)!;
  const mod = await compileCached(isolate, `provided:${specifier}`, source, `provided:${specifier}`, calls);
  await calls.instantiate(mod, context, () => {
    throw new Error("provided modules import nothing");
  });
  await calls.evaluate(mod);
  return mod;
}

/** A component's code compiled, its imports checked, nothing of it run yet. */
export type Compiled =
  | { kind: "esm"; module: ivm.Module; specifiers: string[] }
  | { kind: "cjs"; script: ivm.Script; specifiers: string[] };

/** `cacheKey` lets compiling reuse V8's code cache for code seen before; without it nothing is cached. */
export async function compileComponent(isolate: ivm.Isolate, code: string, cacheKey?: string, calls: IsolateCalls = POOLED): Promise<Compiled> {
  if (isCommonJs(code)) {
    const script = await compile(() =>
      cacheKey
        ? compileScriptCached(isolate, cacheKey, code, "component.js", calls)
        : calls.compileScript(isolate, code, { filename: "component.js" }),
    );
    // Only literal require("x") calls can be resolved ahead of time, which is what they are in practice.
    const specifiers = [...new Set([...code.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]))];
    specifiers.forEach(checkSpecifier);
    return { kind: "cjs", script, specifiers };
  }
  const module = await compile(() =>
    cacheKey
      ? compileCached(isolate, cacheKey, code, "component.mjs", calls)
      : calls.compileModule(isolate, code, { filename: "component.mjs" }),
  );
  const specifiers = [...new Set(module.dependencySpecifiers)];
  specifiers.forEach(checkSpecifier);
  return { kind: "esm", module, specifiers };
}

/**
 * Evaluates the provided modules `specifiers` name into `provided` (those already there are
 * shared), then hides the runtime's host object: call it once, after compiling and before
 * evaluating any component code of the context.
 */
export async function linkProvided(
  isolate: ivm.Isolate,
  context: ivm.Context,
  specifiers: Iterable<string>,
  provided: Map<string, ivm.Module>,
  calls: IsolateCalls = POOLED,
): Promise<void> {
  for (const specifier of specifiers) {
    if (!provided.has(specifier)) provided.set(specifier, await providedModule(isolate, context, specifier, calls));
  }
  await calls.eval(context, HIDE_HOST);
}

/** Runs a compiled component's top level; returns its default export (or module.exports). */
export function evaluateComponent(
  isolate: ivm.Isolate,
  context: ivm.Context,
  compiled: Compiled,
  provided: Map<string, ivm.Module>,
  limits: Limits,
  calls: IsolateCalls = POOLED,
): Promise<ivm.Reference> {
  return compiled.kind === "esm"
    ? evaluateModule(isolate, context, compiled.module, provided, limits, calls)
    : evaluateCommonJs(context, compiled.script, provided, limits, calls);
}

/**
 * Compiles, links and evaluates one component; failures become AppError("invalid_component").
 * With `codeHash`, compiling uses V8's code cache (dropped with the code by code-store.ts).
 */
export async function loadComponent(
  isolate: ivm.Isolate,
  context: ivm.Context,
  code: string,
  limits: Limits,
  codeHash?: string,
  calls: IsolateCalls = POOLED,
): Promise<ivm.Reference> {
  try {
    const compiled = await compileComponent(isolate, code, codeHash === undefined ? undefined : `component:${codeHash}`, calls);
    const provided = new Map<string, ivm.Module>();
    await linkProvided(isolate, context, compiled.specifiers, provided, calls);
    return await evaluateComponent(isolate, context, compiled, provided, limits, calls);
  } catch (e) {
    throw sandboxError(e, isolate, limits);
  }
}

async function evaluateModule(
  isolate: ivm.Isolate,
  context: ivm.Context,
  mod: ivm.Module,
  provided: Map<string, ivm.Module>,
  limits: Limits,
  calls: IsolateCalls,
): Promise<ivm.Reference> {
  const wrapper = await calls.compileModule(isolate, WRAPPER, { filename: "tributary-wrapper.mjs" });
  await calls.instantiate(wrapper, context, (specifier) => (specifier === COMPONENT ? mod : provided.get(specifier)!));
  await calls.evaluate(wrapper, { timeout: limits.remaining() });
  const ns = wrapper.namespace.derefInto();
  const settled = await calls.evalClosure(context, "try { return $0.settled === true; } catch { return false; }", [ns]);
  if (settled !== true) {
    throw new AppError("invalid_component", "top-level await never settled while evaluating");
  }
  return calls.evalClosure<ivm.Reference>(context, "return $0.component.default;", [wrapper.namespace.derefInto()], {
    result: { reference: true },
  });
}

async function evaluateCommonJs(
  context: ivm.Context,
  script: ivm.Script,
  provided: Map<string, ivm.Module>,
  limits: Limits,
  calls: IsolateCalls,
): Promise<ivm.Reference> {
  // Every provided module of the context, not only this code's: in a workflow, the last CommonJS
  // step's require is the global one, and it must still serve the earlier steps' lazy requires.
  const specifiers = [...provided.keys()];
  const namespaces = [...provided.values()].map((m) => m.namespace.derefInto());
  const moduleRef = await calls.evalClosure<ivm.Reference>(context, CJS_SETUP, [new ivm.ExternalCopy(specifiers).copyInto(), ...namespaces], {
    result: { reference: true },
  });
  await calls.runScript(script, context, { timeout: limits.remaining() });
  return calls.evalClosure<ivm.Reference>(context, CJS_EXPORTS, [moduleRef.derefInto()], {
    timeout: limits.remaining(),
    result: { reference: true },
  });
}
