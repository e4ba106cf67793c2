import { createServer, type Server } from "node:http";
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { startService } from "./processes.ts";
import { Api, ms, table } from "./util.ts";

// OAuth token refresh (the `oauth` bench): what refreshing an expiring token adds to the
// invocation that finds it expiring, and what connected accounts add to the others. A token
// endpoint in this process gives 2-second tokens, so about every second a request reaches the
// second half of its token's life and its invocation refreshes it (one refresh, however many
// requests are running). Requests go one after another to an HTTP source that answers from its
// run (so a request's latency is its invocation's), with an OAuth account in an app prop; the
// same source without the account is the yardstick for "none to the others".
// Targets: refresh adds < 50 ms; the others, within 1 ms of the source without an account.

/** requests go on until this many invocations refreshed (about one a second), or MAX_MS */
const REFRESHES = 10;
const MAX_MS = 40_000;

const source = (withAccount: boolean) => `export default {
  props: { ${withAccount ? 'github: { type: "app", app: "github" },' : ""} http: { type: "$.interface.http", customResponse: true } },
  async run() { this.http.respond({ status: 200, body: ${withAccount ? "String(this.github.$auth.oauth_access_token).length" : "0"} }); },
};`;

/** An authorization server: /authorize sends the browser back at once, /token gives 2 s tokens. */
function provider(): { server: Server; refreshes: () => number } {
  let refreshes = 0;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname === "/authorize") {
      const back = new URL(url.searchParams.get("redirect_uri")!);
      back.searchParams.set("code", randomUUID());
      back.searchParams.set("state", url.searchParams.get("state")!);
      return void res.writeHead(302, { location: back.href }).end();
    }
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      if (new URLSearchParams(body).get("grant_type") === "refresh_token") refreshes += 1;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ access_token: randomUUID(), token_type: "bearer", expires_in: 2, refresh_token: randomUUID() }));
    });
  });
  return { server, refreshes: () => refreshes };
}

const median = (xs: number[]) => (xs.length === 0 ? NaN : [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!);

export async function benchOAuth(): Promise<void> {
  const p = provider();
  await new Promise<void>((r) => p.server.listen(0, "127.0.0.1", r));
  const issuer = `http://127.0.0.1:${(p.server.address() as { port: number }).port}`;
  const key = "bench-admin-key";
  const service = await startService(key);
  try {
    const api = new Api(service.url, key);
    await api.call("POST", "/v1/oauth_apps", { app: "github", client_id: "bench", client_secret: "s", authorize_url: `${issuer}/authorize`, token_url: `${issuer}/token` });
    const flow = await api.call<{ data: { id: string; authorize_url: string } }>("POST", "/v1/accounts/connect", { app: "github" });
    const back = (await fetch(flow.data.authorize_url, { redirect: "manual" })).headers.get("location")!;
    const callback = new URL(back);
    // the callback's question, answered
    const form = new URLSearchParams(callback.search);
    form.set("decision", "connect");
    await fetch(`${service.url}/oauth/callback`, { method: "POST", body: form });
    const account = (await api.call<{ data: { account_id: string } }>("GET", `/v1/accounts/connect/${flow.data.id}`)).data.account_id;
    const endpoint = async (withAccount: boolean) => {
      const props = withAccount ? { github: { authProvisionId: account } } : {};
      const s = await api.call<{ data: { configured_props: { http: { endpoint_url: string } } } }>("POST", "/v1/sources/", { component_code: source(withAccount), configured_props: props });
      return `${service.url}${new URL(s.data.configured_props.http.endpoint_url).pathname}`;
    };
    const withAccount = await endpoint(true);
    const without = await endpoint(false);
    const refreshing: number[] = [];
    const others: number[] = [];
    const plain: number[] = [];
    const deadline = Date.now() + MAX_MS;
    while (refreshing.length < REFRESHES && Date.now() < deadline) {
      const before = p.refreshes();
      let t0 = performance.now();
      await (await fetch(withAccount, { method: "POST" })).text();
      (p.refreshes() > before ? refreshing : others).push(performance.now() - t0);
      t0 = performance.now();
      await (await fetch(without, { method: "POST" })).text();
      plain.push(performance.now() - t0);
    }
    const added = median(refreshing) - median(others);
    const othersAdded = median(others) - median(plain);
    table(`OAuth refresh: requests to an HTTP source with an OAuth account (2 s tokens), each beside one to a source without`, [
      { metric: "requests", value: String(refreshing.length + others.length) },
      { metric: "requests whose invocation refreshed the token", value: String(refreshing.length) },
      { metric: "refreshes the token endpoint saw", value: String(p.refreshes()) },
      { metric: "median request, source without an account", value: ms(median(plain)) },
      { metric: "median request, account token fresh", value: ms(median(others)) },
      { metric: "median request, invocation that refreshed", value: ms(median(refreshing)) },
      { metric: "added by a refresh", value: ms(added), target: "< 50 ms", pass: added < 50 },
      { metric: "added to the others by the account", value: ms(othersAdded), target: "< 1 ms", pass: othersAdded < 1 },
    ]);
  } finally {
    await service.stop();
    await new Promise((r) => p.server.close(r));
  }
}
