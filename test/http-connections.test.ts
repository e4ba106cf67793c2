import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { connect, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { createSource, endpointPath, startApp, waitFor, HTTP_COMPONENT, type TestApp } from "./helpers.ts";

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
