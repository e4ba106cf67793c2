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
  /**
   * ms spent in this object's calls on the runner's thread: a cold start's own cost, where its
   * wall time would count every other start its awaits let run meanwhile
   */
  onThreadMs = 0;

  constructor(sync: boolean) {
    this.sync = sync;
  }

  /** fresh calls for one cold start on the runner's thread, timing their own cost */
  static onThread(): IsolateCalls {
    return new IsolateCalls(true);
  }

  #run<T>(onThread: () => T, pooled: () => Promise<T>): Promise<T> {
    if (!this.sync) return pooled();
    const at = performance.now();
    try {
      return Promise.resolve(onThread());
    } finally {
      this.onThreadMs += performance.now() - at;
    }
  }

  createContext(isolate: ivm.Isolate): Promise<ivm.Context> {
    return this.#run(
      () => isolate.createContextSync(),
      () => isolate.createContext(),
    );
  }

  compileModule(isolate: ivm.Isolate, code: string, opts: ivm.CompileModuleOptions): Promise<ivm.Module> {
    return this.#run(
      () => isolate.compileModuleSync(code, opts),
      () => isolate.compileModule(code, opts),
    );
  }

  compileScript(isolate: ivm.Isolate, code: string, opts: ivm.ScriptInfo): Promise<ivm.Script> {
    return this.#run(
      () => isolate.compileScriptSync(code, opts),
      () => isolate.compileScript(code, opts),
    );
  }

  instantiate(mod: ivm.Module, context: ivm.Context, resolve: Resolver): Promise<void> {
    return this.#run(
      // the sync form takes only a resolver that answers at once: every resolver here does
      () => mod.instantiateSync(context, resolve as (specifier: string, referrer: ivm.Module) => ivm.Module),
      () => mod.instantiate(context, resolve),
    );
  }

  async evaluate(mod: ivm.Module, opts?: ivm.ScriptRunOptions): Promise<void> {
    await this.#run<unknown>(
      () => mod.evaluateSync(opts),
      () => mod.evaluate(opts),
    );
  }

  async runScript(script: ivm.Script, context: ivm.Context, opts: ivm.ScriptRunOptions): Promise<void> {
    await this.#run<unknown>(
      () => script.runSync(context, opts),
      () => script.run(context, opts),
    );
  }

  get(ref: ivm.Reference, name: string): Promise<ivm.Reference> {
    return this.#run(
      () => ref.getSync(name, { reference: true }) as ivm.Reference,
      async () => (await ref.get(name, { reference: true })) as ivm.Reference,
    );
  }

  apply<T>(ref: ivm.Reference, args: unknown[], opts?: ivm.ReferenceApplyOptions): Promise<T> {
    return this.#run(
      () => ref.applySync(undefined, args, opts) as T,
      () => ref.apply(undefined, args, opts) as Promise<T>,
    );
  }

  eval(context: ivm.Context, code: string): Promise<unknown> {
    return this.#run<unknown>(
      () => context.evalSync(code),
      () => context.eval(code),
    );
  }

  evalClosure<T>(context: ivm.Context, code: string, args: unknown[], opts?: ivm.ContextEvalClosureOptions): Promise<T> {
    return this.#run(
      () => context.evalClosureSync(code, args, opts) as T,
      () => context.evalClosure(code, args, opts) as Promise<T>,
    );
  }
}

/** Every call through isolated-vm's thread pool: analysis, and code not (yet) known to be quick. */
export const POOLED = new IsolateCalls(false);
