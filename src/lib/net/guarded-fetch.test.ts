import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fetch as undiciFetch } from "undici";
import { guardedFetch, publicOnly } from "./guarded-fetch.ts";

// The address guard holds on the connection itself: a name that looked public when it was
// checked and points at this machine when the connection is made (DNS rebinding) is refused.

describe("guardedFetch", () => {
  let server: Server;
  let port = 0;
  let hits = 0;
  before(async () => {
    server = createServer((_req, res) => {
      hits++;
      res.end("private");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  test("a connection to a name that resolves to a private address is refused when it is made", async () => {
    // as if the name had passed the check and then changed its answer: only the connector stands
    const err = await undiciFetch(`http://localhost:${port}/`, { dispatcher: publicOnly }).then(
      () => assert.fail("the request went through"),
      (e: unknown) => e as Error & { cause?: Error },
    );
    assert.match(String(err.cause?.message), /localhost resolves to a loopback or private address \((127\.0\.0\.1|::1)\)/);
    assert.equal(hits, 0);
  });

  test("checked before the request too, with the same message; an allowed host:port goes through", async () => {
    await assert.rejects(guardedFetch(new URL(`http://localhost:${port}/`), {}, []), /localhost:\d+ resolves to a loopback or private address/);
    assert.equal(hits, 0);
    const res = await guardedFetch(new URL(`http://localhost:${port}/`), {}, [`localhost:${port}`]);
    assert.equal(await res.text(), "private");
    assert.equal(hits, 1);
  });

  test("a name whose lookup never answers fails at the request's deadline (a webhook's 10 s), not never", async () => {
    const hangs = () => new Promise<{ address: string }[]>(() => {});
    const started = Date.now();
    await assert.rejects(
      guardedFetch(new URL("http://dns-never-answers.example/"), { signal: AbortSignal.timeout(100) }, [], hangs),
      (e: Error) => e.name === "TimeoutError",
    );
    assert.ok(Date.now() - started < 5000, "it ended at the deadline");
  });
});
