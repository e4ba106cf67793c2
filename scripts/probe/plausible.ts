// Made-up but plausible values for the probe (scripts/pipedream-probe.ts): a connected account's
// auth per app, and a value for each prop a component asks for. Hosts are real-looking names the
// closed network can't resolve, so a component that gets as far as calling its app fails there
// with ENOTFOUND, which is what the probe looks for.

/** what every fake account holds: the field names Pipedream's apps read, with fake values */
const COMMON_AUTH: Record<string, unknown> = {
  oauth_access_token: "probe-access-token",
  oauth_refresh_token: "probe-refresh-token",
  oauth_uid: "U0PROBE",
  api_key: "probe-api-key",
  api_token: "probe-api-token",
  access_token: "probe-access-token",
};

const APP_AUTH: Record<string, Record<string, unknown>> = {
  aws: { accessKeyId: "AKIAPROBEPROBEPROBE00", secretAccessKey: "probe/secret/access/key/probe/probe/probe0" },
  gitlab: { base_api_url: "gitlab.example.com" },
  quickbooks: { company_id: "1234567890" },
  shopify: { shop_id: "probe-shop" },
  mysql: { host: "mysql.example.com", port: 3306, user: "probe", password: "probe", database: "probe" },
  postgresql: { host: "postgres.example.com", port: 5432, user: "probe", password: "probe", database: "probe" },
  sftp: { host: "sftp.example.com", username: "probe", privateKey: "-----BEGIN OPENSSH PRIVATE KEY-----\nprobe\n-----END OPENSSH PRIVATE KEY-----" },
  slack: { bot_token: "xoxb-probe" },
};

export function fakeAuth(app: string): Record<string, unknown> {
  return { ...COMMON_AUTH, ...APP_AUTH[app] };
}

/** a configurable prop as GET /v1/components/{id} describes it */
export interface PropInfo {
  name: string;
  type: string;
  optional?: boolean;
  hidden?: boolean;
  disabled?: boolean;
  default?: unknown;
  options?: unknown[];
  min?: number;
  max?: number;
  app?: string;
  appProp?: string;
  eventNames?: string[];
}

const optionValue = (o: unknown) => (typeof o === "object" && o !== null && "value" in o ? (o as { value: unknown }).value : o);

/** a string that reads like what the prop's name asks for */
function plausibleString(name: string): string {
  const n = name.toLowerCase();
  if (n.includes("url") || n.includes("endpoint")) return "https://app.example.com/probe";
  if (n.includes("path") || n.includes("file")) return "https://app.example.com/probe.jsonl";
  if (n.includes("email")) return "probe@example.com";
  if (n.includes("date") || n.includes("time")) return "2026-01-01T00:00:00Z";
  if (n.endsWith("id") || n.endsWith("ids") || n.includes("channel") || n.includes("conversation")) return "C0PROBE1";
  if (n.includes("condition")) return "id > ?";
  if (n.includes("table")) return "probe_table";
  if (n.includes("column")) return "id";
  if (n.includes("schema")) return "public";
  return "probe";
}

/**
 * The value the probe gives `p`, or undefined to leave it out: an optional prop without a default
 * is left out (as a user in a hurry would) unless `optionalToo`; `account` is the id of the prop's
 * app's account.
 */
export function plausibleValue(p: PropInfo, account: (app: string) => string | undefined, optionalToo: boolean): unknown {
  if (p.type === "app") {
    const id = p.app ? account(p.app) : undefined;
    return id ? { authProvisionId: id } : undefined;
  }
  if (p.default !== undefined || (p.optional && !optionalToo) || p.hidden || p.disabled) return undefined;
  const first = Array.isArray(p.options) && p.options.length > 0 ? optionValue(p.options[0]) : undefined;
  switch (p.type) {
    case "string":
      return first ?? plausibleString(p.name);
    case "string[]":
      return [first ?? plausibleString(p.name)];
    case "integer":
      return first ?? Math.max(p.min ?? 1, Math.min(p.max ?? 10, 10));
    case "integer[]":
      return [first ?? 1];
    case "boolean":
      return false;
    case "object":
      return { probe: "probe" };
    case "any":
      return "probe";
    case "dir":
      // Pipedream's synced /tmp folder: nothing stands behind it here, any value is taken
      return {};
    case "sql":
      return { query: "SELECT 1", params: [] };
    case "http_request":
      return { url: "https://app.example.com/probe", method: "GET" };
    default:
      return undefined;
  }
}

/**
 * The body of the first request an HTTP source gets from its app: Notion's webhooks start with a
 * verification request (the source keeps its token and answers); others get a small JSON object.
 */
export function firstRequest(pkg: string): unknown {
  if (pkg === "notion") return { verification_token: "secret_probe_verification_token" };
  return { id: 1, probe: true };
}

/** Slack's Events API envelope around one message in a channel (what Slack posts to an events URL) */
/**
 * What Slack would send for each kind of event its sources subscribe to (their eventNames(), run
 * by the service with the source's props: the channels and action ids it was given), in the
 * channel it was configured with: a message in a channel and in a DM, a reaction, a new channel,
 * a saved item, a new user (Events API envelopes), and a block action (a form-encoded interaction).
 * Each source gets the ones its names take.
 */
export function slackRequests(configured: Record<string, unknown>): Array<{ body: string; headers: Record<string, string> }> {
  const first = (v: unknown) => (Array.isArray(v) && typeof v[0] === "string" ? v[0] : undefined);
  const channel = first(configured.conversations) ?? first(configured.channels) ?? "C0PROBE1";
  const actionId = first(configured.action_ids) ?? "probe_action";
  const ts = `${Math.floor(Date.now() / 1000)}.000100`;
  const message = {
    type: "message", channel, channel_type: "channel", user: "U0OTHER", text: "probe <@U0PROBE> probe", ts, event_ts: ts,
    client_msg_id: `probe-${Date.now()}`, team: "T0PROBE",
    blocks: [{ type: "rich_text", elements: [{ type: "rich_text_section", elements: [{ type: "user", user_id: "U0PROBE" }, { type: "text", text: " probe" }] }] }],
  };
  const item = { type: "message", channel, ts, message };
  const inner = [
    message,
    { ...message, channel: "D0PROBE1", channel_type: "im", client_msg_id: `probe-im-${Date.now()}` },
    { type: "reaction_added", user: "U0OTHER", reaction: "probe", item, item_user: "U0PROBE", event_ts: ts },
    { type: "channel_created", channel: { id: "C0PROBENEW", name: "probe", created: Math.floor(Date.now() / 1000), creator: "U0OTHER" }, event_ts: ts },
    { type: "star_added", user: "U0OTHER", item, event_ts: ts },
    { type: "team_join", user: { id: "U0NEW", name: "probe", real_name: "Probe", profile: {} }, event_ts: ts },
  ];
  const json = { "content-type": "application/json" };
  const envelopes = inner.map((event, n) => ({
    body: JSON.stringify({ token: "probe", team_id: "T0PROBE", type: "event_callback", event_id: `Ev${Date.now()}${n}`, event_time: Math.floor(Date.now() / 1000), event }),
    headers: json,
  }));
  const interaction = { type: "block_actions", user: { id: "U0OTHER" }, channel: { id: channel }, actions: [{ action_id: actionId, type: "button", value: "probe" }], trigger_id: "probe" };
  return [...envelopes, { body: `payload=${encodeURIComponent(JSON.stringify(interaction))}`, headers: { "content-type": "application/x-www-form-urlencoded" } }];
}
