import { load, row, type LoadResult } from "./load.ts";
import { startBare, startService } from "./processes.ts";

// Issue 2 targets: /users/me ratio >= 0.5, the source list (a user with 100 sources) >= 0.35,
// p99 < 10 ms; 50 connections for 10 s each, the bare node:http server measured in the same run.
export async function benchApi(seconds: number): Promise<void> {
  const adminKey = "bench-admin-key-" + Date.now();
  const bare = await startBare();
  const service = await startService(adminKey);
  try {
    const auth = { authorization: `Bearer ${adminKey}`, "content-type": "application/json" };
    const comp = await fetch(`${service.url}/v1/components`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({
        component_code: `export default { key: "bench", name: "Bench", version: "1", props: { label: { type: "string" }, timer: { type: "$.interface.timer", default: { intervalSeconds: 60 } } }, run() {} }`,
      }),
    }).then((r) => r.json() as Promise<{ data: { id: string } }>);
    for (let i = 0; i < 100; i++) {
      const res = await fetch(`${service.url}/v1/sources/`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ component_id: comp.data.id, name: `source ${i}`, configured_props: { label: `l${i}` } }),
      });
      if (!res.ok) throw new Error(`creating source failed: ${res.status} ${await res.text()}`);
    }
    const headers = { authorization: `Bearer ${adminKey}` };
    const results: [string, LoadResult][] = [];
    const baseline = await load({ url: bare.url, seconds });
    results.push(["bare node:http (small JSON)", baseline]);
    results.push(["GET /v1/users/me", await load({ url: `${service.url}/v1/users/me`, headers, seconds })]);
    results.push([
      "GET /v1/users/me/sources/?limit=10",
      await load({ url: `${service.url}/v1/users/me/sources/?limit=10`, headers, seconds }),
    ]);
    console.log(`\n## API (50 connections, ${seconds} s each)`);
    for (const [name, r] of results) console.log(row(name, r, baseline));
  } finally {
    await service.stop();
    await bare.stop();
  }
}
