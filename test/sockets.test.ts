import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { createServer as createTlsServer, TLSSocket } from "node:tls";
import pg from "pg";
import mysql from "mysql2/promise";
import { createSource, serveFiles, startApp, waitEvents, waitFor, type FileServer, type TestApp } from "./helpers.ts";
import { installedPackages, startRegistry, type FixturePackage, type LocalRegistry } from "./fixtures/npm-registry.ts";
import { sandboxDns, type DnsClient } from "../src/runtime/sandbox/sockets/dns.ts";
import { openSocket, socketTarget } from "../src/runtime/sandbox/sockets/socket-target.ts";
import { certificate } from "./fixtures/tls-certificate.ts";

// net, tls and dns inside the sandbox: real drivers (pg, mysql2, installed from a local registry
// serving this checkout's own copies) against the local PostgreSQL and MariaDB, and plain TCP
// servers started here for the guard, the caps and the end of an invocation.

const PG = { host: "127.0.0.1", port: 5432, user: "root", database: "test" };
const MY = { host: "127.0.0.1", port: 3306, user: "root", password: "", database: "test" };

// pg-format, as Pipedream's PostgreSQL app imports it: %I identifiers, %L literals, %s strings
const PG_FORMAT: FixturePackage = {
  name: "pg-format",
  version: "1.0.4",
  files: {
    "index.js": `const ident = (v) => '"' + String(v).replace(/"/g, '""') + '"';
      const literal = (v) => v === null || v === undefined ? "NULL" : typeof v === "number" ? String(v) : "'" + String(v).replace(/'/g, "''") + "'";
      module.exports = function format(fmt, ...args) { let i = 0;
        return fmt.replace(/%([ILs%])/g, (m, c) => c === "%" ? "%" : c === "I" ? ident(args[i++]) : c === "L" ? literal(args[i++]) : String(args[i++])); };`,
  },
};

