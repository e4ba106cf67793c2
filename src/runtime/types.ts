import type { HttpResponse, InvokeRequest, InvokeResult } from "./protocol.ts";
// What the sandbox reports about a component's module after evaluating it (never running
// hooks or run). Everything here is plain JSON: functions are reported by name only.

export type PropType =
  | "string"
  | "integer"
  | "boolean"
  | "object"
  | "string[]"
  | "integer[]"
  | "app"
  | "$.interface.http"
  | "$.interface.timer"
  | "$.service.db"
  | (string & {});

export interface PropDefinition {
  name: string;
  type: PropType;
  label?: string;
  description?: string;
  optional?: boolean;
  default?: unknown;
  secret?: boolean;
  options?: unknown[];
  min?: number;
  max?: number;
  /** for `app` props: the app name */
  app?: string;
  /** for `$.interface.http` props */
  customResponse?: boolean;
  /** for `$.interface.apphook` props: the app prop it hooks, and the event names (when fixed) */
  appProp?: string;
  eventNames?: string[];
  /** dynamic props (integrations §2): a change of it reloads the props (additionalProps()) */
  reloadProps?: boolean;
  /** its `options` is a function: asked with POST /components/{id}/props/{prop}/options */
  remoteOptions?: boolean;
  /** its options() takes a search `query` */
  useQuery?: boolean;
  /** for `alert` props (shown in the props form, never configured): its kind and its text */
  alertType?: string;
  content?: string;
}

export interface ComponentMeta {
  key?: string;
  name?: string;
  version?: string;
  description?: string;
  /** "source" when absent in the code */
  type: string;
  /** in declaration order; string shorthands expanded to `{name, type}` */
  props: PropDefinition[];
  dedupe?: "unique" | "greatest" | "last";
  /** names of the hooks present: subset of deploy, activate, deactivate */
  hooks: string[];
  methods: string[];
  hasRun: boolean;
}

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
export type InvokeCall = Omit<InvokeRequest, "type" | "code"> & {
  code: string;
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
