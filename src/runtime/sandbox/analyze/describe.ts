// The describe step runs INSIDE the isolate: reading a component's fields can run its getters and
// proxies, so it must happen under the isolate's timeout and memory limit, never in the runner's
// heap. The function is shipped as source via `toString()`, which is why it must not reference
// anything outside its own body (Node's type stripping leaves valid JS behind).
//
// Result: a JSON string, `{"ok":true,"meta":{...}}` or `{"ok":false,"message":"..."}`.

export function describeComponent(component: unknown): string {
  const SHORTHANDS = ["$.interface.http", "$.interface.timer", "$.service.db", "$.interface.apphook"];
  const HOOKS = ["deploy", "activate", "deactivate"];
  const DEDUPE = ["unique", "greatest", "last"];

  const fail = (message: string): string => JSON.stringify({ ok: false, message });
  const isObject = (v: unknown): v is Record<string, any> =>
    typeof v === "object" && v !== null && !Array.isArray(v);
  // Only plain data crosses to the host; anything JSON can't carry (functions, cycles) is dropped.
  const jsonClone = (v: unknown): unknown => {
    try {
      const s = JSON.stringify(v);
      return s === undefined ? undefined : JSON.parse(s);
    } catch {
      return undefined;
    }
  };

  if (!isObject(component)) return fail("no default export object");
  const c = component;
  const meta: Record<string, unknown> = {};
  for (const field of ["key", "name", "version", "description"]) {
    if (typeof c[field] === "string") meta[field] = c[field];
  }
  meta.type = typeof c.type === "string" ? c.type : "source";

  if (c.dedupe !== undefined) {
    if (!DEDUPE.includes(c.dedupe)) return fail('dedupe must be "unique", "greatest" or "last"');
    meta.dedupe = c.dedupe;
  }

  if (c.props !== undefined && !isObject(c.props)) return fail("props must be an object");
  const props: Record<string, unknown>[] = [];
  for (const name of Object.keys(c.props ?? {})) {
    let p = c.props[name];
    if (typeof p === "string") {
      if (!SHORTHANDS.includes(p)) return fail(`prop "${name}": unknown type "${p}"`);
      props.push({ name, type: p });
      continue;
    }
    if (!isObject(p)) return fail(`prop "${name}" must be an object or a type string`);
    // Pipedream's `propDefinition: [app, "defName", ...]` borrows a prop from the app object.
    if (Array.isArray(p.propDefinition)) {
      const [app, defName] = p.propDefinition;
      const def = isObject(app) && isObject(app.propDefinitions) ? app.propDefinitions[defName] : undefined;
      if (!isObject(def)) return fail(`prop "${name}": propDefinition "${String(defName)}" not found`);
      const own = { ...p };
      delete own.propDefinition;
      p = { ...def, ...own };
    }
    if (typeof p.type !== "string") return fail(`prop "${name}" has no type`);
    const out: Record<string, unknown> = { name, type: p.type };
    for (const f of ["label", "description", "app", "appProp", "alertType", "content"]) if (typeof p[f] === "string") out[f] = p[f];
    // an apphook's event names may be computed by a function: only a fixed list is described
    if (Array.isArray(p.eventNames) && p.eventNames.every((e: unknown) => typeof e === "string")) out.eventNames = [...p.eventNames];
    for (const f of ["optional", "hidden", "disabled", "secret", "customResponse", "reloadProps", "useQuery"]) if (typeof p[f] === "boolean") out[f] = p[f];
    for (const f of ["min", "max"]) if (typeof p[f] === "number") out[f] = p[f];
    // `options` may be an async function (dynamic options): only static lists are described.
    if (Array.isArray(p.options)) out.options = jsonClone(p.options);
    // ...and a function is said to be there: the props form asks for its options (docs/writing-components.md, "Dynamic props")
    else if (typeof p.options === "function") out.remoteOptions = true;
    if (p.default !== undefined) {
      const d = jsonClone(p.default);
      if (d !== undefined) out.default = d;
    }
    props.push(out);
  }
  meta.props = props;

  meta.hooks = isObject(c.hooks) ? HOOKS.filter((h) => typeof c.hooks[h] === "function") : [];
  meta.methods = isObject(c.methods) ? Object.keys(c.methods).filter((m) => typeof c.methods[m] === "function") : [];
  meta.hasRun = typeof c.run === "function";
  return JSON.stringify({ ok: true, meta });
}