// Pipedream's PostgreSQL new-row source (@pipedream/postgresql 2.2.4) in its three files, cut to
// what the source uses; served beside component_url as Pipedream lays them out. One change: the
// real _getSslConfig always asks for TLS, which the local PostgreSQL doesn't speak, so here no
// ssl is asked for unless a CA or key is given (pg's TLS path is tested below, on a stand-in).
const PG_FILES = {
  "/postgresql/postgresql.app.mjs": `import pg from "pg";
import format from "pg-format";
import { sqlProp, sqlProxy, ConfigurationError } from "@pipedream/platform";
export default {
  type: "app",
  app: "postgresql",
  propDefinitions: {
    schema: { type: "string", label: "Schema", async options() { return this.getSchemas(); } },
    table: { type: "string", label: "Table", async options({ schema }) { return this.getTables(schema ?? "public"); } },
    column: { type: "string", label: "Column", async options({ table, schema }) { return this.getColumns(table, schema ?? "public"); } },
  },
  methods: {
    ...sqlProp.methods,
    ...sqlProxy.methods,
    _getSslConfig() {
      const { ca, key, cert, ssl_verification_mode: mode } = this.$auth;
      const ssl = { ...(ca && { ca }), ...(key && { key }), ...(cert && { cert }), rejectUnauthorized: mode !== "skip_verification" };
      return ca || key || cert ? ssl : undefined;
    },
    getClientConfiguration() {
      const { host, port, user, password, database } = this.$auth;
      return { host, port, user, password, database, ssl: this._getSslConfig() };
    },
    async _getClient() {
      const client = new pg.Client(this.getClientConfiguration());
      try {
        await client.connect();
      } catch (err) {
        if (err.code === "SELF_SIGNED_CERT_IN_CHAIN") throw new ConfigurationError("SSL verification failed");
        throw err;
      }
      return client;
    },
    async executeQuery(query, errorMsg = "") {
      const client = await this._getClient();
      try {
        const { rows } = await client.query(query);
        return rows;
      } catch (error) {
        throw new Error(errorMsg + error);
      } finally {
        await client.end();
      }
    },
    async getSchemas() {
      return (await this.executeQuery(format("select schema_name FROM information_schema.schemata"))).map((r) => r.schema_name);
    },
    async getTables(schema = "public") {
      return (await this.executeQuery(format("SELECT table_name FROM information_schema.tables WHERE table_schema = %L", schema))).map((r) => r.table_name);
    },
    async getColumns(table, schema = "public") {
      const q = format("SELECT column_name FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_SCHEMA = %L AND TABLE_NAME = %L", schema, table);
      return (await this.executeQuery(q)).map((r) => r.column_name);
    },
    async getPrimaryKey(table, schema = "public") {
      const rows = await this.executeQuery({ text: format(\`SELECT c.column_name, c.ordinal_position FROM information_schema.key_column_usage AS c
        LEFT JOIN information_schema.table_constraints AS t ON t.constraint_name = c.constraint_name
        WHERE t.table_name = %L and t.table_schema = %L AND t.constraint_type = 'PRIMARY KEY';\`, table, schema) });
      return rows[0]?.column_name;
    },
    async getRows(table, column, lastResult = null, schema = "public") {
      const query = lastResult
        ? { text: format("SELECT * FROM %I.%I WHERE %I > $1 ORDER BY %I DESC", schema, table, column, column), values: [lastResult] }
        : format("SELECT * FROM %I.%I ORDER BY %I DESC", schema, table, column);
      return this.executeQuery(query);
    },
    async getInitialRows(schema, table, column, limitNum = 10) {
      return this.executeQuery({ text: format("SELECT * FROM %I.%I ORDER BY %I DESC LIMIT $1", schema, table, column), values: [limitNum] });
    },
  },
};`,
  "/postgresql/sources/common.mjs": `import postgresql from "../postgresql.app.mjs";
import format from "pg-format";
import { DEFAULT_POLLING_SOURCE_TIMER_INTERVAL } from "@pipedream/platform";
export default {
  props: {
    postgresql,
    db: "$.service.db",
    timer: { type: "$.interface.timer", default: { intervalSeconds: DEFAULT_POLLING_SOURCE_TIMER_INTERVAL } },
  },
  methods: {
    _getLastResult() { return this.db.get("lastResult"); },
    _setLastResult(rows, column) { if (rows.length) this.db.set("lastResult", rows[0][column]); },
    async newRows(schema, table, column, useLastResult = true) {
      const lastResult = useLastResult ? (this._getLastResult() || null) : null;
      this.emitRows(await this.postgresql.getRows(table, column, lastResult, schema), column);
    },
    async initialRows(schema, table, column, limit) {
      this.emitRows(await this.postgresql.getInitialRows(schema, table, column, limit), column);
    },
    emitRows(rows, column) {
      for (const row of rows) this.$emit(row, this.generateMeta(row, column));
      this._setLastResult(rows, column);
    },
    async isColumnUnique(schema, table, column) {
      const [{ duplicate_flag }] = await this.postgresql.executeQuery(format("select count(*) <> count(distinct %I) as duplicate_flag from %I.%I", column, schema, table));
      return !duplicate_flag;
    },
  },
};`,
  "/postgresql/sources/new-row/new-row.mjs": `import common from "../common.mjs";
export default {
  ...common,
  name: "New Row",
  key: "postgresql-new-row",
  version: "3.0.8",
  type: "source",
  dedupe: "unique",
  props: {
    ...common.props,
    schema: { propDefinition: [common.props.postgresql, "schema"] },
    table: { propDefinition: [common.props.postgresql, "table", (c) => ({ schema: c.schema })] },
    column: { propDefinition: [common.props.postgresql, "column", (c) => ({ schema: c.schema, table: c.table })], optional: true },
  },
  hooks: {
    async deploy() {
      const column = this.column ? this.column : await this.postgresql.getPrimaryKey(this.table, this.schema);
      if (!(await this.isColumnUnique(this.schema, this.table, column))) throw new Error("The column selected contains duplicate values. Column must be unique");
      this._setColumn(column);
      await this.initialRows(this.schema, this.table, column);
    },
  },
  methods: {
    ...common.methods,
    _getColumn() { return this.db.get("column"); },
    _setColumn(column) { this.db.set("column", column); },
    generateMeta(row, column) { return { id: row[column], summary: "New Row Added", ts: Date.now() }; },
  },
  async run() {
    await this.newRows(this.schema, this.table, this._getColumn());
  },
};`,
};

/** A TCP server that reads and drops everything; it counts its connections and their closes. */
interface Sink {
  server: Server;
  port: number;
  opened: number;
  closed: number;
  received: number;
}

async function startSink(echo = false): Promise<Sink> {
  const sink = { opened: 0, closed: 0, received: 0 } as Sink;
  sink.server = createServer((s: Socket) => {
    sink.opened++;
    s.on("data", (d) => {
      sink.received += d.length;
      if (echo) s.write(d);
    });
    s.on("error", () => {});
    s.on("close", () => sink.closed++);
  });
  await new Promise<void>((r) => sink.server.listen(0, "127.0.0.1", r));
  sink.port = (sink.server.address() as { port: number }).port;
  return sink;
}

async function reachable(check: () => Promise<unknown>): Promise<boolean> {
  try {
    await check();
    return true;
  } catch {
    return false;
  }
}


