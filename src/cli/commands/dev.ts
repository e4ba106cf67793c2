import { watch, type FSWatcher } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { api } from "../profile.ts";
import { CliError, colors, errColors, findEndpoint, parseProps, unwrap } from "../output.ts";
import { bundleWithInputs } from "./deploy.ts";
import { tail, text, type Summary } from "./events.ts";

// `tributary dev FILE`: deploy the file as a source, redeploy it on every save of it (or of a
// local file it imports), and print its events, logs and errors live. Ctrl-C deletes the source.

export async function dev(file: string, opts: { prop?: string[]; name?: string; json?: boolean }): Promise<void> {
  const { client } = api();
  const props = parseProps(opts.prop);
  const say = (line: string) => process.stderr.write(errColors.dim(line) + "\n");
  const out = (kind: string, s: Summary) => {
    if (opts.json) process.stdout.write(JSON.stringify({ stream: kind, ...s }) + "\n");
    else {
      const tag = kind === "event" ? colors.green("event") : kind === "log" ? colors.cyan("log  ") : colors.red("error");
      process.stdout.write(`${tag} ${text(s)}\n`);
    }
  };

  let { code, inputs } = await bundleWithInputs(file);
  const created = unwrap(
    await client.POST("/v1/sources/", { body: { component_code: code, configured_props: props, ...(opts.name ? { name: opts.name } : {}) } }),
  ) as { data: { id: string } };
  const id = created.data.id;
  const endpoint = findEndpoint(created.data);
  say(`deployed ${id}${endpoint ? ` (endpoint ${endpoint})` : ""}; watching ${file}; Ctrl-C to stop`);

  const stop = new AbortController();
  const tails = [
    tail("sources", id, undefined, false, (s) => out("event", s), stop.signal),
    tail("sources", id, "$logs", false, (s) => out("log", s), stop.signal),
    tail("sources", id, "$errors", false, (s) => out("error", s), stop.signal),
  ];

  let watchers: FSWatcher[] = [];
  let timer: NodeJS.Timeout | undefined;
  let deploying = Promise.resolve();
  const rewatch = () => {
    for (const w of watchers) w.close();
    const wanted = new Set(inputs);
    // watch the directories: editors often replace a file rather than write it in place
    watchers = [...new Set(inputs.map((p) => dirname(p)))].map((dir) =>
      watch(dir, (_event, name) => {
        if (name && wanted.has(resolve(dir, name.toString()))) {
          clearTimeout(timer);
          timer = setTimeout(() => (deploying = deploying.then(redeploy)), 100);
        }
      }),
    );
  };
  const redeploy = async () => {
    try {
      const next = await bundleWithInputs(file);
      if (next.code === code) return;
      ({ code, inputs } = next);
      unwrap(await client.PUT("/v1/sources/{id}", { params: { path: { id } }, body: { component_code: code, configured_props: props } }));
      say(`redeployed ${id} (${basename(file)} changed)`);
      rewatch();
    } catch (err) {
      process.stderr.write(errColors.red(`redeploy failed: ${err instanceof CliError || err instanceof Error ? err.message : String(err)}`) + "\n");
    }
  };
  rewatch();

  await new Promise<void>((resolveStop) => {
    process.once("SIGINT", () => resolveStop());
    process.once("SIGTERM", () => resolveStop());
  });
  for (const w of watchers) w.close();
  clearTimeout(timer);
  stop.abort();
  await Promise.allSettled(tails);
  await deploying;
  const del = await client.DELETE("/v1/sources/{id}", { params: { path: { id } } });
  say(del.response.ok ? `deleted ${id}` : `could not delete ${id}`);
}
