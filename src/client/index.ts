import createClient, { type Client, type Middleware } from "openapi-fetch";
import type { paths } from "./schema.ts";

// The one typed client of the Tributary API (`tributary/client`), used by the CLI, the
// dashboard and the tests. Paths, parameters, bodies and answers are typed from the service's
// own OpenAPI document (schema.ts, generated). Built on openapi-fetch: a thin fetch wrapper.
//
//   const api = tributaryClient({ url: "http://127.0.0.1:3000", key: process.env.TRIBUTARY_API_KEY });
//   const { data, error } = await api.GET("/v1/users/me");

export type { paths };
export type TributaryClient = Client<paths>;

export interface ClientOptions {
  /** the service root, without /v1 (e.g. http://127.0.0.1:3000) */
  url: string;
  /** an API key (trb_...); sent as a Bearer token */
  key?: string;
  /** a fetch to use instead of the global one */
  fetch?: typeof fetch;
}

export function tributaryClient(opts: ClientOptions): TributaryClient {
  const client = createClient<paths>({ baseUrl: opts.url.replace(/\/+$/, ""), ...(opts.fetch ? { fetch: opts.fetch } : {}) });
  if (opts.key) {
    const auth: Middleware = {
      onRequest({ request }) {
        request.headers.set("authorization", `Bearer ${opts.key}`);
        return request;
      },
    };
    client.use(auth);
  }
  return client;
}
