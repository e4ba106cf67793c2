import type { Rng } from "./prng.ts";
import { isDestructive, type Operation } from "./ops.ts";
import { FIXTURE_CODE, STEP_CODE, type UserFixtures, type World } from "./world.ts";
import { nastyJson, nastyString, pathSegment, strangeCursor, strangeEventId, strangeId, toWellFormed } from "./values.ts";
import { jsonBody, type Case } from "./wire.ts";

// Requests for the operations of /v1/openapi.json: mostly plausible, with one or a few things
// wrong (a field of the wrong type, an id of another user, a cursor of nothing, no key...), so
// that they reach deep into validation and the core rather than stopping at the first check.

export type Who = "a" | "b" | "admin" | "spare" | "none" | "bad";

export interface Ctx {
  rng: Rng;
  world: World;
}

const userOf = (ctx: Ctx, who: Who): UserFixtures | undefined => (who === "a" ? ctx.world.a : who === "b" ? ctx.world.b : undefined);

export function keyOf(ctx: Ctx, who: Who): string | undefined {
  const w = ctx.world;
  return who === "a" ? w.a.key : who === "b" ? w.b.key : who === "admin" ? w.adminKey : who === "spare" ? w.spare.key : undefined;
}

/**
 * Authorization headers for `who`: the right one, or one of many wrong shapes. Some wrong shapes
 * carry real keys (two Authorization headers: the first counts); `keys` are the ones they use.
 */
export function authHeaders(ctx: Ctx, who: Who, keys: [string, string] = [ctx.world.a.key, ctx.world.b.key]): Array<[string, string]> {
  const { rng } = ctx;
  const key = keyOf(ctx, who);
  if (key) return [["Authorization", rng.chance(0.95) ? `Bearer ${key}` : rng.pick([`bearer ${key}`, `Bearer   ${key}  `, `BEARER ${key}`])]];
  if (who === "none") return [];
  return rng.pick<Array<[string, string]>>([
    [["Authorization", "Bearer"]],
    [["Authorization", "Bearer "]],
    [["Authorization", "Basic YTpi"]],
    [["Authorization", `Bearer ${keys[0]}x`]],
    [["Authorization", `Bearer ${keys[0]}, Bearer ${keys[1]}`]],
    [["Authorization", `Bearer ${keys[0]}`], ["Authorization", `Bearer ${keys[1]}`]],
    [["Authorization", `Bearer ${"k".repeat(8000)}`]],
    [["Authorization", "Bearer trb_\u00ff\u00fe"]],
    [["Authorization", `Bearer ${toWellFormed(nastyString(rng)).replace(/[\r\n]/g, "")}`]],
    [["Authorization", ""]],
  ]);
}

function pickWho(ctx: Ctx, op: Operation): Who {
  // rotating a key is only ever done to the spare user (the others' keys must keep working)
  if (op.path === "/v1/users/me/api_key") return ctx.rng.pick<Who>(["spare", "spare", "none", "bad"]);
  return ctx.rng.weighted<Who>([[10, "a"], [3, "b"], [2, "admin"], [1, "none"], [1, "bad"]]);
}

/** An id for a path or query parameter: mostly real ones (own, another user's), else strange. */
function idFor(ctx: Ctx, op: Operation, param: string, who: Who): string {
  const { rng, world } = ctx;
  const me = userOf(ctx, who);
  const other = who === "b" ? world.a : world.b;
  const mine = (u: UserFixtures | undefined): string[] => {
    if (!u) return [];
    if (op.path.startsWith("/v1/sources")) return Object.values(u.sources);
    if (op.path.startsWith("/v1/workflows")) return [u.workflowId];
    if (op.path.startsWith("/v1/webhooks")) return [u.webhookId];
    if (op.path.startsWith("/v1/users")) return [u.id];
    if (param === "keyOrId") return [u.componentId, "fuzz-listener"];
    if (param === "key") return world.registryKeys;
    return Object.values(u.sources);
  };
  const disposable = me ? (world.disposable.get(me.key) ?? []) : [];
  const throwaway = () => (disposable.length ? rng.pick(disposable) : strangeId(rng));
  const wrongKind = () => rng.pick([world.a.workflowId, world.a.webhookId, world.a.componentId, world.a.id, world.adminId, world.b.sources.http]);
  if (isDestructive(op)) {
    // The fixtures are never changed or removed (the admin may delete anyone, the owner their own):
    // what the fuzz created itself is, instead. Another user's fixtures are fine: that is a 404.
    if (who === "admin") return rng.chance(0.5) ? strangeId(rng) : rng.pick([...(world.disposable.get(world.a.key) ?? []), strangeId(rng)]);
    return rng.weighted<() => string>([
      [6, throwaway],
      [2, () => rng.pick(mine(other))],
      [3, () => strangeId(rng)],
    ])();
  }
  return rng.weighted<() => string>([
    [6, () => rng.pick(mine(me).length ? mine(me) : mine(world.a))],
    [2, () => rng.pick(mine(other))],
    [1, wrongKind],
    [3, () => strangeId(rng)],
  ])();
}

