import type { FastifyReply, FastifyRequest } from "fastify";

// include/exclude (docs/api.md, "Requests and responses"): top-level names of the resource (of each item for lists),
// dotted names one level deeper; include first, then exclude; page_info is never filtered.
// Applied to the serialized payload, so routes keep their fast serializers when unused.

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

function names(raw: unknown): string[] | undefined {
  if (typeof raw !== "string") return undefined;
  const list = raw.split(",").map((s) => s.trim()).filter(Boolean);
  return list.length ? list : undefined;
}

function includeOnly(item: Obj, fields: string[]): Obj {
  const out: Obj = {};
  const whole = new Set<string>();
  for (const f of fields) {
    const [top, sub] = f.split(".", 2);
    // own fields only: include=constructor names no field of the resource
    if (!Object.hasOwn(item, top) || whole.has(top)) continue;
    const value = item[top];
    if (sub === undefined) {
      whole.add(top);
      out[top] = value;
    } else if (isObj(value) && Object.hasOwn(value, sub)) {
      out[top] = { ...(out[top] as Obj | undefined), [sub]: value[sub] };
    }
  }
  return out;
}

function excludeFrom(item: Obj, fields: string[]): Obj {
  const out: Obj = { ...item };
  for (const f of fields) {
    const [top, sub] = f.split(".", 2);
    if (sub === undefined) delete out[top];
    else if (isObj(out[top])) {
      const nested = { ...(out[top] as Obj) };
      delete nested[sub];
      out[top] = nested;
    }
  }
  return out;
}

export function applyFilter(value: unknown, include?: string[], exclude?: string[]): unknown {
  if (Array.isArray(value)) return value.map((v) => applyFilter(v, include, exclude));
  if (!isObj(value)) return value;
  let item = include ? includeOnly(value, include) : value;
  if (exclude) item = excludeFrom(item, exclude);
  return item;
}

export async function filterHook(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  if (typeof payload !== "string" || reply.statusCode >= 300) return payload;
  const query = request.query as Obj;
  const body = isObj(request.body) ? request.body : undefined;
  const include = names(query.include ?? body?.include);
  const exclude = names(query.exclude ?? body?.exclude);
  if (!include && !exclude) return payload;
  const parsed = JSON.parse(payload) as Obj;
  if (!("data" in parsed)) return payload;
  parsed.data = applyFilter(parsed.data, include, exclude);
  return JSON.stringify(parsed);
}
