import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { startService } from "./processes.ts";
import { Api, ms, pct, sleep, table } from "./util.ts";

// `tributary dev` (issue target): the first event of a re-saved file shows < 1 s after the save.
//
// A real service and the real bin: `tributary dev` runs on an HTTP source file while this process
// POSTs to the source's endpoint back to back (one request in flight at a time), so that every
// version of the code gets events as soon as it is live. Each save writes a version that emits a
// new marker; the time is from the write to the moment dev prints the marker's event line (read
// from its stdout). "redeployed" is when dev printed that the PUT had been answered, to split the
// time between noticing the save and redeploying, and the first request of the new code.

const SAVES = 5;
const ROOT = join(import.meta.dirname, "..");
const BIN = join(ROOT, JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).bin.tributary as string);

const component = (marker: string) =>
  `export default { props: { http: "$.interface.http" }, run(e) { this.$emit({ marker: ${JSON.stringify(marker)} }); } };\n`;

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 30_000): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(2);
  }
}

export async function benchCliDev(): Promise<void> {
  const key = "bench-admin-" + Math.random().toString(36).slice(2);
  const service = await startService(key);
  const work = mkdtempSync(join(tmpdir(), "tributary-bench-dev-"));
  const file = join(work, "source.js");
  writeFileSync(file, component("v0"));
  const dev = spawn(BIN, ["dev", file], {
    env: { ...process.env, XDG_CONFIG_HOME: join(work, "config"), TRIBUTARY_URL: service.url, TRIBUTARY_API_KEY: key },
    stdio: ["ignore", "pipe", "pipe"],
  });
  // stdout as lines, each with the time it was read
  const lines: { at: number; text: string }[] = [];
  let partial = "";
  dev.stdout!.on("data", (d: Buffer) => {
    const at = performance.now();
    const parts = (partial + d.toString()).split("\n");
    partial = parts.pop()!;
    for (const text of parts) lines.push({ at, text });
  });
  const errLines: { at: number; text: string }[] = [];
  dev.stderr!.on("data", (d: Buffer) => {
    const at = performance.now();
    for (const text of d.toString().split("\n").filter(Boolean)) errLines.push({ at, text });
  });
  let sending = true;
  let sender: Promise<void> = Promise.resolve();
  try {
    const id = await until("dev's deploy", () => errLines.map((l) => /deployed (dc_\S+?)[;\s]/.exec(l.text)?.[1]).find(Boolean));
    const api = new Api(service.url, key);
    const src = await api.call<{ data: { configured_props: { http: { endpoint_url: string } } } }>("GET", `/v1/sources/${id}`);
    const endpoint = `${service.url}${new URL(src.data.configured_props.http.endpoint_url).pathname}`;
    let requests = 0;
    sender = (async () => {
      while (sending) {
        const res = await fetch(endpoint, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
        await res.body?.cancel();
        requests++;
      }
    })();
    const seen = (marker: string, from: number) => lines.find((l, i) => i >= from && l.text.startsWith("event ") && l.text.includes(`"marker":"${marker}"`));
    await until("the first version's events (dev's streams connected)", () => seen("v0", 0));

    const total: number[] = [];
    const redeploy: number[] = [];
    for (let i = 1; i <= SAVES; i++) {
      const marker = `m${i}-${Date.now()}`;
      const fromOut = lines.length;
      const fromErr = errLines.length;
      const saved = performance.now();
      writeFileSync(file, component(marker));
      const shown = await until(`the event of save ${i}`, () => seen(marker, fromOut));
      total.push(shown.at - saved);
      const redeployed = errLines.find((l, j) => j >= fromErr && /redeployed/.test(l.text));
      if (redeployed) redeploy.push(redeployed.at - saved);
      await sleep(300);
    }
    const sorted = [...total].sort((a, b) => a - b);
    table(`tributary dev: save -> the new code's first event printed (${SAVES} saves, ${requests} endpoint requests meanwhile)`, [
      { metric: "each save", value: total.map((t) => t.toFixed(0)).join(", ") + " ms" },
      { metric: "save -> \"redeployed\" (median)", value: ms(pct([...redeploy].sort((a, b) => a - b), 50)) },
      { metric: "save -> event printed, median", value: ms(pct(sorted, 50)), target: "< 1000 ms", pass: pct(sorted, 50) < 1000 },
      { metric: "save -> event printed, max", value: ms(sorted[sorted.length - 1]!), target: "< 1000 ms", pass: sorted[sorted.length - 1]! < 1000 },
    ]);
  } finally {
    sending = false;
    await sender.catch(() => {});
    if (dev.exitCode === null) {
      const exited = new Promise((r) => dev.once("exit", r));
      dev.kill("SIGINT");
      await Promise.race([exited, sleep(5000)]);
      if (dev.exitCode === null) dev.kill("SIGKILL");
    }
    await service.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.main) await benchCliDev();
