import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { connect, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { createServer, type Server } from "node:http";
import { createSource, endpointPath, listenLocally, startApp, waitFor, HTTP_COMPONENT, type TestApp } from "./helpers.ts";
import { startRegistry, type LocalRegistry } from "./fixtures/npm-registry.ts";

// Slow clients (slowloris) can't hold connections: headers and bodies that don't arrive within
// their limits end the connection with a 408 envelope, an idle kept-alive connection is closed,
// connections past the cap are refused, and meanwhile the service answers everyone else. A live
// SSE stream is a long response, not a slow request: it outlives every one of these limits.

interface Slow {
  socket: Socket;
  received: () => string;
  closed: Promise<void>;
  stop: () => void;
}

/** A client that writes `first`, then one more byte of `drip` every 50 ms, forever (or nothing at all). */
function slowClient(port: number, first: string, drip: string): Slow {
  const socket = connect({ port, host: "127.0.0.1" });
  let received = "";
  socket.on("data", (d) => (received += d.toString("latin1")));
  socket.on("error", () => {});
  let i = 0;
  let timer: NodeJS.Timeout | undefined;
  socket.on("connect", () => {
    if (first) socket.write(first);
    if (!drip) return;
    timer = setInterval(() => {
      if (!socket.destroyed && socket.writable) socket.write(drip[i++ % drip.length]);
    }, 50);
  });
  const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
  void closed.then(() => clearInterval(timer));
  return { socket, received: () => received, closed, stop: () => (clearInterval(timer), socket.destroy()) };
}

/** Resolves when `p` does, or rejects after `ms` naming `what` (a hang would otherwise stall CI). */
function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms))),
  ]);
}

function assert408(text: string) {
  assert.match(text, /^HTTP\/1\.1 408 /, text);
  assert.match(text, /content-type: application\/json; charset=utf-8/i, text);
  const body = JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4));
  assert.equal(body.error.code, "request_timeout");
}

