import { bundle } from "../../src/cli/commands/deploy.ts";
import { call, type Service } from "./service.ts";
import { fakeAuth, plausibleValue, type PropInfo } from "./plausible.ts";
import { classify, type Outcome } from "./outcome.ts";

// What the probe does before it deploys a component (a source, or an action as a workflow step):
// a user of its own, the component saved (a source's file bundled as `tributary deploy` bundles it), an account with
// fake auth for each app prop, and plausible values for the props (those additionalProps() adds
// included, as the props form asks for them).

export interface Prepared {
  key: string;
  code: string;
  componentId: string;
  props: PropInfo[];
  configured: Record<string, unknown>;
  accounts: Map<string, { id: string; events_url: string }>;
}

/**
 * `what`: a file to bundle (a source), or code as is (a step importing an action from its package,
 * with the package's manifest, whose dependencies tell a retrying client: outcome.ts)
 */
export async function prepare(service: Service, pkg: string, what: { file: string } | { code: string; manifest: string }, n: string, optionalToo: boolean): Promise<Prepared | Outcome> {
  const made = await call(service, "POST", "/v1/users", service.adminKey, { username: `probe${n}`, email: `probe${n}@example.com` });
  if (made.status !== 200) throw new Error(`making a user failed: ${JSON.stringify(made.body)}`);
  const key: string = made.body.data.api_key;
  let code: string;
  try {
    code = "code" in what ? what.code : await bundle(what.file);
  } catch (e) {
    return { kind: "failed", phase: "bundle", detail: (e as Error).message };
  }
  const saved = await call(service, "POST", "/v1/components", key, { component_code: code });
  if (saved.status !== 200) return { kind: "failed", phase: "save", detail: saved.body?.error?.message ?? JSON.stringify(saved.body) };
  const props: PropInfo[] = saved.body.data.configurable_props;
  const accounts = new Map<string, { id: string; events_url: string }>();
  for (const p of props) {
    if (p.type !== "app" || !p.app || accounts.has(p.app)) continue;
    const a = await call(service, "POST", "/v1/accounts", key, { app: p.app, auth: fakeAuth(p.app) });
    accounts.set(p.app, a.body.data);
  }
  const configured: Record<string, unknown> = {};
  const fill = (list: PropInfo[]) => {
    for (const p of list) {
      const v = Object.hasOwn(configured, p.name) ? undefined : plausibleValue(p, (app) => accounts.get(app)?.id, optionalToo);
      if (v !== undefined) configured[p.name] = v;
    }
  };
  fill(props);
  // additionalProps(): the props it adds for these values (twice: an added prop may add more)
  for (let round = 0; round < 2 && props.some((p) => (p as { reloadProps?: boolean }).reloadProps); round++) {
    const reloaded = await call(service, "POST", `/v1/components/${saved.body.data.id}/props/reload`, key, { configured_props: configured });
    if (reloaded.status !== 200) return classify(pkg, "manifest" in what ? what.manifest : code, "props", reloaded.body?.error?.message ?? JSON.stringify(reloaded.body), []);
    fill(reloaded.body.data.configurable_props);
  }
  return { key, code, componentId: saved.body.data.id, props, configured, accounts };
}

/** an API error's message with its field problems */
export function errorText(body: any): string {
  const problems = (body?.error?.details ?? []).map((d: { field: string; message: string }) => `${d.field} ${d.message}`);
  return [body?.error?.message ?? JSON.stringify(body), ...problems].join(": ");
}

/**
 * Deploys with the required props only; when its props, hooks or run fail before it calls out,
 * once more with the optional props filled in too (a component may need one of two optional
 * props, or read an optional one as if it were always there).
 */
export async function withOptionalRetry(attempt: (suffix: string, optionalToo: boolean) => Promise<Outcome>): Promise<Outcome> {
  const first = await attempt("", false);
  if (first.kind !== "failed" || !["deploy", "props", "run"].includes(first.phase)) return first;
  const second = await attempt("b", true);
  if (second.kind === "failed") return { ...first, detail: `${first.detail}; with its optional props too: ${second.detail}` };
  return { ...second, detail: `${second.detail} (with its optional props)` };
}