/** TLS echo servers: one that speaks TLS at once, one that upgrades after "STARTTLS\n" (as PostgreSQL's SSLRequest does) */
/**
 * Enough of PostgreSQL to see pg's ssl through: it answers the SSLRequest with "S", speaks TLS,
 * and refuses the startup message that comes over it with an ErrorResponse naming the TLS version.
 */
function fakePostgres(pair: { key: string; cert: string }): Server {
  return createServer((plain) => {
    plain.on("error", () => {});
    plain.once("data", (d) => {
      if (d.length !== 8 || d.readUInt32BE(4) !== 80877103) return plain.destroy();
      plain.write("S");
      const secure = new TLSSocket(plain, { isServer: true, ...pair });
      secure.on("error", () => {});
      secure.once("data", () => {
        const fields = Buffer.from(`SFATAL\0C28000\0Mstartup came over ${secure.getProtocol()}\0\0`);
        const head = Buffer.alloc(5);
        head.write("E");
        head.writeUInt32BE(fields.length + 4, 1);
        secure.end(Buffer.concat([head, fields]));
      });
    });
  });
}

/**
 * The local PostgreSQL (SSL off) as one with SSL on: the SSLRequest answered "S", TLS ended here,
 * the rest passed through. Pipedream's PostgreSQL app always asks for TLS.
 */
function tlsPostgres(pair: { key: string; cert: string }): Server {
  return createServer((plain) => {
    plain.on("error", () => {});
    plain.once("data", (d) => {
      if (d.length !== 8 || d.readUInt32BE(4) !== 80877103) return plain.destroy();
      plain.write("S");
      const secure = new TLSSocket(plain, { isServer: true, ...pair });
      const upstream = createConnection(5432, "127.0.0.1");
      for (const s of [secure, upstream]) s.on("error", () => {});
      secure.pipe(upstream).pipe(secure);
      upstream.on("close", () => secure.destroy());
      secure.on("close", () => upstream.destroy());
    });
  });
}

async function startTls(pair: { key: string; cert: string }): Promise<{ direct: Server; starttls: Server; directPort: number; starttlsPort: number; pg: Server; pgPort: number; realPg: Server; realPgPort: number }> {
  const direct = createTlsServer(pair, (s) => s.on("error", () => {}).pipe(s));
  const starttls = createServer((plain) => {
    plain.on("error", () => {});
    plain.once("data", (d) => {
      if (d.toString() !== "STARTTLS\n") return plain.end("NO\n");
      plain.write("OK\n");
      const secure = new TLSSocket(plain, { isServer: true, ...pair });
      secure.on("error", () => {});
      secure.pipe(secure);
    });
  });
  const pg = fakePostgres(pair);
  const realPg = tlsPostgres(pair);
  for (const server of [direct, starttls, pg, realPg]) await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (s: Server) => (s.address() as { port: number }).port;
  return { direct, starttls, directPort: port(direct), starttlsPort: port(starttls), pg, pgPort: port(pg), realPg, realPgPort: port(realPg) };
}

/** A STARTTLS server that answers "OK" and never speaks TLS; it keeps its sockets to reset them and watch them close. */
interface Holder {
  server: Server;
  port: number;
  held: Socket[];
  closed: number;
}

async function startHolder(): Promise<Holder> {
  const h = { held: [], closed: 0 } as unknown as Holder;
  h.server = createServer((s) => {
    s.on("error", () => {});
    s.on("close", () => h.closed++);
    s.on("data", (d) => {
      const text = d.toString();
      if (text === "STARTTLS\n") {
        h.held.push(s);
        s.write("OK\n");
      } else if (text === "RESET\n") {
        // resets every held socket, then says so once the resets are out
        for (const held of h.held.splice(0)) held.resetAndDestroy();
        s.write("DONE\n");
      }
    });
  });
  await new Promise<void>((r) => h.server.listen(0, "127.0.0.1", r));
  h.port = (h.server.address() as { port: number }).port;
  return h;
}

let holder: Holder;
let registry: LocalRegistry;
let files: FileServer;
let sink: Sink;
let echo: Sink;
let t: TestApp;
let pair: { key: string; cert: string };
let tls: Awaited<ReturnType<typeof startTls>>;

