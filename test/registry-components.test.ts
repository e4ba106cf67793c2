import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { endpointPath, eventsOf, startApp, waitEvents, waitFor, type TestApp } from "./helpers.ts";

// The components shipped with the service (docs/api.md, "The registry"), driven end to end through the API: each
// is created from the registry by key, run by its real trigger (a poll, an HTTP request, a timer
// tick, a delivered event), and judged by what lands on its streams.

const feed = (name: string): string => readFileSync(join(import.meta.dirname, "fixtures", "feeds", name), "utf8");
const RSS = feed("rss2.xml");
const ATOM = feed("atom.xml");
const JSON_FEED = feed("feed.json");

const NEW_RSS_ITEM = `<item>
      <title>Fresh off the press</title>
      <link>https://blog.example.com/2025/03/fresh</link>
      <guid isPermaLink="false">blog.example.com,2025:post-104</guid>
      <pubDate>Thu, 06 Mar 2025 07:00:00 +0000</pubDate>
      <description>A brand new post.</description>
    </item>
    `;

interface FeedServer {
  origin: string;
  hostPort: string;
  /** path → [content type, body]; mutable: a change is served from the next request on */
  files: Map<string, [string, string]>;
  /** how many requests each path got */
  hits(path: string): number;
  close(): Promise<void>;
}

