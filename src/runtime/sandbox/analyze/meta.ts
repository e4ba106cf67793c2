// The describe step runs in the same context as the component, which may have replaced builtins
// (JSON, Array.prototype...) to make it lie. So the runner never trusts its output's shape: it
// rebuilds a ComponentMeta from known fields with checked types before anything reaches core.
import type { ComponentMeta, PropDefinition } from "../../types.ts";

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x) => typeof x === "string") : []);

function prop(raw: unknown): PropDefinition | undefined {
  if (!isObj(raw) || typeof raw.name !== "string" || typeof raw.type !== "string") return undefined;
  const p: PropDefinition = { name: raw.name, type: raw.type };
  if (typeof raw.label === "string") p.label = raw.label;
  if (typeof raw.description === "string") p.description = raw.description;
  if (typeof raw.app === "string") p.app = raw.app;
  if (typeof raw.appProp === "string") p.appProp = raw.appProp;
  if (typeof raw.alertType === "string") p.alertType = raw.alertType;
  if (typeof raw.content === "string") p.content = raw.content;
  if (Array.isArray(raw.eventNames)) p.eventNames = strings(raw.eventNames);
  if (typeof raw.optional === "boolean") p.optional = raw.optional;
  if (typeof raw.secret === "boolean") p.secret = raw.secret;
  if (typeof raw.customResponse === "boolean") p.customResponse = raw.customResponse;
  for (const f of ["hidden", "disabled", "reloadProps", "remoteOptions", "useQuery"] as const) if (typeof raw[f] === "boolean") p[f] = raw[f];
  if (typeof raw.min === "number") p.min = raw.min;
  if (typeof raw.max === "number") p.max = raw.max;
  if (Array.isArray(raw.options)) p.options = raw.options;
  if (raw.default !== undefined) p.default = raw.default;
  return p;
}

function parseJson(json: unknown): unknown {
  try {
    return typeof json === "string" ? JSON.parse(json) : undefined;
  } catch {
    return undefined;
  }
}

export function parseDescribeResult(json: unknown): { ok: true; meta: ComponentMeta } | { ok: false; message: string } {
  const parsed = parseJson(json);
  const m = isObj(parsed) ? parsed.meta : undefined;
  if (!isObj(parsed) || (parsed.ok === true && !isObj(m))) {
    return { ok: false, message: "component could not be described (were builtins replaced?)" };
  }
  if (parsed.ok !== true || !isObj(m)) {
    return { ok: false, message: str(parsed.message) ?? "component could not be described" };
  }

  const props: PropDefinition[] = [];
  const seen = new Set<string>();
  for (const raw of Array.isArray(m.props) ? m.props : []) {
    const p = prop(raw);
    if (p && !seen.has(p.name)) {
      seen.add(p.name);
      props.push(p);
    }
  }
  // Built in reading order (key first), since it ends up in API responses as is.
  const meta: Partial<ComponentMeta> = {};
  for (const f of ["key", "name", "version", "description"] as const) {
    const v = str(m[f]);
    if (v !== undefined) meta[f] = v;
  }
  meta.type = str(m.type) ?? "source";
  meta.props = props;
  if (m.dedupe === "unique" || m.dedupe === "greatest" || m.dedupe === "last") meta.dedupe = m.dedupe;
  meta.hooks = [...new Set(strings(m.hooks).filter((h) => ["deploy", "activate", "deactivate"].includes(h)))];
  meta.methods = [...new Set(strings(m.methods))];
  meta.hasRun = m.hasRun === true;
  return { ok: true, meta: meta as ComponentMeta };
}