before(async () => {
  pair = certificate();
  tls = await startTls(pair);
  holder = await startHolder();
  registry = await startRegistry([...installedPackages(["pg", "mysql2"]), PG_FORMAT]);
  files = await serveFiles(PG_FILES);
  sink = await startSink();
  echo = await startSink(true);
  const allow = [registry.hostPort, files.hostPort, "127.0.0.1:5432", "127.0.0.1:3306", `127.0.0.1:${sink.port}`, `127.0.0.1:${echo.port}`, `127.0.0.1:${tls.directPort}`, `127.0.0.1:${tls.starttlsPort}`, `127.0.0.1:${tls.pgPort}`, `127.0.0.1:${tls.realPgPort}`, `127.0.0.1:${holder.port}`];
  t = await startApp({ TRIBUTARY_NPM_REGISTRY: registry.url, TRIBUTARY_FETCH_ALLOW: allow.join(",") });
});
after(async () => {
  await t.close();
  await registry.close();
  await files.close();
  for (const s of [sink.server, echo.server, tls.direct, tls.starttls, tls.pg, tls.realPg, holder.server]) await new Promise((r) => s.close(r));
});

/** Saves `code` as a source, runs it once and returns its first event (or fails with its error). */
async function runOnce(code: string, props: Record<string, unknown> = {}) {
  const source = await createSource(t, code, { configured_props: props });
  assert.equal((await t.request("POST", `/v1/sources/${source.id}/run`)).status, 202);
  const [first] = await Promise.race([
    waitEvents(t, source.id, 1, "", 20_000),
    waitEvents(t, source.id, 1, "$errors", 20_000).then((e) => Promise.reject(new Error(JSON.stringify(e[0].event)))),
  ]);
  return { source, event: first.event };
}

describe("database drivers through the sandbox's sockets", () => {
  it("Pipedream's PostgreSQL new-row source (pg) emits the table's rows, and new ones within a timer tick", async (ctx) => {
    const admin = new pg.Client(PG);
    if (!(await reachable(() => admin.connect()))) return ctx.skip("PostgreSQL is not reachable on 127.0.0.1:5432");
    const table = `sockets_rows_${process.pid}_${Date.now() % 100000}`;
    try {
      await admin.query(`CREATE TABLE ${table} (id serial PRIMARY KEY, name text NOT NULL)`);
      await admin.query(`INSERT INTO ${table} (name) VALUES ('first')`);
      const res = await t.request("POST", "/v1/sources/", {
        body: {
          component_url: `${files.origin}/postgresql/sources/new-row/new-row.mjs`,
          configured_props: { postgresql: PG, schema: "public", table, timer: { intervalSeconds: 1 } },
        },
      });
      assert.equal(res.status, 200, res.text);
      const id = res.body.data.id;
      const initial = await waitEvents(t, id, 1, "", 20_000);
      assert.deepEqual(initial.map((e) => e.event), [{ id: 1, name: "first" }], "the deploy hook's initial rows");
      await admin.query(`INSERT INTO ${table} (name) VALUES ('second'), ('third')`);
      const all = await waitEvents(t, id, 3, "", 20_000);
      assert.deepEqual(all.map((e) => e.event.name).sort(), ["first", "second", "third"]);
      assert.equal((await waitEvents(t, id, 0, "$errors")).length, 0, "no run failed");
    } finally {
      await admin.query(`DROP TABLE IF EXISTS ${table}`).catch(() => {});
      await admin.end();
    }
  });

  it("mysql2 against MariaDB: connect, create, insert, select", async (ctx) => {
    if (!(await reachable(async () => (await mysql.createConnection(MY)).end()))) return ctx.skip("MariaDB is not reachable on 127.0.0.1:3306");
    const table = `sockets_my_${process.pid}_${Date.now() % 100000}`;
    const { event } = await runOnce(
      `import mysqlClient from "mysql2/promise";
      import { sqlProxy, sqlProp } from "@pipedream/platform";
      export default {
        props: { mysql: { type: "app", app: "mysql" } },
        methods: { ...sqlProxy.methods, ...sqlProp.methods },
        async run() {
          const connection = await mysqlClient.createConnection(this.mysql.$auth);
          try {
            await connection.execute("CREATE TABLE ${table} (id int AUTO_INCREMENT PRIMARY KEY, name varchar(20))");
            await connection.execute("INSERT INTO ${table} (name) VALUES (?), (?)", ["a", "b"]);
            const [rows] = await connection.execute("SELECT * FROM ${table} ORDER BY id");
            let notImplemented;
            try { this.getSchema(); } catch (e) { notImplemented = e.name + ": " + e.message; }
            this.$emit({ rows, notImplemented });
          } finally {
            await connection.query("DROP TABLE IF EXISTS ${table}").catch(() => {});
            await connection.end();
          }
        },
      };`,
      { mysql: MY },
    );
    assert.deepEqual(event, { rows: [{ id: 1, name: "a" }, { id: 2, name: "b" }], notImplemented: "ConfigurationError: getSchema not implemented" });
  });
});

