import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { readlinkSync } from "node:fs";
import { createServer, get, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { networkInterfaces } from "node:os";
import { isPrivateAddress } from "../../src/lib/net/net-guard.ts";
import { createSource, startApp, waitEvents, waitFor, type TestApp } from "../helpers.ts";

// Attack replayed: a component fetches (or opens a socket to) this machine's own network address,
// and reaches whatever listens on 0.0.0.0 there, though that address is neither loopback nor
// private. The address here is a public-looking one, so the only reason to refuse it is that the
// machine has it. To give the machine such an address without touching the real network, this
// file re-runs itself in a network namespace of its own (unshare -n): there, only loopback and a
// veth pair of the test's (both ends inside) exist, and no packet can leave.

const OWN = "11.22.33.44";
const IN_NETNS = "TRIBUTARY_TEST_NETNS";
const netns = () => readlinkSync("/proc/self/ns/net");

/** why the namespace can't be made here, or false */
function cannotRun(): string | false {
  if (process.env.TRIBUTARY_TEST_STORE === "postgres") return "runs in the SQLite pass only (PostgreSQL is not reachable from a namespace of its own)";
  if (process.getuid?.() !== 0) return "needs root to make a network namespace (unshare -n)";
  for (const tool of ["unshare", "ip"]) {
    if (spawnSync("sh", ["-c", `command -v ${tool}`]).status !== 0) return `no \`${tool}\` on PATH (util-linux, iproute2)`;
  }
  const probe = spawnSync("unshare", ["-n", "ip", "link", "add", "tgprobe0", "type", "veth", "peer", "name", "tgprobe1"], { encoding: "utf8" });
  return probe.status === 0 ? false : `this machine doesn't permit a network namespace with a veth pair: ${probe.stderr.trim()}`;
}

if (!process.env[IN_NETNS]) {
  it("a component can't reach this machine's own (public-looking) address: run in a network namespace of its own", (ctx) => {
    const why = cannotRun();
    if (why) return ctx.skip(why);
    // NODE_TEST_CONTEXT would make the inner run report to a parent runner instead of exiting 0 or 1
    const { NODE_TEST_CONTEXT: _, ...env } = process.env;
    const inner = spawnSync("unshare", ["-n", process.execPath, "--test", "--test-force-exit", import.meta.filename], {
      env: { ...env, [IN_NETNS]: netns(), TRIBUTARY_TEST_STORE: "sqlite" },
      encoding: "utf8",
      timeout: 180_000,
    });
    assert.equal(inner.status, 0, `the run in the namespace failed:\n${inner.stdout}\n${inner.stderr}`);
  });
} else {
  describe(`inside the namespace: ${OWN} on a veth of the test's`, () => {
    let server: Server;
    let port = 0;
    let connections = 0;
    let refusing: TestApp;
    let allowing: TestApp;

    before(async () => {
      // never add interfaces to the machine's real network: only in a fresh namespace (only lo)
      assert.notEqual(netns(), process.env[IN_NETNS], "not in a network namespace of its own");
      assert.deepEqual(Object.keys(networkInterfaces()).filter((name) => name !== "lo"), [], "the namespace is not fresh");
      execFileSync("ip", ["link", "set", "lo", "up"]);
      server = createServer((req, res) => {
        res.end(req.url === "/component.mjs" ? `export default { name: "From The Host", version: "0.0.1", run() {} };` : "reached the host");
      });
      server.on("connection", () => connections++);
      await new Promise<void>((r) => server.listen(0, "0.0.0.0", r));
      port = (server.address() as AddressInfo).port;
    });
    after(async () => {
      await refusing?.close();
      await allowing?.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    });

    it(`${OWN} passes the guard until the machine has it, and is refused within a second once it does`, async () => {
      assert.equal(isPrivateAddress(OWN), false);
      execFileSync("ip", ["link", "add", "tg0", "type", "veth", "peer", "name", "tg1"]);
      execFileSync("ip", ["addr", "add", `${OWN}/24`, "dev", "tg0"]);
      execFileSync("ip", ["link", "set", "tg0", "up"]);
      execFileSync("ip", ["link", "set", "tg1", "up"]);
      await waitFor(async () => isPrivateAddress(OWN), 5000, `${OWN} refused once it is the machine's`);
      assert.equal(isPrivateAddress(`::ffff:${OWN}`), true);
      // the listener on 0.0.0.0 does answer there: what the guard must keep components from
      // (on a connection of its own, closed after: the service's component_url fetch, in this
      // process, must not reuse it, or the listener would count one connection fewer)
      const direct = await new Promise<string>((resolve, reject) =>
        get({ host: OWN, port, path: "/", agent: false }, (res) => {
          let text = "";
          res.on("data", (c) => (text += c)).on("end", () => resolve(text));
        }).on("error", reject),
      );
      assert.equal(direct, "reached the host");
      connections = 0;
      refusing = await startApp();
      allowing = await startApp({ TRIBUTARY_FETCH_ALLOW: `${OWN}:${port}` });
    });

    /** runs a source once that fetches `url` and opens a socket to OWN:port; returns what each got */
    async function probe(t: TestApp, url: string): Promise<{ fetched: string; connected: string }> {
      const source = await createSource(t, `import net from "net";
        export default { async run() {
          const fetched = await fetch(${JSON.stringify(url)}).then(async (r) => "answered " + (await r.text()), (e) => "failed " + e.message);
          const connected = await new Promise((resolve) => {
            const s = net.connect({ host: ${JSON.stringify(OWN)}, port: ${port} }, () => { s.destroy(); resolve("connected"); });
            s.on("error", (e) => resolve(e.code + " " + e.message));
          });
          this.$emit({ fetched, connected });
        } };`);
      assert.equal((await t.request("POST", `/v1/sources/${source.id}/run`)).status, 202);
      const [first] = await Promise.race([
        waitEvents(t, source.id, 1, "", 20_000),
        waitEvents(t, source.id, 1, "$errors", 20_000).then((e) => Promise.reject(new Error(JSON.stringify(e[0].event)))),
      ]);
      return first.event;
    }

    const refusedFor = (address: string) => new RegExp(`resolves to a loopback or private address \\(${address.replace(/\./g, "\\.")}\\), which is not allowed`);

    it("without TRIBUTARY_FETCH_ALLOW: fetch, net.connect and component_url are refused, and the listener sees nothing", async () => {
      const { fetched, connected } = await probe(refusing, `http://${OWN}:${port}/`);
      assert.match(fetched, refusedFor(OWN));
      assert.match(connected, /^EADDRNOTALLOWED /);
      assert.match(connected, refusedFor(OWN));
      // the same address written as IPv4-mapped IPv6 (which URL rewrites to [::ffff:b16:212c])
      const mapped = await probe(refusing, `http://[::ffff:${OWN}]:${port}/`);
      assert.match(mapped.fetched, /resolves to a loopback or private address/);
      const viaUrl = await refusing.request("POST", "/v1/components", { body: { component_url: `http://${OWN}:${port}/component.mjs` } });
      assert.equal(viaUrl.status, 400, viaUrl.text);
      assert.match(viaUrl.text, /loopback or private address/);
      assert.equal(connections, 0, "the listener on 0.0.0.0 was reached");
    });

    it(`with TRIBUTARY_FETCH_ALLOW=${OWN}:<port>: the operator's exact host:port gets through`, async () => {
      const { fetched, connected } = await probe(allowing, `http://${OWN}:${port}/`);
      assert.equal(fetched, "answered reached the host");
      assert.equal(connected, "connected");
      const viaUrl = await allowing.request("POST", "/v1/components", { body: { component_url: `http://${OWN}:${port}/component.mjs` } });
      assert.equal(viaUrl.status, 200, viaUrl.text);
      assert.equal(viaUrl.body.data.name, "From The Host");
      assert.ok(connections >= 3, `${connections} connections`);
    });
  });
}
