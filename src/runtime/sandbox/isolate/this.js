// Runs INSIDE the isolate: `this` of a component's run or hook, built from the component's own prop
// definitions and the values the host resolved (secrets opened, accounts' auth). Sources get it
// with $emit added (invoke.js); workflow steps get it per step (workflow.js).
import { call, callAsync } from "./host.js";
import { inspect } from "./inspect.js";
import { makeHttpRequest } from "./http-request.js";

// captured before any component code runs: a step's package can't replace what builds the next
// step's `this` (with its opened secrets)
const { parse, stringify } = JSON;
const { keys, hasOwn, freeze, entries } = Object;
const { isArray } = Array;
const { apply } = Reflect;
const bindFn = Function.prototype.bind;
const bound = (f, self) => apply(bindFn, f, [self]);
const isObject = (v) => typeof v === "object" && v !== null && !isArray(v);

const db = freeze({
  get(key) {
    const json = call("dbGet", String(key));
    return json === undefined ? undefined : parse(json);
  },
  set(key, value) {
    call("dbSet", String(key), value === undefined ? undefined : stringify(value));
  },
});

/** `immediate`: a workflow's $.respond({immediate: true}), sent before the step commits */
export function respond(r, immediate = false) {
  if (!isObject(r)) throw new TypeError("respond() takes {status, headers?, body?}");
  const status = typeof r.status === "string" && /^\s*\d+\s*$/.test(r.status) ? Number(r.status) : r.status;
  if (!Number.isInteger(status) || status < 200 || status > 599) {
    throw new RangeError(`respond(): status must be an integer from 200 to 599, not ${inspect(r.status)}`);
  }
  const headers = {};
  if (isObject(r.headers)) {
    for (const [k, v] of entries(r.headers)) {
      if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") headers[k] = String(v);
      else if (isArray(v)) headers[k] = v.map(String).join(", ");
    }
  }
  const body = r.body;
  if (body === undefined) return call("respond", status, headers, "none", undefined, immediate);
  if (typeof body === "string") return call("respond", status, headers, "text", body, immediate);
  const json = stringify(body);
  call("respond", status, headers, json === undefined ? "none" : "json", json, immediate);
}

/**
 * A `data_store` prop (docs/writing-workflows.md, Data stores): Pipedream's methods, all async. Values cross as JSON text;
 * the runner keeps the writes (committed with the run's step) and asks the service for the rest.
 */
function makeDataStore(value) {
  const id = isObject(value) && typeof value.dataStoreId === "string" ? value.dataStoreId : undefined;
  // async: whatever goes wrong (a key that isn't a string, a value JSON can't hold) rejects
  const use = async (op, ...args) => {
    if (id === undefined) throw new TypeError('this data_store prop is not configured: give it {"dataStoreId": "ds_..."}');
    // answered at once when the runner can (writes, this run's own values), else read from the service
    const now = call("storeNow", id, op, ...args);
    return now !== null ? now.v : callAsync("store", id, op, ...args);
  };
  const text = (key) => (typeof key === "string" ? key : String(key));
  const pair = ([key, json]) => {
    const value = parse(json);
    const p = [key, value];
    // Pipedream code reads entries as [key, value] pairs or as {key, value}: both work
    p.key = key;
    p.value = value;
    return p;
  };
  const store = {
    type: "data_store",
    async get(key) {
      const json = await use("get", text(key));
      return json === null ? undefined : parse(json);
    },
    async has(key) {
      return use("has", text(key));
    },
    async set(key, value, opts) {
      const ttl = isObject(opts) ? opts.ttl : undefined;
      return use("set", text(key), stringify(value), ttl);
    },
    async delete(key) {
      return use("delete", text(key));
    },
    async setTtl(key, ttl) {
      return use("setTtl", text(key), ttl === undefined ? null : ttl);
    },
    keys: () => use("keys"),
    async entries() {
      return (await use("entries")).map(pair);
    },
    clear: () => use("clear"),
    async *[Symbol.asyncIterator]() {
      for (const e of await store.entries()) yield e;
    },
  };
  if (id !== undefined) store.id = id;
  return freeze(store);
}

export function resolveProp(def) {
  if (typeof def === "string") return { type: def };
  if (!isObject(def)) return {};
  if (isArray(def.propDefinition)) {
    const [app, name] = def.propDefinition;
    const base = isObject(app) && isObject(app.propDefinitions) ? app.propDefinitions[name] : undefined;
    return { ...(isObject(base) ? base : {}), ...def };
  }
  return def;
}

function makeApp(def, auth) {
  const app = { type: "app", app: def.app, $auth: isObject(auth) ? auth : {} };
  const methods = isObject(def.methods) ? def.methods : {};
  for (const name of keys(methods)) {
    if (typeof methods[name] === "function") app[name] = bound(methods[name], app);
  }
  return app;
}

/**
 * `this` of a run: the component's props (values as resolved on the host), then its methods, bound
 * to `self` (a workflow step's is made on its export, so the export's own fields stay reachable).
 */
export function propsThis(component, props, self = {}) {
  const own = isObject(component.props) ? component.props : {};
  // the props additionalProps() added for these values, described by the host (core/added-props.ts)
  const added = isObject(props) && isObject(props.$added) ? props.$added : {};
  const defs = { ...added, ...own };
  for (const name of keys(defs)) {
    const def = resolveProp(defs[name]);
    const value = hasOwn(props, name) ? props[name] : undefined;
    switch (def.type) {
      case "$.service.db":
        self[name] = db;
        break;
      case "$.interface.http":
        // a source's reply goes out when its run ends: nothing it passes makes it immediate
        self[name] = { endpoint: isObject(value) ? value.endpoint : undefined, respond: (r) => respond(r) };
        break;
      case "$.interface.timer":
        self[name] = { type: "$.interface.timer", ...(isObject(value) ? value : isObject(def.default) ? def.default : {}) };
        break;
      case "app":
        self[name] = makeApp(def, value);
        break;
      case "data_store":
        self[name] = makeDataStore(value);
        break;
      case "http_request":
        self[name] = makeHttpRequest(value !== undefined ? value : def.default);
        break;
      default:
        self[name] = value !== undefined ? value : def.default === undefined ? undefined : parse(stringify(def.default));
    }
  }
  const methods = isObject(component.methods) ? component.methods : {};
  for (const name of keys(methods)) {
    if (typeof methods[name] === "function") self[name] = bound(methods[name], self);
  }
  return self;
}
