import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { connect } from "node:net";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { createSource, startApp, waitEvents, type TestApp } from "./helpers.ts";
import { installedPackages, startRegistry, type LocalRegistry } from "./fixtures/npm-registry.ts";
import { certificate } from "./fixtures/tls-certificate.ts";

// The common drivers through the sandbox's sockets (net, tls, dns: test/sockets.test.ts), each in a
// source deployed through the API with the package installed from a local registry serving this
// checkout's own copy: ioredis against the local Redis, mqtt against the local Mosquitto, nodemailer
// through an SMTP server started here, plain and with STARTTLS.

const REDIS = { host: "127.0.0.1", port: 6379 };
const MQTT = { host: "127.0.0.1", port: 1883 };

/** whether something listens on host:port */
function listening(at: { host: string; port: number }): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(at, () => {
      s.destroy();
      resolve(true);
    });
    s.on("error", () => resolve(false));
  });
}


interface Mail {
  from: string;
  to: string[];
  data: string;
  secure: boolean;
  user?: string;
}

const mails: Mail[] = [];
let smtp: SMTPServer;
let smtpPort: number;
let pair: { key: string; cert: string };
let registry: LocalRegistry;
let t: TestApp;

before(async () => {
  pair = certificate();
  // offers STARTTLS with its self-signed certificate; takes any login, and mail without one
  smtp = new SMTPServer({
    ...pair,
    authOptional: true,
    onAuth: (auth, _session, cb) => cb(null, { user: auth.username }),
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
        mails.push({ from, to: session.envelope.rcptTo.map((r) => r.address), data: Buffer.concat(chunks).toString(), secure: session.secure, user: session.user as string | undefined });
        done();
      });
    },
  });
  smtp.on("error", () => {});
  await new Promise<void>((r) => smtp.listen(0, "127.0.0.1", r));
  smtpPort = (smtp.server.address() as AddressInfo).port;
  registry = await startRegistry(installedPackages(["ioredis", "mqtt", "nodemailer"]));
  const allow = [registry.hostPort, `${REDIS.host}:${REDIS.port}`, `${MQTT.host}:${MQTT.port}`, `127.0.0.1:${smtpPort}`];
  t = await startApp({ TRIBUTARY_NPM_REGISTRY: registry.url, TRIBUTARY_FETCH_ALLOW: allow.join(",") });
});
after(async () => {
  await t.close();
  await registry.close();
  await new Promise<void>((r) => smtp.close(() => r()));
});

/** Saves `code` as a source, runs it once and returns its first event (or fails with its error). */
async function runOnce(code: string, props: Record<string, unknown> = {}) {
  const source = await createSource(t, code, { configured_props: props });
  assert.equal((await t.request("POST", `/v1/sources/${source.id}/run`)).status, 202);
  const [first] = await Promise.race([
    waitEvents(t, source.id, 1, "", 30_000),
    waitEvents(t, source.id, 1, "$errors", 30_000).then((e) => Promise.reject(new Error(JSON.stringify(e[0].event)))),
  ]);
  return first.event;
}

const unique = () => `${process.pid}-${Date.now() % 1000000}`;

describe("ioredis", () => {
  it("SET and GET, and a pipeline, against the local Redis", async (ctx) => {
    if (!(await listening(REDIS))) return ctx.skip("Redis is not reachable on 127.0.0.1:6379");
    const key = `tributary:drivers:${unique()}`;
    const event = await runOnce(`import Redis from "ioredis";
      export default { async run() {
        const redis = new Redis({ host: "127.0.0.1", port: 6379, maxRetriesPerRequest: 1 });
        try {
          await redis.set("${key}", "hello", "EX", 60);
          const got = await redis.get("${key}");
          const piped = await redis.pipeline().incr("${key}:n").incrby("${key}:n", 41).get("${key}:n").del("${key}", "${key}:n").exec();
          this.$emit({ got, piped });
        } finally {
          await redis.quit();
        }
      } };`);
    assert.deepEqual(event, { got: "hello", piped: [[null, 1], [null, 42], [null, "42"], [null, 2]] });
  });
});

