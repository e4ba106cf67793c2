// A component's configurable props as the API describes them (GET /v1/components/...), and the
// conversion between configured values and what the form holds (strings, booleans). A workflow
// step's props may also be `{{ … }}` expressions, evaluated before the step runs: with
// `expressions`, text holding one is sent as it is, whatever the prop's type.

export interface PropDef {
  name: string;
  type: string;
  label?: string;
  description?: string;
  app?: string;
  default?: unknown;
  optional?: boolean;
  /** left out of the form (additionalProps() may change it) */
  hidden?: boolean;
  secret?: boolean;
  options?: unknown[];
  min?: number;
  max?: number;
  /** its options come from the component's options() (RemoteSelect) */
  remoteOptions?: boolean;
  /** ...searched by the server */
  useQuery?: boolean;
  /** a change of it reloads the props (use-reloaded-props.ts) */
  reloadProps?: boolean;
  /** an `alert` prop: a note shown in the form, never a value */
  alertType?: string;
  content?: string;
}

/** Props the server fills itself: no input for them. */
export const SERVER_FILLED = new Set(["$.service.db", "$.interface.http", "$.interface.apphook"]);

/** Props that are shown and never sent: Pipedream's display-only `alert`. */
export const isNote = (p: PropDef): boolean => p.type === "alert";

export type FormValue = string | boolean;

/** Text holding a `{{ … }}` expression (as the API tells one). */
export const hasExpression = (v: unknown): v is string => typeof v === "string" && /\{\{[\s\S]*?\}\}/.test(v);

/** Props the API takes an expression for: typed in as text (or chosen from its options), never a reference or a secret. */
export const takesExpression = (p: PropDef): boolean => !p.secret && !["app", "data_store", "boolean", "$.interface.timer"].includes(p.type);

export interface TimerValue {
  mode: "interval" | "cron";
  seconds: string;
  cron: string;
}

export function initialValue(p: PropDef, configured: unknown, expressions = false): FormValue {
  const v = configured ?? p.default;
  if (expressions && takesExpression(p) && hasExpression(v)) return v;
  switch (p.type) {
    case "boolean":
      return v === true;
    case "string":
      return typeof v === "string" && v !== "********" ? v : "";
    case "integer":
      return typeof v === "number" ? String(v) : "";
    case "string[]":
    case "integer[]":
      return Array.isArray(v) ? v.join("\n") : "";
    case "app": {
      const id = (v as { authProvisionId?: string } | undefined)?.authProvisionId;
      return typeof id === "string" ? id : "";
    }
    case "data_store": {
      const id = (v as { dataStoreId?: string } | undefined)?.dataStoreId;
      return typeof id === "string" ? id : "";
    }
    case "$.interface.timer": {
      // the API answers {interval_seconds, cron}; a component's default is written {intervalSeconds}
      const t = (v ?? {}) as { intervalSeconds?: number; interval_seconds?: number; cron?: string | null };
      return JSON.stringify({ mode: t.cron ? "cron" : "interval", seconds: String(t.intervalSeconds ?? t.interval_seconds ?? 60), cron: t.cron ?? "" });
    }
    default:
      return v === undefined ? "" : JSON.stringify(v, null, 2);
  }
}

/** The value to send, or undefined to leave the prop out (empty). Throws on input that can't be one. */
export function toConfigured(p: PropDef, raw: FormValue, expressions = false): unknown {
  if (typeof raw === "boolean") return raw;
  if (expressions && takesExpression(p) && hasExpression(raw)) return raw;
  const text = raw.trim();
  const lines = () => raw.split("\n").map((l) => l.trim()).filter(Boolean);
  switch (p.type) {
    case "string":
      return raw === "" ? undefined : raw;
    case "integer":
      if (text === "") return undefined;
      if (!/^-?\d+$/.test(text)) throw new Error("must be a whole number");
      return Number(text);
    case "string[]":
      return text === "" ? undefined : lines();
    case "integer[]":
      return text === "" ? undefined : lines().map(Number);
    case "app":
      return text === "" ? undefined : { authProvisionId: text };
    case "data_store":
      return text === "" ? undefined : { dataStoreId: text };
    case "$.interface.timer": {
      const t = JSON.parse(raw) as TimerValue;
      return t.mode === "cron" ? { cron: t.cron.trim() } : { intervalSeconds: Number(t.seconds) };
    }
    default:
      if (text === "") return undefined;
      try {
        return JSON.parse(text);
      } catch {
        throw new Error("must be JSON");
      }
  }
}

/** The configured_props to send from the form's values, or the fields that can't be read. */
export function collect(props: PropDef[], values: Record<string, FormValue>, expressions = false): { configured: Record<string, unknown>; errors: Record<string, string> } {
  const configured: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const p of props) {
    if (SERVER_FILLED.has(p.type) || isNote(p) || values[p.name] === undefined) continue;
    try {
      const v = toConfigured(p, values[p.name], expressions);
      if (v !== undefined) configured[p.name] = v;
    } catch (err) {
      errors[p.name] = (err as Error).message;
    }
  }
  return { configured, errors };
}

export const initialValues = (props: PropDef[], configured: Record<string, unknown> = {}, expressions = false): Record<string, FormValue> =>
  Object.fromEntries(props.filter((p) => !SERVER_FILLED.has(p.type)).map((p) => [p.name, initialValue(p, configured[p.name], expressions)]));

/** The values a component's own code is asked with (options(), additionalProps()): what can be read, expressions left out (they are only known in a run). */
export function askable(props: PropDef[], values: Record<string, FormValue>): Record<string, unknown> {
  const { configured } = collect(props, values);
  return Object.fromEntries(Object.entries(configured).filter(([, v]) => !hasExpression(v)));
}
