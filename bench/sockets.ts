import { createServer, connect, type Server } from "node:net";
import { performance } from "node:perf_hooks";
import { startService } from "./processes.ts";
import { Api, sleep, table } from "./util.ts";

// Sockets in the sandbox (the `sockets` bench): what carrying a socket through the runner adds to
// a small request/response round trip. An echo server in this process; a component writes 32
// bytes and waits for them to come back, TRIPS times in a row, inside one run (after WARMUP trips
// not counted), and reports the time they took; the same loop over a plain node:net socket in
// this process is the yardstick. Added latency per round trip = (sandbox - direct) / TRIPS, the
// median over ROUNDS runs of each, interleaved so that drift on a noisy machine falls on both.
// Target: < 1 ms added.

const TRIPS = 2000;
const WARMUP = 200;
const ROUNDS = 5;
const MESSAGE = "x".repeat(32);

const component = (port: number) => `import net from "net";
export default { async run() {
  const s = net.connect(${port}, "127.0.0.1");
  s.setNoDelay(true);
  await new Promise((r, j) => { s.once("connect", r); s.once("error", j); });
  const trip = () => new Promise((r) => { s.once("data", r); s.write(${JSON.stringify(MESSAGE)}); });
  for (let i = 0; i < ${WARMUP}; i++) await trip();
  const started = Date.now();
  for (let i = 0; i < ${TRIPS}; i++) await trip();
  const elapsed = Date.now() - started;
  s.destroy();
  this.$emit({ elapsed });
} };`;

async function direct(port: number): Promise<number> {
  const s = connect(port, "127.0.0.1");
  s.setNoDelay(true);
  await new Promise((r) => s.once("connect", r));
  const trip = () => new Promise((r) => { s.once("data", r); s.write(MESSAGE); });
  for (let i = 0; i < WARMUP; i++) await trip();
  const started = performance.now();
  for (let i = 0; i < TRIPS; i++) await trip();
  const elapsed = performance.now() - started;
  s.destroy();
  return elapsed;
}

async function sandboxed(api: Api, sourceId: string, runs: number): Promise<number> {
  await api.call("POST", `/v1/sources/${sourceId}/run`);
  const deadline = Date.now() + 120_000;
  for (;;) {
    const events = await api.allEvents(sourceId);
    if (events.length >= runs) return (events[0] as unknown as { event: { elapsed: number } }).event.elapsed;
    const errors = await api.call<{ data: unknown[] }>("GET", `/v1/sources/${sourceId}/event_summaries?event_name=$errors&expand=event`);
    if (errors.data.length > 0) throw new Error(`the socket bench component failed: ${JSON.stringify(errors.data[0])}`);
    if (Date.now() > deadline) throw new Error("the socket bench component never reported");
    await sleep(50);
  }
}

const us = (msValue: number) => `${(msValue * 1000).toFixed(0)} µs`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function benchSockets(): Promise<void> {
  const echo: Server = createServer((s) => s.on("error", () => {}).pipe(s));
  await new Promise<void>((r) => echo.listen(0, "127.0.0.1", r));
  const port = (echo.address() as { port: number }).port;
  const key = "bench-admin-key";
  const service = await startService(key, { TRIBUTARY_FETCH_ALLOW: `127.0.0.1:${port}` });
  try {
    const api = new Api(service.url, key);
    const source = await api.call<{ data: { id: string } }>("POST", "/v1/sources/", { component_code: component(port) });
    const through: number[] = [];
    const plain: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      through.push(await sandboxed(api, source.data.id, round));
      plain.push(await direct(port));
    }
    const perTrip = (total: number) => total / TRIPS;
    const added = perTrip(median(through)) - perTrip(median(plain));
    table(`Sockets: a ${MESSAGE.length}-byte request/response over TCP (${TRIPS} round trips per run, median of ${ROUNDS})`, [
      { metric: "round trip, direct node:net in this process", value: us(perTrip(median(plain))) },
      { metric: "round trip, through the runner (net in the sandbox)", value: us(perTrip(median(through))) },
      { metric: "added per round trip", value: us(added), target: "< 1 ms", pass: added < 1 },
    ]);
  } finally {
    await service.stop();
    await new Promise((r) => echo.close(r));
  }
}