async function serveFeeds(files: Record<string, [string, string]>): Promise<FeedServer> {
  const map = new Map(Object.entries(files));
  const counts = new Map<string, number>();
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    counts.set(path, (counts.get(path) ?? 0) + 1);
    const file = map.get(path);
    if (!file) return void res.writeHead(404, { "content-type": "text/html" }).end("<html><body>Not Found</body></html>");
    res.writeHead(200, { "content-type": file[0] }).end(file[1]);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hostPort: `127.0.0.1:${port}`,
    files: map,
    hits: (path) => counts.get(path) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function createRegistrySource(t: TestApp, key: string, configured_props: Record<string, unknown> = {}) {
  const res = await t.request("POST", "/v1/sources/", { body: { key, configured_props } });
  assert.equal(res.status, 200, res.text);
  return res.body.data as { id: string; configured_props: Record<string, any>; component_id: string };
}

async function runNow(t: TestApp, id: string, body: Record<string, unknown> = {}): Promise<void> {
  const res = await t.request("POST", `/v1/sources/${id}/run`, { body });
  assert.equal(res.status, 202, res.text);
}

/** A poll source on a long interval, so only explicit runs poll during the test. */
const pollFeed = (t: TestApp, url: string) =>
  createRegistrySource(t, "rss-new-item-in-feed", { url, timer: { intervalSeconds: 3600 } });

/** Runs the source and waits until the feed server has answered that poll. */
async function poll(t: TestApp, server: FeedServer, id: string, path: string): Promise<void> {
  const before = server.hits(path);
  await runNow(t, id);
  await waitFor(async () => server.hits(path) > before, 5000, `a poll of ${path}`);
}

describe("registry components", () => {
  let server: FeedServer;
  let t: TestApp;
  before(async () => {
    server = await serveFeeds({
      "/rss.xml": ["application/rss+xml; charset=utf-8", RSS],
      "/atom.xml": ["application/atom+xml", ATOM],
      "/feed.json": ["application/feed+json", JSON_FEED],
      "/page.html": ["text/html", "<!doctype html><html><head><title>Hi</title></head><body>Not a feed</body></html>"],
      "/data.json": ["application/json", '{"hello": "world"}'],
    });
    t = await startApp({ TRIBUTARY_FETCH_ALLOW: server.hostPort });
  });
  after(async () => {
    await t?.close();
    await server?.close();
  });

  it("GET /v1/components/registry/{key} returns each shipped component's code", async () => {
    const props: Record<string, string[]> = {};
    for (const key of ["rss-new-item-in-feed", "http-new-requests", "schedule-custom-interval", "emit-on-subscription"]) {
      const res = await t.request("GET", `/v1/components/registry/${key}`);
      assert.equal(res.status, 200, res.text);
      const c = res.body.data;
      assert.equal(c.code, readFileSync(join(import.meta.dirname, "..", "src", "core", "registry", `${key}.js`), "utf8"));
      assert.match(c.id, /^sc_/);
      assert.equal(typeof c.name, "string");
      assert.equal(c.version, "0.0.1");
      props[key] = c.configurable_props.map((p: { name: string; type: string }) => `${p.name}:${p.type}`);
    }
    assert.deepEqual(props, {
      "rss-new-item-in-feed": ["url:string", "timer:$.interface.timer"],
      "http-new-requests": ["http:$.interface.http"],
      "schedule-custom-interval": ["timer:$.interface.timer"],
      "emit-on-subscription": [],
    });
    assert.equal((await t.request("GET", "/v1/components/registry/no-such-component")).status, 404);
    // the feed's timer defaults to 900 s
    const src = await createRegistrySource(t, "rss-new-item-in-feed", { url: server.origin + "/rss.xml" });
    assert.deepEqual(src.configured_props.timer, { cron: null, interval_seconds: 900 });
  });

  describe("rss-new-item-in-feed", () => {
    it("RSS 2.0: one event per item, oldest first; a second poll emits nothing; a new item alone is emitted", async () => {
      const path = "/rss.xml";
      const src = await pollFeed(t, server.origin + path);
      assert.deepEqual(src.configured_props.timer, { cron: null, interval_seconds: 3600 });
      await runNow(t, src.id);
      const events = await waitEvents(t, src.id, 3);
      assert.equal(events.length, 3);
      // newest first in the listing = the emit order reversed: the feed was emitted oldest first
      const [qa, streams, release] = events.map((e) => e.event);
      assert.equal(qa.title, "Q&A: Why \u201cdedupe\u201d matters");
      assert.equal(qa.link, "https://blog.example.com/2025/03/qa-dedupe");
      assert.equal(qa.id, "blog.example.com,2025:post-103");
      assert.equal(qa.author, "Ada Lovelace");
      assert.equal(qa.summary, "<p>Duplicates are <strong>not</strong> welcome & neither are <em>gaps</em>.</p>");
      assert.equal(qa.published, Date.parse("2025-03-05T09:30:00Z"));
      assert.equal(typeof qa.item, "object");
      assert.equal(streams.id, "https://blog.example.com/2025/02/streams-explained");
      assert.equal(streams.author, "grace@example.com (Grace Hopper)");
      assert.equal(streams.summary, "How the default stream, $errors and $logs relate.");
      // text stays text: a numeric-looking title or guid must not turn into a number
      assert.equal(release.title, "2.10");
      assert.equal(release.id, "00042");
      // metadata: dedupe id, a summary (the title), ts = the item's date
      assert.deepEqual(
        events.map((e) => [e.metadata.id, e.metadata.summary, e.metadata.ts]),
        [
          ["blog.example.com,2025:post-103", "Q&A: Why \u201cdedupe\u201d matters", Date.parse("2025-03-05T09:30:00Z")],
          ["https://blog.example.com/2025/02/streams-explained", "Streams, explained", Date.parse("2025-02-17T14:00:00Z")],
          ["00042", "2.10", Date.parse("2025-01-10T08:00:00Z")],
        ],
      );

      // second poll of the same feed: nothing new. Results of one source are committed in the
      // order the runs started, so once the third poll's event is in, the second's are too.
      await poll(t, server, src.id, path);
      server.files.set(path, ["application/rss+xml", RSS.replace("<item>", NEW_RSS_ITEM + "<item>")]);
      await poll(t, server, src.id, path);
      const after = await waitEvents(t, src.id, 4);
      assert.equal(after.length, 4, "only the new item is emitted");
      assert.equal(after[0].event.title, "Fresh off the press");
      assert.equal(after[0].metadata.id, "blog.example.com,2025:post-104");
      assert.deepEqual(await eventsOf(t, src.id, "$errors"), []);
    });

    it("Atom: entries with their alternate link, id, dates and author", async () => {
      const path = "/atom.xml";
      const src = await pollFeed(t, server.origin + path);
      await runNow(t, src.id);
      const events = await waitEvents(t, src.id, 2);
      assert.equal(events.length, 2);
      const [timers, hello] = events.map((e) => e.event);
      assert.equal(timers.id, "tag:eng.example.org,2025:posts/2");
      assert.equal(timers.link, "https://eng.example.org/posts/timers-and-cron", "the alternate link, not the edit link");
      assert.match(timers.title, /^Timers &(amp;)? cron in <b>UTC<\/b>$/);
      assert.equal(timers.summary, "Why every schedule is in UTC.");
      assert.equal(timers.author, "Margaret Hamilton");
      assert.equal(timers.published, Date.parse("2025-03-04T18:30:02Z"));
      assert.equal(hello.link, "https://eng.example.org/posts/hello-atom");
      assert.equal(hello.title, "Hello, Atom");
      assert.equal(hello.summary, "<p>First post, with <code>&lt;markup&gt;</code>.</p>");
      assert.equal(hello.published, Date.parse("2025-02-01T07:00:00Z"));
      assert.equal(events[0].metadata.summary, timers.title);
      assert.equal(events[1].metadata.id, "tag:eng.example.org,2025:posts/1");

      await poll(t, server, src.id, path);
      const entry = `<entry><title>Third</title><link href="https://eng.example.org/posts/third"/><id>tag:eng.example.org,2025:posts/3</id><updated>2025-03-06T00:00:00Z</updated></entry>`;
      server.files.set(path, ["application/atom+xml", ATOM.replace("<entry>", entry + "\n  <entry>")]);
      await poll(t, server, src.id, path);
      const after = await waitEvents(t, src.id, 3);
      assert.equal(after.length, 3);
      assert.equal(after[0].event.id, "tag:eng.example.org,2025:posts/3");
    });

    it("JSON Feed: items with id, url, title, summary and date", async () => {
      const path = "/feed.json";
      const src = await pollFeed(t, server.origin + path);
      await runNow(t, src.id);
      const events = await waitEvents(t, src.id, 2);
      assert.equal(events.length, 2);
      const [ep12, ep11] = events.map((e) => e.event);
      assert.equal(ep12.id, "ep-12");
      assert.equal(ep12.link, "https://pod.example.net/episodes/12");
      assert.equal(ep12.title, "Episode 12: Back-pressure & you");
      assert.equal(ep12.summary, "Queues, limits and what happens when they fill up.");
      assert.equal(ep12.author, "Linus Example");
      assert.equal(ep12.published, Date.parse("2025-03-01T12:00:00Z"));
      assert.equal(ep11.id, "11", "a numeric JSON Feed id is a string id");
      assert.equal(ep11.summary, "Why every handler should be safe to run twice.");
      assert.deepEqual(events.map((e) => e.metadata.summary), ["Episode 12: Back-pressure & you", "Episode 11: Idempotency"]);

      await poll(t, server, src.id, path);
      const doc = JSON.parse(JSON_FEED);
      doc.items.unshift({ id: "ep-13", url: "https://pod.example.net/episodes/13", title: "Episode 13", date_published: "2025-03-08T12:00:00Z" });
      server.files.set(path, ["application/feed+json", JSON.stringify(doc)]);
      await poll(t, server, src.id, path);
      const after = await waitEvents(t, src.id, 3);
      assert.equal(after.length, 3);
      assert.equal(after[0].event.id, "ep-13");
    });

    it("a feed longer than the dedupe memory: the newest 100 items, and no re-emits on later polls", async () => {
      const path = "/big.xml";
      const item = (i: number) =>
        `<item><title>Item ${i}</title><link>https://big.example.com/${i}</link><pubDate>${new Date(Date.UTC(2025, 0, 1, 0, i)).toUTCString()}</pubDate></item>`;
      const doc = (n: number) => `<?xml version="1.0"?><rss version="2.0"><channel><title>Big</title>${Array.from({ length: n }, (_, k) => item(n - k)).join("")}</channel></rss>`;
      server.files.set(path, ["application/rss+xml", doc(130)]);
      const src = await pollFeed(t, server.origin + path);
      await poll(t, server, src.id, path);
      const first = await waitEvents(t, src.id, 100);
      assert.equal(first[0].event.title, "Item 130");
      assert.equal(first[99].event.title, "Item 31");
      // poll again (nothing new), then with one more item: only that one comes, nothing re-emitted between
      await poll(t, server, src.id, path);
      server.files.set(path, ["application/rss+xml", doc(131)]);
      await poll(t, server, src.id, path);
      const after = await waitFor(async () => {
        const events = await eventsOf(t, src.id);
        return events[0].event.title === "Item 131" ? events : undefined;
      }, 5000, "Item 131");
      assert.deepEqual(after.slice(0, 3).map((e) => e.event.title), ["Item 131", "Item 130", "Item 129"]);
    });

    it("items with no guid, link or date get a stable id from their content and are deduped", async () => {
      const path = "/bare.xml";
      const item = (s: string) => `<item><title>${s}</title><description>About ${s}</description></item>`;
      const doc = (titles: string[]) => `<rss version="2.0"><channel><title>Bare</title>${titles.map(item).join("")}</channel></rss>`;
      server.files.set(path, ["text/xml", doc(["B", "A"])]);
      const src = await pollFeed(t, server.origin + path);
      await poll(t, server, src.id, path);
      const first = await waitEvents(t, src.id, 2);
      // undated: document order (newest first) is kept, so A was emitted first
      assert.deepEqual(first.map((e) => e.event.title), ["B", "A"]);
      for (const e of first) assert.match(e.metadata.id, /^sha256:[0-9a-f]{64}$/);
      await poll(t, server, src.id, path);
      server.files.set(path, ["text/xml", doc(["C", "B", "A"])]);
      await poll(t, server, src.id, path);
      const after = await waitEvents(t, src.id, 3);
      assert.deepEqual(after.map((e) => e.event.title), ["C", "B", "A"]);
      assert.deepEqual(await eventsOf(t, src.id, "$logs"), [], "no dedupe warnings: every emit has an id");
    });

    it("a feed URL that 404s, or is not a feed, records a clear error and emits nothing", async () => {
      const cases: [string, RegExp][] = [
        ["/missing.xml", /404/],
        ["/page.html", /not an RSS 2\.0, Atom or JSON Feed/],
        ["/data.json", /not an RSS 2\.0, Atom or JSON Feed/],
      ];
      for (const [path, message] of cases) {
        const src = await pollFeed(t, server.origin + path);
        await runNow(t, src.id);
        const [err] = await waitEvents(t, src.id, 1, "$errors");
        assert.match(err.event.error.message, message, path);
        assert.ok(err.event.error.message.includes(server.origin + path), `the message names the URL: ${err.event.error.message}`);
        assert.deepEqual(await eventsOf(t, src.id), [], path);
      }
    });

    it("a URL that is not http(s) is refused on $errors", async () => {
      const src = await pollFeed(t, "ftp://example.com/feed.xml");
      await runNow(t, src.id);
      const [err] = await waitEvents(t, src.id, 1, "$errors");
      assert.match(err.event.error.message, /http\(s\)/);
      assert.deepEqual(await eventsOf(t, src.id), []);
    });
  });

  it("http-new-requests: each request to the endpoint is emitted", async () => {
    const src = await createRegistrySource(t, "http-new-requests");
    const path = endpointPath(src);
    const res = await t.request("POST", `${path}/orders?ref=abc`, {
      key: null,
      raw: '{"order": 17, "items": ["a", "b"]}',
      headers: { "content-type": "application/json", "x-signature": "s1" },
    });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { success: true });
    await t.request("GET", `${path}?ping=1`, { key: null });
    const events = await waitEvents(t, src.id, 2);
    const [get, post] = events;
    assert.equal(post.event.method, "POST");
    assert.equal(post.event.path, "/orders");
    assert.deepEqual(post.event.query, { ref: "abc" });
    assert.deepEqual(post.event.body, { order: 17, items: ["a", "b"] });
    assert.equal(post.event.bodyRaw, '{"order": 17, "items": ["a", "b"]}');
    assert.equal(post.event.headers["x-signature"], "s1");
    assert.equal(post.metadata.summary, "POST /orders");
    assert.equal(get.event.method, "GET");
    assert.deepEqual(get.event.query, { ping: "1" });
    assert.equal(get.metadata.summary, "GET /");
  });

  it("schedule-custom-interval: emits each tick", async () => {
    const started = Math.floor(Date.now() / 1000);
    const src = await createRegistrySource(t, "schedule-custom-interval", { timer: { intervalSeconds: 1 } });
    const events = await waitEvents(t, src.id, 2, "", 3000);
    const [later, earlier] = events;
    for (const e of events) {
      assert.ok(Number.isInteger(e.event.timestamp) && e.event.timestamp >= started - 1 && e.event.timestamp <= started + 5, JSON.stringify(e.event));
      assert.equal(e.metadata.ts, e.event.timestamp * 1000);
      assert.equal(e.metadata.summary, new Date(e.event.timestamp * 1000).toISOString());
    }
    assert.ok(later.event.timestamp >= earlier.event.timestamp);
    await t.request("DELETE", `/v1/sources/${src.id}`);
  });

  it("emit-on-subscription: re-emits the delivered event", async () => {
    // Subscription delivery to this source isn't built yet; POST /run with an event is delivered
    // the same way (as run's event), so it stands in for a delivery here.
    const src = await createRegistrySource(t, "emit-on-subscription");
    await runNow(t, src.id, { event: { x: 1 } });
    await runNow(t, src.id, { event: { summary: "order shipped", order: 9 } });
    const events = await waitEvents(t, src.id, 2);
    assert.deepEqual(events[1].event, { x: 1 });
    assert.equal(events[1].metadata.summary, "Received event");
    assert.deepEqual(events[0].event, { summary: "order shipped", order: 9 });
    assert.equal(events[0].metadata.summary, "order shipped");
  });
});

describe("rss-new-item-in-feed without TRIBUTARY_FETCH_ALLOW", () => {
  it("a loopback feed URL is refused on $errors, nothing emitted", async () => {
    const server = await serveFeeds({ "/rss.xml": ["application/rss+xml", RSS] });
    const t = await startApp();
    try {
      const src = await pollFeed(t, server.origin + "/rss.xml");
      await runNow(t, src.id);
      const [err] = await waitEvents(t, src.id, 1, "$errors");
      assert.match(err.event.error.message, /not allowed/);
      assert.match(err.event.error.message, /loopback/);
      assert.deepEqual(await eventsOf(t, src.id), []);
      assert.equal(server.hits("/rss.xml"), 0, "the feed server was never reached");
    } finally {
      await t.close();
      await server.close();
    }
  });
});
