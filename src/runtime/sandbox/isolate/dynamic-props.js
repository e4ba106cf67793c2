// Runs INSIDE the isolate: a props form's questions (docs/writing-components.md, Dynamic props). "options" runs one prop's
// `options()` (its own, or its propDefinition's on the app); "reload" runs `additionalProps()` and
// describes what it returned. Both run with `this` as a run sees it (built by invoke.js), and
// their answer goes back as the invocation's JSON response: what crosses is checked by the runner
// (size, depth) and read again by the host (core/dynamic-props.ts), never trusted.
import { call } from "./host.js";

const { stringify, parse } = JSON;
const { keys, hasOwn, entries } = Object;
const { isArray } = Array;
const { apply } = Reflect;
const bindFn = Function.prototype.bind;
const isObject = (v) => typeof v === "object" && v !== null && !isArray(v);
const SHORTHANDS = ["$.interface.http", "$.interface.timer", "$.service.db", "$.interface.apphook"];
const MAX_OPTIONS = 10_000;

function answer(value) {
  call("respond", 200, {}, "json", stringify(value), false);
}

/**
 * The prop definitions as they stand, as Pipedream passes them to `additionalProps(existingProps)`:
 * the component's own (each a copy, a shorthand as {type}: a component may change them, say
 * `existingProps.x.hidden = true`, and the module's own props must stay as written for the next
 * question) and those it added for the stored configuration (`previous`, described by the host).
 */
function existingProps(component, previous) {
  const existing = {};
  if (isObject(previous)) for (const name of keys(previous)) if (isObject(previous[name])) existing[name] = { ...previous[name] };
  const statics = isObject(component.props) ? component.props : {};
  for (const name of keys(statics)) {
    const p = statics[name];
    existing[name] = typeof p === "string" ? { type: p } : isObject(p) ? { ...p } : p;
  }
  return existing;
}

/** `additionalProps(existing)` with `this`, or {} for a component without it. */
async function additionalDefs(component, self, existing) {
  if (typeof component.additionalProps !== "function") return {};
  const more = await apply(component.additionalProps, self, [existing]);
  if (more === undefined || more === null) return {};
  if (!isObject(more)) throw new TypeError("additionalProps() must return an object of props");
  return more;
}

/** The prop `name`: the component's own, else one additionalProps() adds. */
async function findDef(component, self, name, previous) {
  const defs = isObject(component.props) ? component.props : {};
  if (hasOwn(defs, name)) return defs[name];
  const more = await additionalDefs(component, self, existingProps(component, previous));
  if (hasOwn(more, name)) return more[name];
  throw new Error(`this component has no prop "${name}"`);
}

// `this` of a propDefinition's options() is the app, as a run has it: the app prop of this
// component declared with that very app object (its account's $auth, its methods), else the app
// with no account.
function appThis(component, self, app) {
  const defs = isObject(component.props) ? component.props : {};
  for (const name of keys(defs)) if (defs[name] === app && isObject(self[name])) return self[name];
  const made = { type: "app", app: app.app, $auth: {} };
  const methods = isObject(app.methods) ? app.methods : {};
  for (const m of keys(methods)) if (typeof methods[m] === "function") made[m] = apply(bindFn, methods[m], [made]);
  return made;
}

function option(o, i) {
  if (typeof o === "string") return { label: o, value: o };
  if (typeof o === "number" || typeof o === "boolean") return { label: String(o), value: o };
  if (isObject(o) && hasOwn(o, "value")) {
    const label = o.label === undefined || o.label === null ? (typeof o.value === "string" ? o.value : stringify(o.value)) : String(o.label);
    return { label, value: o.value };
  }
  throw new TypeError(`option ${i} is not a string or a { label, value } object`);
}

