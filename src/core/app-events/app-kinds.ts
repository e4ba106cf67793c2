import { createHmac, timingSafeEqual } from "node:crypto";
import type { HttpResponse } from "../../runtime/protocol.ts";
import { httpEvent, type IncomingHttp } from "../flow/ingress.ts";
import { isObject } from "../../lib/is-object.ts";

// What each app sends to an account's app-events URL (docs/connecting-accounts.md, "App events"),
// and how it becomes events for apphook props: the names an event goes by (a hook takes it when
// one of its eventNames is among them) and the value its run(event) gets, as Pipedream's own
// apps hand them to the components written for them.

/**
 * One event of a request: the names it matches hooks by, what their runs receive, and the app's
 * id of its delivery when it gives one (the same on the app's retries of it: AppHooks dedupes by it).
 */
export interface AppEvent {
  names: string[];
  event: unknown;
  id?: string;
}

/** A request read: the events in it, or an answer of its own (Slack's url_verification). */
export type AppReading = { events: AppEvent[] } | { reply: HttpResponse };

export interface AppKind {
  /** the auth field that holds the secret requests are signed with, for the docs and errors */
  secretField: string;
  /** the signing secret in the account's auth, if the user put one there */
  secret(auth: Record<string, unknown>): string | undefined;
  /** why a request isn't signed with `secret` (then it is refused), or undefined when it is */
  /** `body`: the request's bytes as they came (a signature is over the bytes, whatever their encoding) */
  badSignature(req: IncomingHttp, body: Buffer, secret: string): string | undefined;
  read(req: IncomingHttp): AppReading;
}

type Headers = IncomingHttp["headers"];
const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);
const header = (h: Headers, name: string): string | undefined => {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
};
const hmac = (secret: string, ...parts: Array<string | Buffer>) => parts.reduce((h, part) => h.update(part), createHmac("sha256", secret));

/** compared in constant time, so a forger learns nothing from how long a refusal took */
function same(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

const firstSecret = (auth: Record<string, unknown>, fields: string[]) => fields.map((f) => str(auth[f])).find((v) => v !== undefined);

/** the hex HMAC-SHA256 of the body, as `sha256=<hex>` in `headerName` (GitHub's scheme) */
function hexSignature(headerName: string) {
  return (req: IncomingHttp, body: Buffer, secret: string) =>
    same(header(req.headers, headerName), `sha256=${hmac(secret, body).digest("hex")}`) ? undefined : `the ${headerName} header is missing or doesn't match the body`;
}

const SLACK_MAX_SKEW_SECONDS = 300;

/**
 * Slack's Events API and interactivity: the names are the inner event's type, `message.<channel_type>`
 * for messages (Slack's own subscription names: message.channels, message.im...) and the message's
 * channel id, and `<type>:<channel>` for an event in a channel; run(event) gets the inner event.
 * An interaction (a form field `payload`) goes by interaction_events[:channel][:action_id]. An
 * event's id is the envelope's `event_id` (an interaction has none: Slack doesn't retry those).
 */
const slack: AppKind = {
  secretField: "signing_secret",
  secret: (auth) => firstSecret(auth, ["signing_secret"]),
  badSignature(req, body, secret) {
    const ts = header(req.headers, "x-slack-request-timestamp");
    if (ts === undefined || !/^\d+$/.test(ts)) return "the x-slack-request-timestamp header is missing";
    if (Math.abs(Date.now() / 1000 - Number(ts)) > SLACK_MAX_SKEW_SECONDS) return "the request's timestamp is more than 5 minutes away (a replay?)";
    const expected = `v0=${hmac(secret, `v0:${ts}:`, body).digest("hex")}`;
    return same(header(req.headers, "x-slack-signature"), expected) ? undefined : "the x-slack-signature header doesn't match the body";
  },
  read(req) {
    const body = httpEvent(req).body;
    if (isObject(body) && typeof body.payload === "string") return { events: slackInteraction(body.payload) };
    if (!isObject(body)) return { events: [] };
    if (body.type === "url_verification") return { reply: { status: 200, headers: {}, body: { challenge: body.challenge } } };
    if (body.type !== "event_callback" || !isObject(body.event)) return { events: [] };
    const id = str(body.event_id);
    return { events: [{ names: slackNames(body.event), event: body.event, ...(id ? { id } : {}) }] };
  },
};

function slackNames(e: Record<string, unknown>): string[] {
  const type = str(e.type);
  if (!type) return [];
  const names = [type];
  const channel = str(e.channel) ?? (isObject(e.item) ? str(e.item.channel) : undefined);
  if (type === "message") {
    if (str(e.channel_type)) names.push(`message.${e.channel_type as string}`);
    if (channel) names.push(channel);
  }
  if (channel) names.push(`${type}:${channel}`);
  return names;
}

function slackInteraction(payload: string): AppEvent[] {
  let p: unknown;
  try {
    p = JSON.parse(payload);
  } catch {
    return [];
  }
  if (!isObject(p)) return [];
  const channel = isObject(p.channel) ? str(p.channel.id) : undefined;
  const actions = Array.isArray(p.actions) ? p.actions.filter(isObject).map((a) => str(a.action_id)).filter((a) => a !== undefined) : [];
  const names = ["interaction_events"];
  if (channel) names.push(`interaction_events:${channel}`);
  for (const a of actions) names.push(`interaction_events:${a}`, ...(channel ? [`interaction_events:${channel}:${a}`] : []));
  return [{ names, event: p }];
}

/**
 * An app that names its event in a header; run(event) gets the request as an HTTP source would.
 * `idHeader`: the header with the app's id of the delivery, if it sends one.
 */
function headerNamed(nameHeader: string, idHeader: string | undefined, secretFields: string[], badSignature: AppKind["badSignature"]): AppKind {
  return {
    secretField: secretFields[0]!,
    secret: (auth) => firstSecret(auth, secretFields),
    badSignature,
    read(req) {
      const event = httpEvent(req);
      const body = event.body;
      const named = header(req.headers, nameHeader) ?? (isObject(body) ? (str(body.type) ?? str(body.event)) : undefined);
      const id = idHeader === undefined ? undefined : str(header(req.headers, idHeader));
      return { events: [{ names: [named ?? "event"], event, ...(id ? { id } : {}) }] };
    },
  };
}

/** Shopify: the topic (`orders/create`, `customers/data_request`), signed with the app's secret in base64. */
const shopify = headerNamed("x-shopify-topic", "x-shopify-webhook-id", ["webhook_secret", "client_secret"], (req, body, secret) =>
  same(header(req.headers, "x-shopify-hmac-sha256"), hmac(secret, body).digest("base64")) ? undefined : "the x-shopify-hmac-sha256 header is missing or doesn't match the body",
);

const github = headerNamed("x-github-event", "x-github-delivery", ["webhook_secret"], hexSignature("x-hub-signature-256"));

/** Any other app: the X-Event-Name header, else the JSON body's `type` or `event`, else "event". */
const generic = headerNamed("x-event-name", undefined, ["webhook_secret"], hexSignature("x-signature-256"));

const KINDS: Record<string, AppKind> = { slack, slack_bot: slack, shopify, shopify_developer_app: shopify, github };

export function appKind(app: string): AppKind {
  return Object.hasOwn(KINDS, app) ? KINDS[app]! : generic;
}
