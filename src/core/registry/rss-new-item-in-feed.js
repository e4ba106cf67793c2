import { axios, ConfigurationError, defineComponent, DEFAULT_POLLING_SOURCE_TIMER_INTERVAL } from "@pipedream/platform";
import { XMLParser } from "fast-xml-parser";
import { createHash } from "crypto";

// The dedupe "unique" memory is the last 100 ids; emitting more items than that per poll would
// push ids out of it and re-emit them on the next poll, so only the newest 100 items are taken.
const MAX_ITEMS = 100;

// Feeds put text in several shapes: "x", { "#text": "x", ... }, [ "x", ... ], or CDATA objects.
function text(value) {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) return text(value[0]);
  if (typeof value === "object") return text(value["#text"] ?? value.__cdata);
  const s = String(value).trim();
  return s === "" ? undefined : s;
}

function list(value) {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

function time(value) {
  const ms = Date.parse(text(value) ?? "");
  return Number.isNaN(ms) ? undefined : ms;
}

// Atom entries have several <link>s; the alternate one (or the only one) is the item's page.
function atomLink(links) {
  const all = list(links);
  const alt = all.find((l) => typeof l === "object" && (l["@_rel"] ?? "alternate") === "alternate") ?? all[0];
  return typeof alt === "object" ? alt["@_href"] : text(alt);
}

function fromRss(item) {
  return {
    id: text(item.guid) ?? text(item.link),
    title: text(item.title),
    link: text(item.link),
    summary: text(item.description),
    author: text(item.author) ?? text(item["dc:creator"]),
    published: time(item.pubDate) ?? time(item["dc:date"]),
    item,
  };
}

function fromAtom(entry) {
  const link = atomLink(entry.link);
  return {
    id: text(entry.id) ?? link,
    title: text(entry.title),
    link,
    summary: text(entry.summary) ?? text(entry.content),
    author: text(entry.author?.name),
    published: time(entry.published) ?? time(entry.updated),
    item: entry,
  };
}

function fromJsonFeed(item) {
  return {
    id: item.id !== undefined ? String(item.id) : item.url,
    title: item.title,
    link: item.url,
    summary: item.summary ?? item.content_text,
    author: item.authors?.[0]?.name ?? item.author?.name,
    published: time(item.date_published) ?? time(item.date_modified),
    item,
  };
}

function isJsonFeed(doc) {
  return doc !== null && typeof doc === "object" && (Array.isArray(doc.items) || /jsonfeed\.org\/version\//.test(String(doc.version)));
}

// Returns undefined when the document is not a feed.
function parseFeed(body) {
  if (typeof body === "object" && body !== null) return isJsonFeed(body) ? list(body.items).map(fromJsonFeed) : undefined;
  const source = String(body).trim();
  if (source.startsWith("{")) {
    const doc = JSON.parse(source);
    return isJsonFeed(doc) ? list(doc.items).map(fromJsonFeed) : undefined;
  }
  // parseTagValue: false keeps text as written: a guid "00042" or a title "2.10" is not a number.
  const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@_", parseTagValue: false }).parse(source);
  if (doc.feed) return list(doc.feed.entry).map(fromAtom);
  if (doc.rss) return list(doc.rss.channel?.item).map(fromRss);
  if (doc["rdf:RDF"]) return list(doc["rdf:RDF"].item).map(fromRss);
  return undefined;
}

// An item with neither guid/id nor link still needs a stable id for dedupe: a hash of its content.
function withId(item) {
  if (item.id !== undefined) return item;
  return { ...item, id: "sha256:" + createHash("sha256").update(JSON.stringify(item.item)).digest("hex") };
}

// The feed's items, each with an id; a clear error naming the URL when the body is not a feed.
function feedItems(url, body) {
  let items;
  try {
    items = parseFeed(body);
  } catch (e) {
    throw new Error(`${url} is not an RSS 2.0, Atom or JSON Feed document (${e?.message ?? e})`, { cause: e });
  }
  if (!items) throw new Error(`${url} is not an RSS 2.0, Atom or JSON Feed document`);
  return items.map(withId);
}

export default defineComponent({
  key: "rss-new-item-in-feed",
  name: "New Item in Feed",
  version: "0.0.1",
  description: "Emit an event for each new item in an RSS 2.0, Atom or JSON Feed feed.",
  type: "source",
  dedupe: "unique",
  props: {
    url: {
      type: "string",
      label: "Feed URL",
      description: "The URL of the RSS 2.0, Atom or JSON Feed feed to watch.",
    },
    timer: {
      type: "$.interface.timer",
      label: "Polling interval",
      description: "How often to check the feed for new items.",
      default: { intervalSeconds: DEFAULT_POLLING_SOURCE_TIMER_INTERVAL },
    },
  },
  methods: {
    async fetchFeed() {
      if (!/^https?:\/\//i.test(this.url ?? "")) throw new ConfigurationError(`url must be an http(s) URL, got ${JSON.stringify(this.url)}`);
      try {
        return await axios(this, {
          url: this.url,
          responseType: "text",
          headers: { accept: "application/rss+xml, application/atom+xml, application/feed+json, application/xml;q=0.9, */*;q=0.8" },
        });
      } catch (e) {
        const status = e?.response?.status;
        throw new Error(`fetching the feed ${this.url} failed: ${status ? `HTTP ${status}` : e?.message ?? String(e)}`, { cause: e });
      }
    },
  },
  async run() {
    let items = feedItems(this.url, await this.fetchFeed());
    // Oldest first, so that subscribers see the feed in the order it was written. Without dates on
    // every item, trust the document order, which feeds keep newest first.
    const dated = items.every((i) => i.published !== undefined);
    if (dated) items.sort((a, b) => a.published - b.published);
    else items.reverse();
    items = items.slice(-MAX_ITEMS);
    for (const item of items) {
      const meta = { id: item.id, summary: item.title ?? item.link ?? "New item" };
      // ts orders the emits; with some items undated, the call order (document order) is kept instead
      this.$emit(item, dated ? { ...meta, ts: item.published } : meta);
    }
  },
});