describe("the address guard", () => {
  it("loopback without TRIBUTARY_FETCH_ALLOW, private, link-local and a name for loopback are refused, saying why", async () => {
    const { event } = await runOnce(`import net from "net";
      const attempt = (host, port) => new Promise((resolve) => {
        const s = net.connect({ host, port }, () => { s.destroy(); resolve("connected"); });
        s.on("error", (e) => resolve(e.code + " " + e.message));
      });
      export default { async run() {
        this.$emit({
          loopback: await attempt("127.0.0.1", 1),
          private: await attempt("10.1.2.3", 5432),
          linkLocal: await attempt("169.254.169.254", 80),
          name: await attempt("localhost", 1),
          v6: await attempt("::1", 1),
          badPort: await attempt("127.0.0.1", 70000),
        });
      } };`);
    for (const [what, address] of [["loopback", "127.0.0.1"], ["private", "10.1.2.3"], ["linkLocal", "169.254.169.254"], ["v6", "::1"]]) {
      assert.match(event[what], new RegExp(`^EADDRNOTALLOWED .*resolves to a loopback or private address \\(${address.replace(/\./g, "\\.")}\\), which is not allowed`), what);
    }
    assert.match(event.name, /^EADDRNOTALLOWED localhost:1 resolves to a loopback or private address/);
    assert.match(event.badPort, /"port" must be an integer from 1 to 65535/);
  });

  it("dns.lookup of a name for loopback is refused; of a public address, answered", async () => {
    const { event } = await runOnce(`import dns from "dns";
      import { lookup } from "dns/promises";
      export default { async run() {
        const refused = await lookup("localhost").then((a) => "answered " + JSON.stringify(a), (e) => e.code + " " + e.message);
        const cb = await new Promise((r) => dns.lookup("localhost", (err, address) => r(err ? err.code : address)));
        const literal = await lookup("93.184.216.34");
        this.$emit({ refused, cb, literal });
      } };`);
    assert.match(event.refused, /^EADDRNOTALLOWED localhost resolves to a loopback or private address/);
    assert.equal(event.cb, "EADDRNOTALLOWED");
    assert.deepEqual(event.literal, { address: "93.184.216.34", family: 4 });
  });

  it("servers are refused with a clear error", async () => {
    const { event } = await runOnce(`import net from "node:net";
      export default { run() {
        let message; try { net.createServer(() => {}).listen(0); } catch (e) { message = e.message; }
        this.$emit(message);
      } };`);
    assert.match(event, /net\.createServer is not available in the sandbox/);
  });
});

