import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

// The service as `npm start` runs it: a real process on a real port (port 0), for the tests of
// signals, crashes and faults. Its output is kept up to the listening line, then only the last
// 64 KiB of it.

export const MAIN = join(import.meta.dirname, "../src/main.ts");

export interface Started {
  child: ChildProcess;
  url: string;
  output: () => string;
}

export async function startService(env: Record<string, string>, timeoutMs = 30_000): Promise<Started> {
  const child = spawn(process.execPath, [MAIN, "--port=0"], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let listening = false;
  const keep = (d: Buffer) => {
    out += d;
    if (listening && out.length > 128 * 1024) out = out.slice(-64 * 1024);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`no listening line in: ${out}`));
    }, timeoutMs);
    const check = () => {
      if (listening) return;
      const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        listening = true;
        clearTimeout(timer);
        child.off("exit", exited);
        resolve(m[1]);
      }
    };
    const exited = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code}: ${out}`));
    };
    child.stdout!.on("data", check);
    child.stderr!.on("data", check);
    child.once("exit", exited);
  });
  return { child, url, output: () => out };
}

/** Sends `signal` and resolves when the process has exited (at once if it already has). */
export function stopService(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill(signal);
  });
}

/** The pids whose parent is `pid` (the service's runner processes), from /proc. */
export function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // the command may hold spaces and parentheses: the fields after its closing ")" are fixed
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === pid) out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** a service process's API as its admin: each call's status and parsed body */
export function adminApi(adminKey: string) {
  return (url: string, method: string, path: string, body?: unknown) =>
    fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${adminKey}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
}
