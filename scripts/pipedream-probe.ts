import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { call, poll, startService, type Service } from "./probe/service.ts";
import { firstRequest, slackRequests, type PropInfo } from "./probe/plausible.ts";
import { errorText, prepare, withOptionalRetry } from "./probe/prepare.ts";
import { actionFiles, probeAction } from "./probe/actions.ts";
import { classify, type Outcome } from "./probe/outcome.ts";

// The Pipedream probe: how many of the sources Pipedream publishes on npm run here.
//
//   node scripts/pipedream-probe.ts [--only=slack,shopify] [--concurrency=3] [--actions]
//
// Installs the 23 `@pipedream/*` packages that hold sources (141 sources) from the npm registry
// into a temp folder, starts the service (src/main.ts) on a temp data dir, and deploys every
// source as a new user would: its file bundled as `tributary deploy` bundles it, its app props
// given connected accounts made by hand with fake tokens, its other required props plausible
// made-up values (scripts/probe/plausible.ts). Then it triggers each once: a timer source is run
// now, an HTTP source gets a request at its endpoint, an apphook source gets an app event at its
// account's events_url (Slack's Events API envelope; a Shopify webhook with its topic). The
// machine's network is closed except for the registry, so a source that works stops at its first
// call to its app's API (ENOTFOUND...): that counts as reaching it, as does running to its result
// without calling out. Anything else (a refused save, a TypeError, a hook that fails before it
// calls out) is a failure, printed with its error. Also counted as reaching it, each marked so in
// the table (scripts/probe/outcome.ts): an error whose run logged the network error, an error a
// component makes of the network error it caught (listed per package, each read in its code), and
// a timeout of a client that retries an unreachable API (@slack/web-api, apify-client). A source
// that fails before it calls out is deployed once more with its optional props filled in too
// (some need one of two optional props). Each source runs as a user of its own, so the day's invocation
// count tells when its run has ended.
//
// The service must reach the registry: here registry.npmjs.org resolves to 203.0.113.80, which
// the address guard refuses, so TRIBUTARY_FETCH_ALLOW defaults to registry.npmjs.org:443 (the
// guard matches the host:port as the URL names it) and 203.0.113.80:443 (set
// PROBE_FETCH_ALLOW to change it). Not a test: it needs the registry and takes ~15 minutes.
//
// --actions probes actions instead: the first three of each of the 27 packages that hold actions,
// each as the one step of a workflow, run once (scripts/probe/actions.ts).

/** the packages that hold sources */
export const PACKAGES = [
  "apify", "aws", "brex", "calendly_v2", "clio", "docusign", "gitlab", "google_drive", "launchdarkly", "linear_app", "microsoft_outlook",
  "monday", "mysql", "notion", "pipedream", "postgresql", "procore", "quickbooks", "ramp", "sftp", "shopify", "slack", "youtube_data_api",
];

/** the packages that hold actions: those, and four without sources */
const ACTION_PACKAGES = [...PACKAGES, "canva", "helper_functions", "linkedin", "notiff_io"].sort();

interface Probed {
  pkg: string;
  source: string;
  outcome: Outcome;
}

function arg(name: string): string | undefined {
  return process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

/** npm installs the packages into a temp folder; their sources: sources/<dir>/<dir>.mjs, not common/ */
/** npm installs the packages into a temp folder: its node_modules */
function installPackages(packages: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), "pipedream-probe-"));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "probe", private: true }));
  process.stdout.write(`installing ${packages.length} packages into ${dir}...\n`);
  execFileSync("npm", ["install", "--ignore-scripts", "--no-audit", "--no-fund", ...packages.map((p) => `@pipedream/${p}`)], { cwd: dir, stdio: "ignore" });
  return join(dir, "node_modules");
}

/** the packages' sources: sources/<dir>/<dir>.mjs, but common/ */
function sourceFiles(modules: string, packages: string[]): { pkg: string; file: string }[] {
  const files: { pkg: string; file: string }[] = [];
  for (const pkg of packages) {
    const root = join(modules, "@pipedream", pkg, "sources");
    if (!existsSync(root)) continue;
    for (const d of readdirSync(root).sort()) {
      if (d === "common") continue;
      const file = ["mjs", "js"].map((ext) => join(root, d, `${d}.${ext}`)).find(existsSync);
      if (file) files.push({ pkg, file });
    }
  }
  return files;
}

async function probeSource(service: Service, pkg: string, file: string, n: number): Promise<Outcome> {
  return withOptionalRetry((suffix, optionalToo) => probeOne(service, pkg, file, `${n}${suffix}`, optionalToo));
}