describe("caps and the end of an invocation", () => {
  it("at most 16 sockets per invocation: the 17th fails, naming the cap", async () => {
    const { event } = await runOnce(`import net from "net";
      export default { async run() {
        const results = [];
        for (let i = 0; i < 17; i++) {
          results.push(await new Promise((resolve) => {
            const s = net.connect(${echo.port}, "127.0.0.1", () => { s.end(); resolve("ok"); });
            s.on("error", (e) => resolve(e.message));
          }));
        }
        this.$emit(results);
      } };`);
    assert.deepEqual(event.slice(0, 16), Array(16).fill("ok"));
    assert.match(event[16], /more than 16 sockets in one invocation/);
  });

  it("at most 64 MiB of traffic per invocation: the socket that passes it fails, naming the cap", async () => {
    const before = sink.received;
    const { event } = await runOnce(`import net from "net";
      export default { async run() {
        const s = net.connect(${sink.port}, "127.0.0.1");
        const chunk = Buffer.alloc(1024 * 1024, 120);
        const outcome = await new Promise((resolve) => {
          s.on("error", (e) => resolve(e.name + ": " + e.message));
          let sent = 0;
          const pump = () => {
            while (sent < 70) { sent++; if (!s.write(chunk)) return s.once("drain", pump); }
            s.end(() => resolve("all sent"));
          };
          s.on("connect", pump);
        });
        this.$emit({ outcome, destroyed: s.destroyed });
      } };`);
    assert.match(event.outcome, /^RangeError: sockets carried more than 64 MiB in this invocation$/);
    assert.equal(event.destroyed, true);
    assert.ok(sink.received - before <= 64 * 1024 * 1024, "nothing past the cap reached the server");
  });

  it("a socket left open is closed when the run ends, and the next run can't use it", async () => {
    const opened = sink.opened;
    const closed = sink.closed;
    const code = `import net from "net";
      let kept;
      export default { async run() {
        if (!kept) {
          kept = net.connect(${sink.port}, "127.0.0.1");
          await new Promise((r) => kept.once("connect", r));
          kept.write("left open");
          this.$emit({ run: 1 });
          return;
        }
        const error = await new Promise((r) => { kept.once("error", (e) => r(e.message)); kept.write("again"); });
        this.$emit({ run: 2, error });
      } };`;
    const { source, event } = await runOnce(code);
    assert.deepEqual(event, { run: 1 });
    await waitFor(async () => sink.opened > opened && sink.closed > closed, 10_000, "the server to see the socket close");
    assert.equal((await t.request("POST", `/v1/sources/${source.id}/run`)).status, 202);
    const events = await waitEvents(t, source.id, 2, "", 20_000);
    assert.equal(events[0].event.run, 2);
    assert.match(events[0].event.error, /this socket is closed \(sockets close when their invocation ends\)/);
  });

  it("a run that times out with a socket open: the socket closes with it", async () => {
    const app = await startApp({ TRIBUTARY_INVOCATION_TIMEOUT_MS: "1500", TRIBUTARY_FETCH_ALLOW: `127.0.0.1:${sink.port}` });
    try {
      const opened = sink.opened;
      const closed = sink.closed;
      const source = await createSource(app, `import net from "net";
        export default { async run() {
          const s = net.connect(${sink.port}, "127.0.0.1");
          s.on("connect", () => s.write("waiting"));
          await new Promise(() => {});
        } };`);
      assert.equal((await app.request("POST", `/v1/sources/${source.id}/run`)).status, 202);
      const [failed] = await waitEvents(app, source.id, 1, "$errors", 20_000);
      assert.match(JSON.stringify(failed.event), /timed out/);
      await waitFor(async () => sink.opened > opened && sink.closed > closed, 10_000, "the server to see the socket close");
    } finally {
      await app.close();
    }
  });

  it("bytes written come back through a round trip, in order, across many small writes", async () => {
    const { event } = await runOnce(`import net from "net";
      export default { async run() {
        const s = net.connect({ host: "127.0.0.1", port: ${echo.port} });
        s.setNoDelay(true);
        s.setKeepAlive(true, 1000);
        const want = 2000;
        let got = "";
        await new Promise((resolve, reject) => {
          s.on("error", reject);
          s.setEncoding("utf8");
          s.on("data", (d) => { got += d; if (got.length >= want * 4) resolve(); });
          for (let i = 0; i < want; i++) s.write(String(i % 10000).padStart(4, "0"));
        });
        s.destroy();
        this.$emit({ ok: got === Array.from({ length: want }, (_, i) => String(i).padStart(4, "0")).join(""), length: got.length,
          ip: net.isIP("::ffff:10.0.0.1"), v4: net.isIPv4("1.2.3.4"), not: net.isIP("example.com"), state: s.readyState });
      } };`);
    assert.deepEqual(event, { ok: true, length: 8000, ip: 6, v4: true, not: 0, state: "closed" });
  });
});

