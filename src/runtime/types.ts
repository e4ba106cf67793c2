import type { EnvText, HttpResponse, InvokeRequest, InvokeResult } from "./protocol.ts";
import type { ComponentMeta } from "../lib/component-meta.ts";

// What the sandbox reports about a component's module (the store keeps it too, so its types live in lib/)
export type { ComponentMeta, PropDefinition, PropType } from "../lib/component-meta.ts";

/** The host side of the sandbox, as core sees it. */
export interface ComponentAnalyzer {
  /**
   * Evaluates `code` in a fresh isolate inside a runner process and describes its default export.
   * Throws AppError("invalid_component", reason) when the code doesn't compile, has no default
   * export object, imports a module that isn't provided, or times out / runs out of memory while
   * evaluating its top level.
   */
  analyze(code: string): Promise<ComponentMeta>;
  close(): Promise<void>;
}

/** One invocation as core asks for it; the pool decides whether the runner needs the code. */
export type InvokeCall = Omit<InvokeRequest, "type" | "code" | "envVersion"> & {
  code: string;
  /** the owner's environment variables: the request carries their version, a runner asks for the text */
  env?: EnvText;
  /** it consumes durable work (an inbox row, a delivery, a timer tick): a runner death retries it once */
  durable?: boolean;
  /** the source's db as the host knows it now, for a request sent again after a runner death */
  fresh?: () => { db: Record<string, unknown>; dbEpoch: number };
  /** hears `$.respond({immediate: true})` as it happens (the request says `respondNow`) */
  onRespond?: (response: HttpResponse) => void;
};

/** The host side of invocations, as core sees it. Never rejects: failures are error results. */
export interface Invoker {
  invoke(call: InvokeCall): Promise<InvokeResult>;
  close(): Promise<void>;
}

/** Bundles a component with the packages, Node modules and files it imports (at save). */
export interface ComponentBundler {
  /** The module the runner should load, or null when the code needs no bundling. Throws AppError("invalid_component"). */
  bundle(code: string, componentUrl: string | null): Promise<{ code: string; packages: string[] } | null>;
}
