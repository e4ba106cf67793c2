// What the sandbox reports about a component's module after evaluating it (never running
// hooks or run), and what the store keeps with each saved component. Everything here is plain
// JSON: functions are reported by name only. Here, below both runtime/ and store/, so the
// store's port doesn't import the runtime.

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
  /** not shown where props are set (so never required); additionalProps() may change it */
  hidden?: boolean;
  /** shown but not to be set (so never required); additionalProps() may change it */
  disabled?: boolean;
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
  /** dynamic props (docs/writing-components.md, "Dynamic props"): a change of it reloads the props (additionalProps()) */
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