describe("tls", () => {
  const roundTrip = `(s, text) => new Promise((resolve) => {
    s.on("error", (e) => resolve({ error: e.code ?? e.message }));
    s.on("data", (d) => { resolve({ echoed: d.toString(), authorized: s.authorized, encrypted: s.encrypted === true }); s.destroy(); });
    s.write(text);
  })`;

  it("tls.connect verifies the server's certificate: with its CA it talks, without it it is refused, unless told not to check", async () => {
    const { event } = await runOnce(`import tls from "tls";
      const roundTrip = ${roundTrip};
      export default { props: { ca: { type: "string" } }, async run() {
        const port = ${tls.directPort};
        const trusted = await roundTrip(tls.connect({ host: "127.0.0.1", port, ca: this.ca }), "hello");
        const named = await roundTrip(tls.connect(port, "127.0.0.1", { ca: this.ca, servername: "localhost" }), "named");
        const untrusted = await roundTrip(tls.connect({ host: "127.0.0.1", port }), "x");
        const unchecked = await roundTrip(tls.connect({ host: "127.0.0.1", port, rejectUnauthorized: false }), "anyway");
        this.$emit({ trusted, named, untrusted, unchecked });
      } };`, { ca: pair.cert });
    assert.deepEqual(event.trusted, { echoed: "hello", authorized: true, encrypted: true });
    assert.deepEqual(event.named, { echoed: "named", authorized: true, encrypted: true });
    assert.deepEqual(event.untrusted, { error: "DEPTH_ZERO_SELF_SIGNED_CERT" });
    assert.deepEqual(event.unchecked, { echoed: "anyway", authorized: false, encrypted: true });
  });

  it("a plain socket upgraded with tls.connect({socket}) (STARTTLS, as pg's ssl does)", async () => {
    const { event } = await runOnce(`import net from "net";
      import tls from "tls";
      const roundTrip = ${roundTrip};
      export default { props: { ca: { type: "string" } }, async run() {
        const plain = net.connect(${tls.starttlsPort}, "127.0.0.1");
        plain.write("STARTTLS\\n");
        const answer = await new Promise((r) => plain.once("data", (d) => r(d.toString())));
        const secure = tls.connect({ socket: plain, ca: this.ca, host: "127.0.0.1" });
        await new Promise((r, j) => { secure.once("secureConnect", r); secure.once("error", j); });
        this.$emit({ answer, ...(await roundTrip(secure, "secret")) });
      } };`, { ca: pair.cert });
    assert.deepEqual(event, { answer: "OK\n", echoed: "secret", authorized: true, encrypted: true });
  });

  it("pg with ssl: its SSLRequest, the upgrade to TLS and what the server says over it", async () => {
    const { event } = await runOnce(`import pg from "pg";
      export default { props: { ca: { type: "string" } }, async run() {
        const client = new pg.Client({ host: "127.0.0.1", port: ${tls.pgPort}, user: "u", database: "d", ssl: { ca: this.ca } });
        this.$emit(await client.connect().then(() => "connected", (e) => e.message));
      } };`, { ca: pair.cert });
    assert.equal(event, "startup came over TLSv1.3");
  });

  it("pg with ssl against a real PostgreSQL: connect, query and end() all finish (the plain socket closes with the TLS one)", async (ctx) => {
    const admin = new pg.Client({ host: "127.0.0.1", port: 5432, user: "root", database: "test" });
    if (!(await reachable(() => admin.connect()))) return ctx.skip("PostgreSQL is not reachable on 127.0.0.1:5432");
    await admin.end();
    const { event } = await runOnce(`import pg from "pg";
      export default { props: { ca: { type: "string" } }, async run() {
        const client = new pg.Client({ host: "127.0.0.1", port: ${tls.realPgPort}, user: "root", database: "test", ssl: { ca: this.ca } });
        await client.connect();
        const { rows } = await client.query("select 6 * 7 as answer, current_setting('server_version_num')::int > 0 as real");
        await client.end();
        this.$emit({ ...rows[0], ended: true });
      } };`, { ca: pair.cert });
    assert.deepEqual(event, { answer: 42, real: true, ended: true });
  });

  it("an upgrade refused at once (bad ciphers, a malformed key) closes the plain socket; a reset after it doesn't kill the runner", async () => {
    const closed = holder.closed;
    const { event } = await runOnce(`import net from "net";
      import tls from "tls";
      const line = (s) => new Promise((r) => s.once("data", (d) => r(d.toString())));
      const upgrade = async (options) => {
        const plain = net.connect(${holder.port}, "127.0.0.1");
        plain.write("STARTTLS\\n");
        await line(plain);
        const secure = tls.connect({ socket: plain, host: "127.0.0.1", ...options });
        return new Promise((r) => { secure.once("secureConnect", () => r("secured")); secure.once("error", (e) => r("refused")); });
      };
      export default { async run() {
        const ciphers = await upgrade({ ciphers: "nope" });
        const key = await upgrade({ key: "-----BEGIN PRIVATE KEY-----\\nnot a key\\n-----END PRIVATE KEY-----", cert: "nor a cert" });
        // the server resets the plain sockets it still holds, and says so on another socket
        const control = net.connect(${holder.port}, "127.0.0.1");
        control.write("RESET\\n");
        const done = await line(control);
        control.destroy();
        // one more round trip through the runner after the resets reached it
        const after = await new Promise((r) => { const s = net.connect(${echo.port}, "127.0.0.1", () => s.write("alive")); s.once("data", (d) => { s.destroy(); r(d.toString()); }); });
        this.$emit({ ciphers, key, done, after });
      } };`);
    assert.deepEqual(event, { ciphers: "refused", key: "refused", done: "DONE\n", after: "alive" });
    await waitFor(async () => holder.closed >= closed + 3, 10_000, "the server to see every socket close");
    const again = await runOnce(`export default { run() { this.$emit("runner still up"); } };`);
    assert.equal(again.event, "runner still up");
  });
});