async function probeOne(service: Service, pkg: string, file: string, n: string, optionalToo: boolean): Promise<Outcome> {
  const prepared = await prepare(service, pkg, { file }, n, optionalToo);
  if ("kind" in prepared) return prepared;
  const { key, code, props, accounts } = prepared;
  const created = await call(service, "POST", "/v1/sources/", key, { component_id: prepared.componentId, configured_props: prepared.configured });
  if (created.status !== 200) return classify(pkg, code, "deploy", errorText(created.body), []);
  const source = created.body.data;
  const before = (await call(service, "GET", "/v1/users/me", key)).body.data.daily_invocations_used as number;
  const triggered = await trigger(service, pkg, key, props, source, accounts);
  if (triggered) return triggered;
  const ended = await poll(async () => {
    const used = (await call(service, "GET", "/v1/users/me", key)).body.data.daily_invocations_used as number;
    return used > before ? true : undefined;
  }, 90_000);
  if (!ended) return { kind: "failed", phase: "run", detail: "no run ended within 90 s" };
  const errors = await events(service, key, source.id, "$errors");
  const runError = errors.find((e) => e.invocation?.kind === "run");
  if (!runError) return { kind: "ran", phase: "run", detail: `${(await events(service, key, source.id, "")).length} emitted` };
  const logs = (await events(service, key, source.id, "$logs")).flatMap((e) => (e.lines ?? []).map((l: { msg: string }) => l.msg));
  return classify(pkg, code, "run", `${runError.error?.name}: ${runError.error?.message}`, logs);
}

/** Runs the source once by what it is; an outcome when the trigger itself failed. */
async function trigger(service: Service, pkg: string, key: string, props: PropInfo[], source: any, accounts: Map<string, { id: string; events_url: string }>): Promise<Outcome | undefined> {
  const hook = props.find((p) => p.type === "$.interface.apphook");
  const http = props.find((p) => p.type === "$.interface.http");
  let res;
  if (hook) {
    const app = props.find((p) => p.name === hook.appProp)?.app ?? "";
    const account = accounts.get(app);
    if (!account) return { kind: "failed", phase: "trigger", detail: `no account for the apphook's app prop ${hook.appProp}` };
    const topic = hook.eventNames?.[0] ?? "event";
    if (app === "slack") {
      for (const request of slackRequests(source.configured_props ?? {})) {
        res = await call(service, "POST", account.events_url, null, request.body, request.headers);
        if (res.status >= 300) break;
      }
    }
    else res = await call(service, "POST", account.events_url, null, { id: 1, probe: true }, { "x-shopify-topic": topic, "x-event-name": topic });
  } else if (http) {
    res = await call(service, "POST", source.configured_props[http.name].endpoint_url, null, firstRequest(pkg));
  } else {
    res = await call(service, "POST", `/v1/sources/${source.id}/run`, key);
  }
  if (!res) return { kind: "failed", phase: "trigger", detail: "nothing was sent" };
  if (res.status >= 300 && !(http && res.status >= 500)) return { kind: "failed", phase: "trigger", detail: `${res.status} ${JSON.stringify(res.body)}` };
  return undefined;
}

async function events(service: Service, key: string, id: string, name: string): Promise<any[]> {
  const res = await call(service, "GET", `/v1/sources/${id}/event_summaries?limit=100&expand=event&event_name=${encodeURIComponent(name)}`, key);
  return (res.body?.data ?? []).map((e: { event: unknown }) => e.event);
}

async function main(): Promise<void> {
  const only = arg("only")?.split(",");
  const concurrency = Number(arg("concurrency") ?? 3);
  const actions = process.argv.includes("--actions");
  const packages = only ?? (actions ? ACTION_PACKAGES : PACKAGES);
  const modules = installPackages(packages);
  const files = actions ? actionFiles(modules, packages) : sourceFiles(modules, packages);
  const service = await startService({ TRIBUTARY_FETCH_ALLOW: process.env.PROBE_FETCH_ALLOW ?? "registry.npmjs.org:443,203.0.113.80:443" });
  const results: Probed[] = [];
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const i = next++;
      const { pkg, file } = files[i]!;
      const source = file.split("/").at(-2)!;
      let outcome: Outcome;
      try {
        outcome = await (actions ? probeAction : probeSource)(service, pkg, file, i);
      } catch (e) {
        outcome = { kind: "failed", phase: "probe", detail: String((e as Error).message ?? e) };
      }
      results.push({ pkg, source, outcome });
      process.stdout.write(`${String(results.length).padStart(3)}/${files.length} ${outcome.kind.padEnd(7)} ${pkg}/${source} (${outcome.phase}) ${outcome.detail.slice(0, 160)}\n`);
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    await service.stop();
  }
  report(results, actions ? "action" : "source");
}

function report(results: Probed[], what: string): void {
  results.sort((a, b) => `${a.pkg}/${a.source}`.localeCompare(`${b.pkg}/${b.source}`));
  process.stdout.write(`\n| package | ${what} | outcome | phase | detail |\n|---|---|---|---|---|\n`);
  for (const r of results) process.stdout.write(`| ${r.pkg} | ${r.source} | ${r.outcome.kind} | ${r.outcome.phase} | ${r.outcome.detail.replaceAll("|", "\\|").replaceAll("\n", " ").slice(0, 200)} |\n`);
  const count = (k: Outcome["kind"]) => results.filter((r) => r.outcome.kind === k).length;
  const ok = count("reached") + count("ran");
  process.stdout.write(`\n${results.length} ${what}s: ${count("reached")} reached their first outbound call, ${count("ran")} ran to their result, ${count("failed")} failed: ${ok} of ${results.length} run\n`);
}

if (import.meta.main) await main();