function cursorFor(ctx: Ctx, who: Who, eventish: boolean): string {
  const { rng, world } = ctx;
  const me = userOf(ctx, who) ?? world.a;
  const other = me === world.a ? world.b : world.a;
  return rng.weighted<() => string>([
    [3, () => rng.pick(eventish ? me.eventIds : me.cursors) ?? ""],
    [2, () => rng.pick(eventish ? other.eventIds : other.cursors) ?? ""],
    [1, () => rng.pick(eventish ? me.cursors : me.eventIds) ?? ""],
    [2, () => (eventish ? strangeEventId(rng) : strangeCursor(rng))],
    [1, () => ""],
  ])();
}

function queryValue(ctx: Ctx, op: Operation, name: string, who: Who): string {
  const { rng, world } = ctx;
  const me = userOf(ctx, who) ?? world.a;
  const eventish = op.path.includes("event");
  switch (name) {
    case "limit":
      return rng.pick(["1", "10", "100", "0", "101", "-1", "1.5", "abc", "", "1e2", "99999999999999999999", " 5", "0x10"]);
    case "after":
    case "before":
      return cursorFor(ctx, who, eventish);
    case "start_id":
    case "end_id":
      return cursorFor(ctx, who, true);
    case "expand":
      return rng.pick(["event", "events", "", "EVENT"]);
    case "event_name":
      return rng.pick(["$errors", "$logs", "default", "", "custom", nastyString(rng)]);
    case "emitter_id":
    case "listener_id":
      return rng.pick([...Object.values(me.sources), me.workflowId, me.webhookId, "dc_*", "p_*", world.b.sources.http, strangeId(rng)]);
    case "include":
    case "exclude":
      return rng.pick(["id", "id,name", "configured_props.http", "data", "page_info", ",", "", nastyString(rng), "a,".repeat(2000)]);
    case "url":
      return rng.pick(["http://127.0.0.1:9/fuzz", "http://10.0.0.1/x", "ftp://x", "not a url", "javascript:alert(1)", "http://", "http://[::1]/", nastyString(rng)]);
    default:
      return nastyString(rng);
  }
}

