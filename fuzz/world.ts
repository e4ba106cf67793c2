import type { Target } from "./service.ts";

// What exists before the fuzzing starts, so that generated requests can name real things: users
// with keys, their sources (timer, HTTP, customResponse, a quiet listener), a saved component, a
// workflow with an http trigger, a webhook, cursors and event ids. Made through the API itself.

// Well-behaved fixtures: whatever the request, they don't throw, so any 5xx is the service's own.
export const FIXTURE_CODE = {
  props: `export default {
  key: "fuzz-props", name: "Fuzz Props", version: "0.1.0",
  props: {
    label: { type: "string", label: "Label" },
    count: { type: "integer", optional: true, min: 1, max: 10 },
    flag: { type: "boolean", optional: true },
    tags: { type: "string[]", optional: true },
    choice: { type: "string", optional: true, options: ["a", "b"] },
    token: { type: "string", secret: true, optional: true },
    timer: { type: "$.interface.timer", default: { intervalSeconds: 86400 } },
    db: "$.service.db",
  },
  run() { this.$emit({ label: this.label }); },
};`,
  http: `export default {
  key: "fuzz-http", name: "Fuzz HTTP", version: "0.1.0",
  props: { http: "$.interface.http" },
  run(event) { this.$emit({ method: event.method, path: String(event.path).slice(0, 200), size: String(event.bodyRaw).length }); },
};`,
  custom: `export default {
  key: "fuzz-custom", name: "Fuzz Custom", version: "0.1.0",
  props: { http: { type: "$.interface.http", customResponse: true } },
  run(event) {
    this.http.respond({ status: 200, headers: { "x-fixture": "custom" }, body: { method: event.method, type: typeof event.body } });
  },
};`,
  listener: `export default {
  key: "fuzz-listener", name: "Fuzz Listener", version: "0.1.0",
  props: {},
  run() {},
};`,
};

export const STEP_CODE = "export default { async run({ steps }) { return typeof steps.trigger.event; } };";

export interface UserFixtures {
  id: string;
  key: string;
  sources: { props: string; http: string; custom: string; listener: string };
  /** endpoint keys (the {key} of /http/{key}) of the HTTP source, the custom one and the workflow */
  endpoints: string[];
  componentId: string;
  workflowId: string;
  webhookId: string;
  /** list cursors (resource lists) and event ids this user may use */
  cursors: string[];
  eventIds: string[];
}

export interface World {
  adminKey: string;
  adminId: string;
  a: UserFixtures;
  b: UserFixtures;
  /** a user whose key may be rotated by the fuzz (POST /users/me/api_key); kept current */
  spare: { id: string; key: string };
  registryKeys: string[];
  /** ids of things the fuzz created, per user key: safe to PUT and DELETE */
  disposable: Map<string, string[]>;
}

async function api(target: Target, key: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`http://${target.host}:${target.port}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`fixture ${method} ${path} failed: ${res.status} ${text.slice(0, 500)}`);
  return text ? JSON.parse(text) : undefined;
}

async function userFixtures(target: Target, adminKey: string, username: string): Promise<UserFixtures> {
  const u = (await api(target, adminKey, "POST", "/v1/users", { username, email: `${username}@fuzz.test` })).data;
  const key: string = u.api_key;
  const source = async (code: string, extra: object = {}) =>
    (await api(target, key, "POST", "/v1/sources/", { component_code: code, ...extra })).data;
  const props = await source(FIXTURE_CODE.props, { configured_props: { label: "fixture", count: 3, tags: ["x"] } });
  const http = await source(FIXTURE_CODE.http);
  const custom = await source(FIXTURE_CODE.custom);
  const listener = await source(FIXTURE_CODE.listener);
  const component = (await api(target, key, "POST", "/v1/components", { component_code: FIXTURE_CODE.listener })).data;
  const workflow = (
    await api(target, key, "POST", "/v1/workflows", { name: "fuzz", trigger: { type: "http" }, steps: [{ name: "probe", code: STEP_CODE }] })
  ).data;
  const webhook = (await api(target, key, "POST", `/v1/webhooks?url=${encodeURIComponent("http://127.0.0.1:9/fuzz")}&name=fuzz`)).data;
  const endpoint = (url: string) => new URL(url).pathname.split("/")[2];
  // a couple of events, so event ids and cursors exist
  await api(target, key, "POST", `/v1/sources/${props.id}/run`);
  await fetch(http.configured_props.http.endpoint_url.replace(/^https?:\/\/[^/]+/, `http://${target.host}:${target.port}`), { method: "POST", body: "hi" });
  const eventIds: string[] = [];
  for (let i = 0; i < 100 && eventIds.length === 0; i++) {
    const page = await api(target, key, "GET", `/v1/sources/${props.id}/event_summaries`);
    for (const e of page.data) eventIds.push(e.id);
    if (eventIds.length === 0) await new Promise((r) => setTimeout(r, 50));
  }
  const list = await api(target, key, "GET", "/v1/users/me/sources/?limit=2");
  return {
    id: u.id,
    key,
    sources: { props: props.id, http: http.id, custom: custom.id, listener: listener.id },
    endpoints: [endpoint(http.configured_props.http.endpoint_url), endpoint(custom.configured_props.http.endpoint_url), endpoint(workflow.trigger.endpoint_url)],
    componentId: component.id,
    workflowId: workflow.id,
    webhookId: webhook.id,
    cursors: [list.page_info.start_cursor, list.page_info.end_cursor].filter(Boolean),
    eventIds,
  };
}

export async function buildWorld(target: Target): Promise<World> {
  const me = (await api(target, target.adminKey, "GET", "/v1/users/me")).data;
  const tag = Date.now().toString(36);
  const a = await userFixtures(target, target.adminKey, `fuzza${tag}`);
  const b = await userFixtures(target, target.adminKey, `fuzzb${tag}`);
  const spare = (await api(target, target.adminKey, "POST", "/v1/users", { username: `fuzzc${tag}`, email: `c${tag}@fuzz.test` })).data;
  // a subscription, so deliveries run during the fuzz too
  await api(target, a.key, "POST", `/v1/subscriptions?emitter_id=${a.sources.http}&listener_id=${a.sources.listener}`);
  return {
    adminKey: target.adminKey,
    adminId: me.id,
    a,
    b,
    spare: { id: spare.id, key: spare.api_key },
    registryKeys: ["http-new-requests", "rss-new-item-in-feed", "schedule-custom-interval", "emit-on-subscription"],
    disposable: new Map(),
  };
}
