import { dirname, resolve } from "node:path";
import { api } from "../profile.ts";
import { CliError, colors, findEndpoint, parseProps, printJson, unwrap, withSpinner } from "../output.ts";

/** The file with its local relative imports inlined; bare imports stay for the server to resolve. */
export async function bundle(file: string): Promise<string> {
  return (await bundleWithInputs(file)).code;
}

/**
 * esbuild heads each inlined file with a `// path/to/file.js` comment, which would hand the
 * server the layout of this machine's disk, and has no option to leave it out short of minifying.
 * Printing the bundle once more through esbuild's transform drops it: the printer keeps no
 * ordinary comments (the bundle kept none of the component's either; legal comments stay), and
 * it knows a comment from a string that looks like one.
 */
export async function stripPathComments(code: string): Promise<string> {
  const { transform } = await import("esbuild");
  return (await transform(code, { loader: "js", format: "esm", logLevel: "silent" })).code;
}

/** the bundle and the local files that went into it (to watch) */
export async function bundleWithInputs(file: string): Promise<{ code: string; inputs: string[] }> {
  const { build } = await import("esbuild");
  const entry = resolve(file);
  // paths esbuild writes into the bundle (CommonJS modules' keys) are relative to the entry's
  // directory, so they name nothing above it
  const root = dirname(entry);
  try {
    const out = await build({
      entryPoints: [entry],
      absWorkingDir: root,
      bundle: true,
      format: "esm",
      platform: "neutral",
      write: false,
      metafile: true,
      logLevel: "silent",
      plugins: [
        {
          name: "bare-imports-external",
          setup(b) {
            b.onResolve({ filter: /^[^./]/ }, (args) => (args.kind === "entry-point" ? undefined : { path: args.path, external: true }));
          },
        },
      ],
    });
    const inputs = Object.keys(out.metafile.inputs);
    // a file that exports nothing bundles to nothing: say so, not what the API says of an empty string
    const exports = out.metafile.outputs[Object.keys(out.metafile.outputs)[0]!]?.exports ?? [];
    if (!exports.includes("default")) {
      throw new CliError(`${file} has no default export`, "a component is `export default { props, run() {...} }` (or `defineComponent({...})`)");
    }
    return { code: await stripPathComments(out.outputFiles[0]!.text), inputs: inputs.map((p) => resolve(root, p)) };
  } catch (err) {
    const e = err as { errors?: { text: string; location?: { file: string; line: number } }[]; message: string };
    const first = e.errors?.[0];
    throw new CliError(first ? `${first.location ? `${first.location.file}:${first.location.line}: ` : ""}${first.text}` : e.message, "fix the component file and try again");
  }
}

interface SourceOut { id: string; name?: string; [k: string]: unknown }

function show(verb: string, src: SourceOut, json?: boolean): void {
  if (json) return printJson(src);
  process.stdout.write(`${verb} ${colors.bold(src.id)}${src.name ? ` (${src.name})` : ""}\n`);
  const endpoint = findEndpoint(src);
  if (endpoint) process.stdout.write(`endpoint: ${colors.cyan(endpoint)}\n`);
}

export async function deploy(file: string, opts: { name?: string; prop?: string[]; json?: boolean }): Promise<SourceOut> {
  const { client } = api();
  const code = await bundle(file);
  const props = parseProps(opts.prop);
  const res = await withSpinner(`Deploying ${file}`, Boolean(opts.json), () =>
    client.POST("/v1/sources/", { body: { component_code: code, ...(opts.name ? { name: opts.name } : {}), configured_props: props } }),
  );
  const src = (unwrap(res) as { data: SourceOut }).data;
  show("Deployed", src, opts.json);
  return src;
}

export async function update(id: string, file: string, opts: { prop?: string[]; json?: boolean }): Promise<SourceOut> {
  const { client } = api();
  const code = await bundle(file);
  const body: { component_code: string; configured_props?: Record<string, unknown> } = { component_code: code };
  if (opts.prop?.length) body.configured_props = parseProps(opts.prop);
  const res = await withSpinner(`Updating ${id}`, Boolean(opts.json), () => client.PUT("/v1/sources/{id}", { params: { path: { id } }, body }));
  const src = (unwrap(res) as { data: SourceOut }).data;
  show("Updated", src, opts.json);
  return src;
}