describe("dns: the private network stays unmapped", () => {
  it("reverse lookups and PTR names of loopback and private addresses are refused", async () => {
    const { event } = await runOnce(`import dns from "dns";
      import { promises } from "dns";
      const code = (p) => p.then((v) => "answered " + JSON.stringify(v), (e) => e.code);
      export default { async run() {
        this.$emit({
          loopback: await code(promises.reverse("127.0.0.1")),
          private: await code(promises.reverse("10.0.0.5")),
          v6: await code(promises.reverse("fd00::1")),
          ptr: await code(promises.resolvePtr("5.0.0.10.in-addr.arpa")),
          ptr6: await code(promises.resolvePtr("1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.ip6.arpa")),
          partial: await code(promises.resolvePtr("168.192.in-addr.arpa")),
          cname: await code(promises.resolveCname("localhost")),
          txt: await code(promises.resolveTxt("localhost")),
          cb: await new Promise((r) => dns.reverse("192.168.1.1", (e) => r(e?.code))),
        });
      } };`);
    for (const [what, v] of Object.entries(event)) assert.equal(v, "EADDRNOTALLOWED", what);
  });

  const fake = (records: Record<string, unknown>, addresses: Record<string, string[]>): DnsClient => ({
    resolve: async (name, rrtype) => {
      if (!(`${name} ${rrtype}` in records)) throw Object.assign(new Error("no data"), { code: "ENODATA" });
      return records[`${name} ${rrtype}`];
    },
    reverse: async () => ["host.example"],
    lookup: async (name) => {
      if (!addresses[name]) throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
      return addresses[name].map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
    },
  });

  it("answers naming hosts on the private network are refused, unless the operator allowed them; public ones pass", async () => {
    const client = fake(
      {
        "_ldap._tcp.corp.example SRV": [{ name: "dc1.corp.example", port: 389, priority: 0, weight: 0 }],
        "www.example CNAME": ["edge.example"],
        "alias.example CNAME": ["10.0.0.9"],
        "mail.example MX": [{ exchange: "mx.corp.example", priority: 10 }],
        "info.example TXT": [["hello"]],
        "10.0.0.9.in-addr.arpa PTR": ["dc1.corp.example"],
      },
      { "dc1.corp.example": ["10.0.0.7"], "mx.corp.example": ["192.168.0.2"], "edge.example": ["93.184.216.34"], "internal.example": ["10.1.1.1"] },
    );
    const ask = (args: unknown[], allow: string[] = []) => sandboxDns(args, allow, client).then((v) => v, (e: NodeJS.ErrnoException) => e.code);
    assert.equal(await ask(["resolve", "_ldap._tcp.corp.example", "SRV"]), "EADDRNOTALLOWED");
    assert.equal(await ask(["resolve", "alias.example", "CNAME"]), "EADDRNOTALLOWED");
    assert.equal(await ask(["resolve", "mail.example", "MX"]), "EADDRNOTALLOWED");
    assert.equal(await ask(["resolve", "internal.example", "TXT"]), "EADDRNOTALLOWED");
    assert.equal(await ask(["resolve", "10.0.0.9.in-addr.arpa", "PTR"]), "EADDRNOTALLOWED");
    assert.deepEqual(await ask(["resolve", "www.example", "CNAME"]), ["edge.example"]);
    assert.deepEqual(await ask(["resolve", "info.example", "TXT"]), [["hello"]]);
    assert.deepEqual(await ask(["resolve", "_ldap._tcp.corp.example", "SRV"], ["dc1.corp.example:389"]), [{ name: "dc1.corp.example", port: 389, priority: 0, weight: 0 }]);
    assert.deepEqual(await ask(["reverse", "10.0.0.9"], ["10.0.0.9:22"]), ["host.example"]);
    assert.deepEqual(await ask(["reverse", "93.184.216.34"]), ["host.example"]);
  });
});

describe("addresses of both families", () => {
  it("an allowed name whose first address has no server connects through the next one, every one checked", async () => {
    const both = async () => [{ address: "::1", family: 6 }, { address: "127.0.0.1", family: 4 }];
    const target = await socketTarget("db.internal", echo.port, [`db.internal:${echo.port}`], both);
    assert.deepEqual(target.addresses.map((a) => a.address), ["::1", "127.0.0.1"]);
    const socket = openSocket(target);
    try {
      await new Promise<void>((resolve, reject) => socket.once("connect", () => resolve()).once("error", reject));
      assert.equal(socket.remoteAddress, "127.0.0.1");
    } finally {
      socket.destroy();
    }
    await assert.rejects(socketTarget("db.internal", echo.port, [], both), { code: "EADDRNOTALLOWED" });
    const mixed = async () => [{ address: "93.184.216.34", family: 4 }, { address: "10.0.0.1", family: 4 }];
    await assert.rejects(socketTarget("mixed.example", 443, [], mixed), { code: "EADDRNOTALLOWED" }, "a private address anywhere in the answer refuses the name");
  });
});