describe("connection limits", () => {
  let t: TestApp;
  let port: number;
  let base: string;
  before(async () => {
    t = await startApp({
      TRIBUTARY_HTTP_HEADERS_TIMEOUT_MS: "400",
      TRIBUTARY_HTTP_REQUEST_TIMEOUT_MS: "800",
      TRIBUTARY_HTTP_IDLE_TIMEOUT_MS: "1000",
      TRIBUTARY_HTTP_KEEPALIVE_TIMEOUT_MS: "300",
    });
    await t.app.http.listen({ port: 0, host: "127.0.0.1" });
    port = (t.app.http.server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
  });
  after(() => t.close());

  it("slow headers, a slow body and a silent connection are ended with a 408 while /healthz answers", async () => {
    const clients = [
      slowClient(
        port,
        `POST /v1/sources/ HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.adminKey}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`,
        "a",
      ),
      slowClient(port, "GET /v1/users/me HTTP/1.1\r\nHost: x\r\n", "X-Slow: y\r\n"),
      slowClient(port, "", ""),
    ];
    try {
      // the service is there for others all along
      for (let i = 0; i < 3; i++) {
        const res = await fetch(`${base}/healthz`);
        assert.equal(res.status, 200);
      }
      await within(Promise.all(clients.map((c) => c.closed)), 20_000, "the slow clients to be disconnected");
      for (const c of clients) assert408(c.received());
      const res = await fetch(`${base}/healthz`);
      assert.equal(res.status, 200);
    } finally {
      for (const c of clients) c.stop();
    }
  });

  it("an idle kept-alive connection is closed after the keep-alive limit", async () => {
    const socket = connect({ port, host: "127.0.0.1" });
    let received = "";
    socket.on("data", (d) => (received += d.toString("latin1")));
    const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
    socket.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
    await within(closed, 20_000, "the kept-alive connection to be closed");
    assert.match(received, /^HTTP\/1\.1 200 /);
  });

  it("an SSE stream outlives the header, body, idle and keep-alive limits", async () => {
    const src = await createSource(t, HTTP_COMPONENT);
    const ac = new AbortController();
    const res = await fetch(`${base}/sources/${src.id}/sse`, { headers: { authorization: `Bearer ${t.adminKey}` }, signal: ac.signal });
    assert.equal(res.status, 200);
    let text = "";
    let ended = false;
    void (async () => {
      const decoder = new TextDecoder();
      try {
        for await (const chunk of res.body!) text += decoder.decode(chunk as Uint8Array, { stream: true });
      } catch {
        // aborted below
      }
      ended = true;
    })();
    try {
      // a slow client opened after the stream is cut: every limit has been checked since
      const slow = slowClient(port, "GET /healthz HTTP/1.1\r\nHost: x\r\n", "X: y\r\n");
      await within(slow.closed, 20_000, "the slow client to be disconnected");
      // and the stream has been quiet for longer than the idle limit, but for its heartbeats
      await waitFor(async () => text.split(":sse-handshake").length > 4, 20_000, "heartbeats");
      assert.equal(ended, false, "the SSE stream was cut");
      const sent = await t.request("POST", endpointPath(src), { key: null, body: { after: "the limits" } });
      assert.equal(sent.status, 200);
      await waitFor(async () => text.includes('"after":"the limits"'), 20_000, "the event on the stream");
    } finally {
      ac.abort();
    }
  });
});

describe("connection cap", () => {
  let t: TestApp;
  let port: number;
  before(async () => {
    // the default timeouts: the holders must stay until the test lets them go
    t = await startApp({ TRIBUTARY_HTTP_MAX_CONNECTIONS: "3" });
    await t.app.http.listen({ port: 0, host: "127.0.0.1" });
    port = (t.app.http.server.address() as AddressInfo).port;
  });
  after(() => t.close());

  it("connections past the cap are refused at once, and the slots come back as connections end", async () => {
    const holders = [0, 1, 2].map(() => slowClient(port, "GET /healthz HTTP/1.1\r\n", "X: y\r\n"));
    try {
      await waitFor(async () => (await count(t)) >= 3, 10_000, "3 open connections");
      const extra = slowClient(port, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", "");
      await within(extra.closed, 10_000, "the connection past the cap to be refused");
      assert.equal(extra.received(), "", "a refused connection gets no reply");
    } finally {
      for (const h of holders) h.stop();
    }
    await waitFor(async () => (await count(t)) === 0, 10_000, "the holders' connections to end");
    const res = await fetch(`http://127.0.0.1:${port}/healthz`);
    assert.equal(res.status, 200);
  });
});

function count(t: TestApp): Promise<number> {
  return new Promise((resolve, reject) => t.app.http.server.getConnections((err, n) => (err ? reject(err) : resolve(n))));
}

describe("a long save", () => {
  // A registry whose package metadata is held until the test lets it go: the save installing it
  // lasts as long as the test wants, with no clock involved.
  let registry: LocalRegistry;
  let gate: Server;
  let gateUrl = "";
  const held = new Map<string, { arrived: Promise<void>; release: () => void }>();
  const hold = (name: string) => {
    let arrive = () => {};
    let release = () => {};
    const arrived = new Promise<void>((r) => (arrive = r));
    const released = new Promise<void>((r) => (release = r));
    held.set(name, { arrived, release });
    return { arrived, released, arrive };
  };
  const gates = new Map<string, ReturnType<typeof hold>>();
  const apps: TestApp[] = [];

  before(async () => {
    registry = await startRegistry([
      { name: "slow-pkg", version: "1.0.0", files: { "index.js": `module.exports = "slow";` } },
      { name: "stuck-pkg", version: "1.0.0", files: { "index.js": `module.exports = "stuck";` } },
    ]);
    for (const name of ["slow-pkg", "stuck-pkg"]) gates.set(name, hold(name));
    gate = createServer((req, res) => {
      const name = decodeURIComponent((req.url ?? "/").slice(1));
      const g = gates.get(name);
      g?.arrive();
      void (g?.released ?? Promise.resolve())
        .then(() => fetch(registry.url + encodeURIComponent(name).replace("%40", "@")))
        .then(async (r) => res.writeHead(r.status, { "content-type": r.headers.get("content-type") ?? "application/json" }).end(Buffer.from(await r.arrayBuffer())))
        .catch(() => res.destroy());
    });
    await new Promise<void>((r) => gate.listen(0, "127.0.0.1", r));
    gateUrl = `http://127.0.0.1:${(gate.address() as AddressInfo).port}/`;
  });
  after(async () => {
    for (const g of held.values()) g.release();
    for (const a of apps) await a.close();
    gate.closeAllConnections();
    await new Promise((r) => gate.close(r));
    await registry.close();
  });

  const appWith = async (env: Record<string, string>) => {
    const app = await startApp({
      TRIBUTARY_NPM_REGISTRY: gateUrl,
      TRIBUTARY_FETCH_ALLOW: `${registry.hostPort},${new URL(gateUrl).host}`,
      TRIBUTARY_HTTP_IDLE_TIMEOUT_MS: "300",
      ...env,
    });
    apps.push(app);
    return { app, base: await listenLocally(app) };
  };
  const save = (base: string, app: TestApp, name: string) =>
    fetch(`${base}/v1/components`, {
      method: "POST",
      headers: { authorization: `Bearer ${app.adminKey}`, "content-type": "application/json" },
      body: JSON.stringify({ component_code: `import v from "${name}";\nexport default { run() { this.$emit(v); } };` }),
    });

  it("a save that outlasts the idle timeout gets its answer, not a dropped connection", async () => {
    const { app, base } = await appWith({});
    const answer = save(base, app, "slow-pkg");
    await within(held.get("slow-pkg")!.arrived, 10_000, "the save to ask the registry");
    // a connection opened after the save went silent, closed by the idle timeout: the save's own
    // connection has now been silent longer than that
    const idle = connect({ port: Number(new URL(base).port), host: "127.0.0.1" });
    idle.on("error", () => {});
    await within(new Promise((r) => idle.on("close", r)), 10_000, "the idle timeout to close a silent connection");
    held.get("slow-pkg")!.release();
    const res = await within(answer, 20_000, "the save's answer");
    const body = (await res.json()) as { data: { id: string } };
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.match(body.data.id, /^sc_/);
  });

  it("a save past TRIBUTARY_SAVE_TIMEOUT_MS is answered with why (422)", async () => {
    const { app, base } = await appWith({ TRIBUTARY_SAVE_TIMEOUT_MS: "500" });
    const res = await within(save(base, app, "stuck-pkg"), 20_000, "the save's answer");
    const body = (await res.json()) as { error: { code: string; message: string } };
    assert.equal(res.status, 422);
    assert.equal(body.error.code, "invalid_component");
    assert.match(body.error.message, /took longer than 0\.5 s \(TRIBUTARY_SAVE_TIMEOUT_MS\)/);
  });
});