/** A query string: declared parameters with good or bad values, sometimes extras and repeats. */
function queryFor(ctx: Ctx, op: Operation, who: Who): string {
  const { rng } = ctx;
  const parts: string[] = [];
  const enc = (s: string) =>
    rng.weighted<() => string>([
      [8, () => encodeURIComponent(toWellFormed(s))],
      [1, () => s.replace(/[\s#]/g, "+")],
      [1, () => rng.pick(["%", "%zz", "%E0%A4%A", "%00"]) + encodeURIComponent(toWellFormed(s))],
    ])();
  for (const p of op.query) {
    if (!rng.chance(0.5)) continue;
    parts.push(`${p.name}=${enc(queryValue(ctx, op, p.name, who))}`);
    if (rng.chance(0.05)) parts.push(`${p.name}=${enc(queryValue(ctx, op, p.name, who))}`);
  }
  if (rng.chance(0.1)) parts.push(rng.pick(["__proto__[x]=1", "constructor[prototype][x]=1", "a[b][c]=1", "=", "&&", "x", "access_token=abc", `zz=${"z".repeat(5000)}`]));
  return parts.length ? `?${parts.join("&")}` : "";
}

const GARBAGE_CODE = [
  "",
  "export default 1",
  "export default {}",
  "export default { run() {} }",
  "module.exports = {}",
  "export default {",
  "\u0000",
  "import fs from 'fs'; export default { run() {} }",
  "export default { props: { x: { type: 'nope' } }, run() {} }",
  "export default { props: null, run() {} }",
  "export default { props: { http: { type: '$.interface.http', customResponse: 'yes' } }, run() {} }",
];

function fieldValue(ctx: Ctx, field: string, who: Who): unknown {
  const { rng, world } = ctx;
  const me = userOf(ctx, who) ?? world.a;
  switch (field) {
    case "component_code":
      return rng.chance(0.6) ? rng.pick([FIXTURE_CODE.http, FIXTURE_CODE.listener, FIXTURE_CODE.custom, FIXTURE_CODE.props]) : rng.pick(GARBAGE_CODE);
    case "component_url":
      return rng.pick(["http://127.0.0.1:9/c.js", "http://10.0.0.1/c.js", "http://169.254.169.254/latest", "file:///etc/passwd", "ftp://x/c.js", "not a url", ""]);
    case "component_id":
      return rng.pick([me.componentId, world.b.componentId, world.a.componentId, strangeId(rng)]);
    case "key":
      return rng.pick([...world.registryKeys, "nope", "", "fuzz-listener", nastyString(rng)]);
    case "name":
      return rng.chance(0.5) ? `fz ${rng.int(1e6)}` : nastyString(rng);
    case "configured_props":
      if (rng.chance(0.4)) return { label: `fz ${rng.int(1000)}`, ...(rng.chance(0.5) ? { count: 1 + rng.int(10), tags: ["a", "b"], choice: "b" } : {}) };
      return rng.pick<unknown>([
        { label: "x" },
        { label: "x", count: 5, flag: true, tags: ["a"], choice: "a", token: "s3cret" },
        { label: 1 },
        { label: "x", count: 0 },
        { label: "x", count: 11 },
        { label: "x", count: 1.5 },
        { label: "x", tags: "a" },
        { label: "x", tags: [1, null] },
        { label: "x", choice: "c" },
        { label: "x", timer: { intervalSeconds: 0 } },
        { label: "x", timer: { cron: "nope" } },
        { label: "x", timer: { cron: "0 0 31 2 *" } },
        { label: "x", timer: null },
        { label: "x", timer: [] },
        { label: "x", timer: { intervalSeconds: 1e300 } },
        { label: "x", http: { endpoint_url: "x" } },
        { label: "x", db: { x: 1 } },
        { label: "x", unknown: 1 },
        { toString: "x", constructor: 1, hasOwnProperty: null },
        {},
        null,
      ]);
    case "active":
      return rng.pick([true, false, "true", 1, null]);
    case "username":
      return rng.chance(0.6) ? `fz${rng.int(1e9).toString(36)}` : nastyString(rng);
    case "email":
      return rng.chance(0.6) ? `fz${rng.int(1e9).toString(36)}@fuzz.test` : nastyString(rng);
    case "admin":
      return rng.pick([false, false, true, "yes", null]);
    case "steps":
      if (rng.chance(0.4)) return Array.from({ length: 1 + rng.int(3) }, (_, i) => ({ name: `s${i}`, code: STEP_CODE }));
      return rng.pick<unknown>([
        [{ name: "s", code: STEP_CODE }],
        [{ name: "s", code: STEP_CODE }, { name: "t", code: STEP_CODE }],
        [null],
        [1, "x", true, []],
        [{}],
        [{ name: "trigger", code: STEP_CODE }],
        [{ name: "s", code: STEP_CODE }, { name: "s", code: STEP_CODE }],
        [{ name: "1bad", code: STEP_CODE }],
        [{ name: "s", code: "" }],
        [{ name: "s", code: null }],
        [{ name: { toString: 1 }, code: STEP_CODE }],
        [{ name: "s", code: "export default {" }],
        Array.from({ length: 51 }, (_, i) => ({ name: `s${i}`, code: STEP_CODE })),
        [],
        {},
        "steps",
      ]);
    case "trigger":
      if (rng.chance(0.4)) return rng.pick([{ type: "http" }, { type: "none" }, { type: "timer", interval_seconds: 86400 }]);
      return rng.pick<unknown>([
        { type: "http" },
        { type: "none" },
        { type: "timer", interval_seconds: 86400 },
        { type: "timer", cron: "0 0 1 1 *" },
        { type: "timer", interval_seconds: 0 },
        { type: "timer", interval_seconds: "60" },
        { type: "timer", interval_seconds: 1e300 },
        { type: "timer", cron: "nope" },
        { type: "timer", cron: "0 0 31 2 *" },
        { type: "timer" },
        { type: "smtp" },
        { type: null },
        { type: ["http"] },
        null,
        "http",
        [],
      ]);
    case "include":
    case "exclude":
      return rng.pick(["id", "id,name", "", nastyString(rng)]);
    default:
      return nastyString(rng);
  }
}

/** A body each operation accepts, so some requests get through validation and change things. */
function validBody(ctx: Ctx, op: Operation): Record<string, unknown> | undefined {
  const { rng } = ctx;
  const n = rng.int(1e9).toString(36);
  switch (`${op.method} ${op.path}`) {
    case "POST /v1/sources/":
      return rng.pick([{ component_code: FIXTURE_CODE.http }, { component_code: FIXTURE_CODE.listener, name: `fz ${n}` }, { key: "http-new-requests" }, { component_code: FIXTURE_CODE.custom }]);
    case "PUT /v1/sources/{id}":
      return rng.pick([{ name: `fz ${n}` }, { active: false }, { active: true }, { configured_props: {} }, { component_code: FIXTURE_CODE.listener }]);
    case "POST /v1/workflows":
      return { name: `fz ${n}`, steps: [{ name: "s", code: STEP_CODE }], trigger: rng.pick([{ type: "http" }, { type: "none" }, { type: "timer", interval_seconds: 86400 }]) };
    case "PUT /v1/workflows/{id}":
      return rng.pick([{ name: `fz ${n}` }, { active: false }, { steps: [{ name: "t", code: STEP_CODE }] }, { trigger: { type: "none" } }]);
    case "POST /v1/components":
    case "POST /v1/components/registry":
      return { component_code: rng.pick([FIXTURE_CODE.listener, FIXTURE_CODE.http]) };
    case "POST /v1/users":
      return { username: `fz${n}`, email: `fz${n}@fuzz.test` };
    default:
      return undefined;
  }
}

/** JSON text for an operation's body: a valid one (perhaps with one field changed), or plausible fields with some mutated. */
function bodyFor(ctx: Ctx, op: Operation, who: Who): string {
  const { rng } = ctx;
  if (rng.chance(0.08)) return nastyJson(rng);
  const valid = rng.chance(0.35) ? validBody(ctx, op) : undefined;
  if (valid) {
    if (rng.chance(0.5) && op.bodyProps?.length) {
      const f = rng.pick(op.bodyProps);
      return JSON.stringify({ ...valid, [f]: "__NASTY__" }).replace('"__NASTY__"', () => (rng.chance(0.5) ? nastyJson(rng) : JSON.stringify(fieldValue(ctx, f, who))));
    }
    return JSON.stringify(valid);
  }
  const fields = op.bodyProps ?? [];
  const entries: string[] = [];
  for (const f of fields) {
    if (!op.required.includes(f) && !rng.chance(0.45)) continue;
    const value = rng.chance(0.12) ? nastyJson(rng) : JSON.stringify(fieldValue(ctx, f, who));
    entries.push(`${JSON.stringify(f)}:${value}`);
  }
  if (rng.chance(0.1)) entries.push(`${JSON.stringify(toWellFormed(nastyString(rng)))}:${nastyJson(rng)}`);
  if (rng.chance(0.03)) entries.push(`"__proto__":{"admin":true}`);
  return `{${entries.join(",")}}`;
}

const STATIC_PARTS = (path: string) => path.split("/").filter((s) => s && !s.startsWith("{"));

export function operationCase(ctx: Ctx, op: Operation): Case {
  const { rng } = ctx;
  const who = pickWho(ctx, op);
  let path = op.path;
  for (const p of op.pathParams) path = path.replace(`{${p}}`, pathSegment(rng, idFor(ctx, op, p, who)));
  if (rng.chance(0.03)) path = rng.pick([path.toUpperCase(), path + "/", path.replace("/v1/", "/v1//"), path.replace("/v1/", "/v1/./"), path.replace(STATIC_PARTS(op.path)[1] ?? "v1", "%2e%2e")]);
  const target = path + queryFor(ctx, op, who);
  // rotating a key is only ever done to the spare user, also by the wrong shapes that carry keys
  const rotates = op.path === "/v1/users/me/api_key";
  const headers = authHeaders(ctx, who, rotates ? [ctx.world.spare.key, ctx.world.spare.key] : undefined);
  let body: Buffer | undefined;
  // every operation with a body gets one; the others sometimes do too (they should ignore or refuse it)
  if (op.bodyProps || (op.method !== "GET" && rng.chance(0.2)) || rng.chance(0.03)) {
    const b = jsonBody(bodyFor(ctx, op, who));
    headers.push(...b.headers);
    body = b.body;
  }
  return { label: `${op.method} ${op.path}`, method: op.method, target, headers, body, head: false };
}

/** Remembers what a successful create made, so later PUTs and DELETEs have something to change. */
export function learn(ctx: Ctx, c: Case, status: number, body: Buffer): void {
  if (status !== 200 || c.method !== "POST") return;
  const auth = c.headers.find(([n]) => n.toLowerCase() === "authorization")?.[1];
  const key = auth?.replace(/^Bearer\s+/i, "").trim();
  if (!key) return;
  let id: unknown;
  let apiKey: unknown;
  try {
    const parsed = JSON.parse(body.toString("utf8"));
    id = parsed?.data?.id;
    apiKey = parsed?.data?.api_key;
  } catch {
    return;
  }
  if (c.target.startsWith("/v1/users/me/api_key") && key === ctx.world.spare.key && typeof apiKey === "string") {
    ctx.world.spare.key = apiKey;
    return;
  }
  if (typeof id !== "string" || !/^(dc|p|wh)_/.test(id)) return;
  const list = ctx.world.disposable.get(key) ?? [];
  list.push(id);
  if (list.length > 200) list.shift();
  ctx.world.disposable.set(key, list);
}