async function options(component, self, args) {
  const raw = await findDef(component, self, String(args.prop), args.previous);
  let def = isObject(raw) ? raw : {};
  let thisArg = self;
  let extra = {};
  if (isArray(def.propDefinition)) {
    const [app, defName, more] = def.propDefinition;
    const base = isObject(app) && isObject(app.propDefinitions) ? app.propDefinitions[defName] : undefined;
    if (!isObject(base)) throw new Error(`propDefinition "${String(defName)}" not found on its app`);
    // the prop's own options, if it has any, win over the app's (as its other fields do)
    if (!hasOwn(def, "options")) thisArg = appThis(component, self, app);
    const own = { ...def };
    delete own.propDefinition;
    def = { ...base, ...own };
    // Pipedream's third element: fields for options()' argument, or a function of the configured props
    const fields = typeof more === "function" ? await apply(more, undefined, [isObject(args.configured) ? args.configured : {}]) : more;
    if (isObject(fields)) extra = fields;
  }
  let out = def.options;
  if (typeof out === "function") {
    const prevContext = isObject(args.prevContext) ? args.prevContext : {};
    out = await apply(out, thisArg, [{ ...extra, page: args.page, prevContext, query: args.query }]);
  } else if (!isArray(out)) throw new Error(`prop "${String(args.prop)}" has no options`);
  let context;
  if (isObject(out) && isArray(out.options)) {
    if (isObject(out.context)) context = out.context;
    out = out.options;
  }
  if (!isArray(out)) throw new TypeError("options() must return an array, or { options: [...], context }");
  if (out.length > MAX_OPTIONS) throw new RangeError(`options() returned more than ${MAX_OPTIONS} options`);
  const list = out.map(option);
  answer(context === undefined ? { options: list } : { options: list, context });
}

const clone = (v) => {
  try {
    const s = stringify(v);
    return s === undefined ? undefined : parse(s);
  } catch {
    return undefined;
  }
};

// The fields describe.ts reads of a prop at save (the runner's meta.ts checks them again), so a
// reloaded prop is described as a static one is.
function describe(name, p) {
  if (typeof p === "string") {
    if (!SHORTHANDS.includes(p)) throw new TypeError(`prop "${name}": unknown type "${p}"`);
    return { name, type: p };
  }
  if (!isObject(p)) throw new TypeError(`prop "${name}" must be an object or a type string`);
  if (isArray(p.propDefinition)) {
    const [app, defName] = p.propDefinition;
    const base = isObject(app) && isObject(app.propDefinitions) ? app.propDefinitions[defName] : undefined;
    if (!isObject(base)) throw new Error(`prop "${name}": propDefinition "${String(defName)}" not found`);
    const own = { ...p };
    delete own.propDefinition;
    p = { ...base, ...own };
  }
  if (typeof p.type !== "string") throw new TypeError(`prop "${name}" has no type`);
  const out = { name, type: p.type };
  for (const f of ["label", "description", "app", "appProp", "alertType", "content"]) if (typeof p[f] === "string") out[f] = p[f];
  for (const f of ["optional", "hidden", "disabled", "secret", "customResponse", "reloadProps", "useQuery"]) if (typeof p[f] === "boolean") out[f] = p[f];
  for (const f of ["min", "max"]) if (typeof p[f] === "number") out[f] = p[f];
  if (isArray(p.options)) out.options = clone(p.options);
  else if (typeof p.options === "function") out.remoteOptions = true;
  if (p.default !== undefined) {
    const d = clone(p.default);
    if (d !== undefined) out.default = d;
  }
  return out;
}

async function reload(component, self, args) {
  const existing = existingProps(component, isObject(args) ? args.previous : undefined);
  const more = await additionalDefs(component, self, existing);
  const statics = isObject(component.props) ? component.props : {};
  const props = [];
  // a static prop keeps its definition: additionalProps() adds, never replaces...
  for (const [name, p] of entries(more)) if (!hasOwn(statics, name)) props.push(describe(name, p));
  // ...but what it changed of one in place (hidden, optional...) is described for the host to take
  const changed = [];
  for (const name of keys(statics)) if (isObject(existing[name])) changed.push(describe(name, existing[name]));
  answer({ props, statics: changed });
}

const MAX_EVENT_NAMES = 1000;

/**
 * The event names of apphook prop `args.prop`: its `eventNames()` run with `this` as a run sees
 * it (Slack's sources name the channels configured), or its list as it is.
 */
async function eventNames(component, self, args) {
  const def = await findDef(component, self, String(isObject(args) ? args.prop : ""), undefined);
  if (!isObject(def)) throw new TypeError("the prop is not an apphook");
  const names = typeof def.eventNames === "function" ? await apply(def.eventNames, self, []) : def.eventNames;
  if (!isArray(names) || names.length > MAX_EVENT_NAMES || !names.every((n) => typeof n === "string")) {
    throw new TypeError(`eventNames() must give an array of at most ${MAX_EVENT_NAMES} strings`);
  }
  answer({ eventNames: names });
}

/** Runs a props form's question for `kind` ("options", "reload" or "eventNames"); the answer is the response. */
export function propsQuestion(component, kind, args, self) {
  if (kind === "options") return options(component, self, isObject(args) ? args : {});
  if (kind === "eventNames") return eventNames(component, self, args);
  return reload(component, self, args);
}