describe("mqtt", () => {
  it("connects to the local Mosquitto, subscribes, publishes and receives its own message", async (ctx) => {
    if (!(await listening(MQTT))) return ctx.skip("Mosquitto is not reachable on 127.0.0.1:1883");
    const topic = `tributary/drivers/${unique()}`;
    const event = await runOnce(`import mqtt from "mqtt";
      export default { async run() {
        const client = await mqtt.connectAsync("mqtt://127.0.0.1:1883", { reconnectPeriod: 0, connectTimeout: 5000 });
        try {
          const received = new Promise((resolve) => client.on("message", (topic, payload, packet) => resolve({ topic, payload: payload.toString(), qos: packet.qos })));
          const granted = await client.subscribeAsync("${topic}", { qos: 1 });
          await client.publishAsync("${topic}", JSON.stringify({ hello: "world" }), { qos: 1 });
          this.$emit({ granted: granted.map((g) => g.qos), received: await received });
        } finally {
          await client.endAsync();
        }
      } };`);
    assert.deepEqual(event, { granted: [1], received: { topic, payload: '{"hello":"world"}', qos: 1 } });
  });
});

describe("nodemailer", () => {
  const send = (options: string) => `import nodemailer from "nodemailer";
    export default { props: { to: { type: "string" } }, async run() {
      const transport = nodemailer.createTransport(${options});
      const info = await transport.sendMail({ from: "Sender <sender@example.com>", to: this.to, subject: "Through the sandbox", text: "Hello from a source" });
      transport.close();
      this.$emit({ accepted: info.accepted, response: info.response.slice(0, 3) });
    } };`;

  it("sends through SMTP in plain text", async () => {
    const to = `plain-${unique()}@example.com`;
    const event = await runOnce(send(`{ host: "127.0.0.1", port: ${smtpPort}, secure: false, ignoreTLS: true }`), { to });
    assert.deepEqual(event, { accepted: [to], response: "250" });
    const mail = mails.find((m) => m.to.includes(to));
    assert.ok(mail, "the SMTP server got it");
    assert.equal(mail.from, "sender@example.com");
    assert.equal(mail.secure, false);
    assert.match(mail.data, /Subject: Through the sandbox/);
    assert.match(mail.data, /Hello from a source/);
  });

  it("sends through SMTP upgraded with STARTTLS, logged in, verifying the server's certificate with its CA", async () => {
    const to = `secure-${unique()}@example.com`;
    const options = `{ host: "127.0.0.1", port: ${smtpPort}, secure: false, requireTLS: true, auth: { user: "sender", pass: "secret" }, tls: { ca: ${JSON.stringify(pair.cert)} } }`;
    const event = await runOnce(send(options), { to });
    assert.deepEqual(event, { accepted: [to], response: "250" });
    const mail = mails.find((m) => m.to.includes(to));
    assert.ok(mail, "the SMTP server got it");
    assert.equal(mail.secure, true, "it came over TLS");
    assert.equal(mail.user, "sender");
  });

  it("refuses the self-signed certificate unless told not to check it", async () => {
    const to = `unchecked-${unique()}@example.com`;
    const refused = await runOnce(`import nodemailer from "nodemailer";
      export default { async run() {
        const transport = nodemailer.createTransport({ host: "127.0.0.1", port: ${smtpPort}, requireTLS: true });
        this.$emit(await transport.sendMail({ from: "a@example.com", to: "${to}", text: "x" }).then(() => "sent", (e) => e.code));
      } };`);
    assert.equal(refused, "ESOCKET");
    const event = await runOnce(send(`{ host: "127.0.0.1", port: ${smtpPort}, requireTLS: true, tls: { rejectUnauthorized: false } }`), { to });
    assert.deepEqual(event, { accepted: [to], response: "250" });
    assert.equal(mails.find((m) => m.to.includes(to))?.secure, true);
  });
});
