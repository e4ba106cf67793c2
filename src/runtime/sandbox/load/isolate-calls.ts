// The calls a cold start makes into an isolate (a context, the runtime, the component's modules),
// each made either on the runner's own thread (isolated-vm's ...Sync forms) or handed to its
// thread pool. A cold start is about twenty such calls; through the pool each is two thread hops,
// which doubled what a cold start cost (measured in one process, 300 contexts: 1.8-2.1 ms of CPU
// per context pooled, 0.7-1.3 ms on the runner's thread). The runner's thread is used only for
// code whose entries have proved quick (entry-mode.ts): a synchronous call waits for the isolate's
// lock, so it must not queue behind a sibling context's long entry.
import type ivm from "isolated-vm";

type Resolver = (specifier: string, referrer: ivm.Module) => ivm.Module | Promise<ivm.Module>;

export class IsolateCalls {
  /** true: every call on the runner's thread */
  readonly sync: boolean;

  constructor(sync: boolean) {
    this.sync = sync;
  }

  createContext(isolate: ivm.Isolate): Promise<ivm.Context> {
    return this.sync ? Promise.resolve(isolate.createContextSync()) : isolate.createContext();
  }

  compileModule(isolate: ivm.Isolate, code: string, opts: ivm.CompileModuleOptions): Promise<ivm.Module> {
    return this.sync ? Promise.resolve(isolate.compileModuleSync(code, opts)) : isolate.compileModule(code, opts);
  }

  compileScript(isolate: ivm.Isolate, code: string, opts: ivm.ScriptInfo): Promise<ivm.Script> {
    return this.sync ? Promise.resolve(isolate.compileScriptSync(code, opts)) : isolate.compileScript(code, opts);
  }

  async instantiate(mod: ivm.Module, context: ivm.Context, resolve: Resolver): Promise<void> {
    // the sync form takes only a resolver that answers at once: every resolver here does
    if (this.sync) mod.instantiateSync(context, resolve as (specifier: string, referrer: ivm.Module) => ivm.Module);
    else await mod.instantiate(context, resolve);
  }

  async evaluate(mod: ivm.Module, opts?: ivm.ScriptRunOptions): Promise<void> {
    if (this.sync) mod.evaluateSync(opts);
    else await mod.evaluate(opts);
  }

  async runScript(script: ivm.Script, context: ivm.Context, opts: ivm.ScriptRunOptions): Promise<void> {
    if (this.sync) script.runSync(context, opts);
    else await script.run(context, opts);
  }

  async get(ref: ivm.Reference, name: string): Promise<ivm.Reference> {
    return (this.sync ? ref.getSync(name, { reference: true }) : await ref.get(name, { reference: true })) as ivm.Reference;
  }

  apply<T>(ref: ivm.Reference, args: unknown[], opts?: ivm.ReferenceApplyOptions): Promise<T> {
    return (this.sync ? Promise.resolve(ref.applySync(undefined, args, opts)) : ref.apply(undefined, args, opts)) as Promise<T>;
  }

  eval(context: ivm.Context, code: string): Promise<unknown> {
    return this.sync ? Promise.resolve(context.evalSync(code)) : context.eval(code);
  }

  evalClosure<T>(context: ivm.Context, code: string, args: unknown[], opts?: ivm.ContextEvalClosureOptions): Promise<T> {
    return (this.sync ? Promise.resolve(context.evalClosureSync(code, args, opts)) : context.evalClosure(code, args, opts)) as Promise<T>;
  }
}

/** Every call through isolated-vm's thread pool: analysis, and code not (yet) known to be quick. */
export const POOLED = new IsolateCalls(false);
/** Every call on the runner's thread. */
export const ON_THREAD = new IsolateCalls(true);
