// The operations of /v1/openapi.json, as the fuzzer needs them: method, path template, the
// names of path and query parameters, and the body's properties.

export interface Operation {
  method: string;
  /** e.g. /v1/sources/{id} */
  path: string;
  pathParams: string[];
  query: Array<{ name: string; type?: string }>;
  /** the JSON body's property names, when the operation takes one */
  bodyProps?: string[];
  required: string[];
}

interface OpenApiParam {
  in: string;
  name: string;
  schema?: { type?: string };
}

interface OpenApiOp {
  parameters?: OpenApiParam[];
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown>; required?: string[] } }> };
}

export function operationsOf(doc: { paths: Record<string, Record<string, OpenApiOp>> }): Operation[] {
  const out: Operation[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const params = op.parameters ?? [];
      const schema = op.requestBody?.content?.["application/json"]?.schema;
      out.push({
        method: method.toUpperCase(),
        path,
        pathParams: params.filter((p) => p.in === "path").map((p) => p.name),
        query: params.filter((p) => p.in === "query").map((p) => ({ name: p.name, type: p.schema?.type })),
        bodyProps: schema ? Object.keys(schema.properties ?? {}) : undefined,
        required: schema?.required ?? [],
      });
    }
  }
  return out;
}

/** PUT and DELETE change or remove what they name: the fixtures must survive the fuzz. */
export const isDestructive = (op: Operation): boolean =>
  (op.method === "DELETE" && op.path !== "/v1/sources/{id}/events" && op.path !== "/v1/subscriptions") || op.method === "PUT";
