import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { call, poll, type Service } from "./service.ts";
import { classify, type Outcome } from "./outcome.ts";
import { errorText, prepare, withOptionalRetry } from "./prepare.ts";

// The probe's actions (`--actions`): the first three actions of each package (by directory name),
// each run as the one step of a workflow of its own, its code importing the action from its
// package as writing-components.md shows ("Bringing Pipedream's own components"; the service
// installs the package), with the same made-up props and accounts as the sources. Reaching the app's API (ENOTFOUND...) or the step's result
// counts; the step's error and console lines tell which.

const PER_PACKAGE = 3;

export function actionFiles(modules: string, packages: string[]): { pkg: string; file: string }[] {
  const files: { pkg: string; file: string }[] = [];
  for (const pkg of packages) {
    const root = join(modules, "@pipedream", pkg, "actions");
    if (!existsSync(root)) continue;
    const found = readdirSync(root)
      .sort()
      .filter((d) => d !== "common")
      .map((d) => ["mjs", "js"].map((ext) => join(root, d, `${d}.${ext}`)).find(existsSync))
      .filter((f): f is string => f !== undefined);
    for (const file of found.slice(0, PER_PACKAGE)) files.push({ pkg, file });
  }
  return files;
}

export function probeAction(service: Service, pkg: string, file: string, n: number): Promise<Outcome> {
  return withOptionalRetry((suffix, optionalToo) => probeOne(service, pkg, file, `a${n}${suffix}`, optionalToo));
}

async function probeOne(service: Service, pkg: string, file: string, n: string, optionalToo: boolean): Promise<Outcome> {
  const inPackage = file.slice(file.lastIndexOf(`@pipedream/${pkg}/`));
  const stepCode = `import action from ${JSON.stringify(inPackage)};\nexport default action;\n`;
  const manifest = readFileSync(join(file.slice(0, file.lastIndexOf(`@pipedream/${pkg}/`)), `@pipedream/${pkg}`, "package.json"), "utf8");
  const prepared = await prepare(service, pkg, { code: stepCode, manifest }, n, optionalToo);
  if ("kind" in prepared) return prepared;
  const { key, code } = prepared;
  const steps = [{ name: "action", code, props: prepared.configured }];
  const made = await call(service, "POST", "/v1/workflows", key, { name: `probe-${n}`, trigger: { type: "http" }, steps });
  if (made.status !== 200) return classify(pkg, manifest, "deploy", errorText(made.body), []);
  const started = await call(service, "POST", `/v1/workflows/${made.body.data.id}/run`, key, { event: { probe: true } });
  if (started.status !== 202) return { kind: "failed", phase: "trigger", detail: errorText(started.body) };
  const run = await poll(async () => {
    const r = await call(service, "GET", `/v1/runs/${started.body.data.run_id}`, key);
    return r.body?.data?.ended_at_ms ? r.body.data : undefined;
  }, 90_000);
  if (!run) return { kind: "failed", phase: "run", detail: "the run didn't end within 90 s" };
  const step = run.steps?.[0];
  if (run.status !== "failed" || !step?.error) return { kind: "ran", phase: "run", detail: `${run.status}` };
  const logs = (step.logs ?? []).map((l: { msg: string }) => l.msg);
  return classify(pkg, manifest, "run", `${step.error.name}: ${step.error.message}`, logs);
}
