import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import Fastify, { type FastifyInstance } from "fastify";
import type { AddressInfo } from "node:net";
import { sendComponentReply } from "./component-reply.ts";
import { errorHandler } from "./errors.ts";
import type { HttpResponse } from "../runtime/protocol.ts";

// The ingress's second wall behind the runner: whatever a component handed this.http.respond(),
// the server writes a valid reply or the 500 source_failed envelope, never Node's own 500. A real
// Fastify server on a real port: each request's ?case= picks the response a component "gave".

const cases: Record<string, unknown> = {
  hopByHop: {
    status: 201,
    headers: {
      "Transfer-Encoding": "chunked",
      connection: "close",
      "keep-alive": "timeout=1",
      upgrade: "websocket",
      "proxy-authenticate": "Basic",
      "proxy-whatever": "x",
      te: "trailers",
      trailer: "x-t",
      "content-length": "999",
      "x-kept": "yes",
    },
    body: { ok: true },
  },
  badHeaders: {
    status: 200,
    headers: {
      "x-crlf": "a\r\nSet-Cookie: evil=1",
      "x-nul": "a\u0000b",
      "bad name": "v",
      "x-ünicode-name": "v",
      "": "empty name",
      "x-object": { a: 1 },
      "x-number": 42,
      "x-list": ["a", "b\r\n", "c"],
      "x-fine": "fine",
    },
    body: "text body",
  },
  status99: { status: 99, headers: {}, body: "x" },
  status600: { status: 600, headers: {}, body: "x" },
  statusString: { status: "200", headers: {}, body: "x" },
  statusFloat: { status: 200.5, headers: {}, body: "x" },
  headersNotObject: { status: 202, headers: "x-a: b", body: null },
  noContent: { status: 204, headers: {}, body: { dropped: true } },
};

let app: FastifyInstance;
let origin: string;
before(async () => {
  app = Fastify({ logger: false });
  app.setErrorHandler(errorHandler);
  app.all("/", async (req, reply) => sendComponentReply(reply, cases[(req.query as { case: string }).case] as HttpResponse));
  await app.listen({ port: 0, host: "127.0.0.1" });
  origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
after(() => app.close());

const call = (name: string, method = "GET") => fetch(`${origin}/?case=${name}`, { method });

test("hop-by-hop headers are the server's: dropped, the body framed by the server", async () => {
  const res = await call("hopByHop");
  assert.equal(res.status, 201);
  assert.equal(res.headers.get("x-kept"), "yes");
  // Node writes its own Connection and Keep-Alive; the component's never show
  assert.notEqual(res.headers.get("connection"), "close");
  assert.notEqual(res.headers.get("keep-alive"), "timeout=1");
  for (const h of ["upgrade", "proxy-authenticate", "proxy-whatever", "te", "trailer"]) assert.equal(res.headers.get(h), null, h);
  assert.equal(res.headers.get("transfer-encoding"), null);
  assert.equal(res.headers.get("content-length"), String('{"ok":true}'.length));
  assert.deepEqual(await res.json(), { ok: true });
});

test("header names and values Node can't write are dropped; the rest go out", async () => {
  const res = await call("badHeaders");
  assert.equal(res.status, 200);
  assert.equal(await res.text(), "text body");
  assert.equal(res.headers.get("x-fine"), "fine");
  assert.equal(res.headers.get("x-number"), "42");
  assert.equal(res.headers.get("x-list"), "a, c");
  for (const h of ["x-crlf", "x-nul", "x-object", "set-cookie"]) assert.equal(res.headers.get(h), null, h);
});

test("a status outside 200-599 (or not an integer) is a 500 source_failed envelope", async () => {
  for (const name of ["status99", "status600", "statusString", "statusFloat"]) {
    const res = await call(name);
    assert.equal(res.status, 500, name);
    assert.match(res.headers.get("content-type") ?? "", /^application\/json; charset=utf-8/);
    const body = (await res.json()) as { error: { code: string } };
    assert.equal(body.error.code, "source_failed", name);
    assert.deepEqual(Object.keys(body), ["error"]);
  }
});

test("headers that aren't an object are ignored; a 204 carries no body; HEAD none either", async () => {
  const accepted = await call("headersNotObject");
  assert.equal(accepted.status, 202);
  const none = await call("noContent");
  assert.equal(none.status, 204);
  assert.equal(await none.text(), "");
  const head = await call("hopByHop", "HEAD");
  assert.equal(head.status, 201);
  assert.equal(await head.text(), "");
});
