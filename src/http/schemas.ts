import { Type, type TSchema } from "typebox";

// Shapes of requests and responses, for validation, fast serialization and /v1/openapi.json.

export const ErrorEnvelope = Type.Object(
  {
    error: Type.Object({
      code: Type.String(),
      message: Type.String(),
      details: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }))),
    }),
  },
  { $id: "ErrorEnvelope" },
);

const errorRef = Type.Unsafe({ $ref: "ErrorEnvelope#" });

/** The error statuses every authenticated route can answer with. */
export function withErrors(ok: Record<number, TSchema>, extra: number[] = []): Record<number, TSchema> {
  const out: Record<number, TSchema> = { ...ok };
  for (const status of [400, 401, 404, 415, 500, ...extra]) out[status] = errorRef;
  return out;
}

export const Filter = {
  include: Type.Optional(Type.String({ description: "comma-separated fields to include" })),
  exclude: Type.Optional(Type.String({ description: "comma-separated fields to exclude" })),
};

export const Paging = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
  after: Type.Optional(Type.String()),
  before: Type.Optional(Type.String()),
};

export const PageInfo = Type.Object({
  total_count: Type.Integer(),
  count: Type.Integer(),
  start_cursor: Type.String(),
  end_cursor: Type.String(),
});

export const page = (item: TSchema) => Type.Object({ page_info: PageInfo, data: Type.Array(item) });
export const data = (item: TSchema) => Type.Object({ data: item });

export const IdParams = Type.Object({ id: Type.String() });

export const User = Type.Object({
  id: Type.String(),
  username: Type.String(),
  email: Type.String(),
  admin: Type.Boolean(),
  api_key: Type.String(),
  daily_compute_time_quota: Type.Integer(),
  daily_compute_time_used: Type.Integer(),
  daily_invocations_quota: Type.Integer(),
  daily_invocations_used: Type.Integer(),
  orgs: Type.Array(Type.Unknown(), { description: "the organizations the user belongs to (Pipedream's field): always empty here" }),
});

/** Users listed by an admin: no key (only hashes are stored). */
export const UserSummary = Type.Object({
  id: Type.String(),
  username: Type.String(),
  email: Type.String(),
  admin: Type.Boolean(),
  created_at: Type.Integer(),
});

export const ConfigurableProp = Type.Object(
  {
    name: Type.String(),
    type: Type.String(),
    label: Type.Optional(Type.String()),
    description: Type.Optional(Type.String()),
    app: Type.Optional(Type.String()),
    default: Type.Optional(Type.Unknown()),
    hidden: Type.Optional(Type.Boolean({ description: "not shown where props are set, and never required (additionalProps() may change it)" })),
    disabled: Type.Optional(Type.Boolean({ description: "shown but not to be set, and never required (additionalProps() may change it)" })),
    appProp: Type.Optional(Type.String()),
    eventNames: Type.Optional(Type.Array(Type.String())),
    alertType: Type.Optional(Type.String({ description: "an `alert` prop's kind: info, neutral, warning or error" })),
    content: Type.Optional(Type.String({ description: "an `alert` prop's text (Markdown), shown where the props are set" })),
  },
  { additionalProperties: true },
);

export const Component = Type.Object({
  id: Type.String(),
  code: Type.String(),
  code_hash: Type.String(),
  name: Type.String(),
  version: Type.String(),
  key: Type.Union([Type.String(), Type.Null()], { description: "the component's own key (a registry component is also found by it)" }),
  type: Type.String({ description: '"source" or "action"' }),
  description: Type.Union([Type.String(), Type.Null()]),
  configurable_props: Type.Array(ConfigurableProp),
  created_at: Type.Integer(),
  updated_at: Type.Integer(),
});

/** A component in a list: as GET /v1/components/{id} shows it, without its code. */
export const ComponentSummary = Type.Object({
  id: Type.String(),
  code_hash: Type.String(),
  name: Type.String(),
  version: Type.String(),
  key: Type.Union([Type.String(), Type.Null()], { description: "the component's own key (a registry component is also found by it)" }),
  type: Type.String({ description: '"source" or "action"' }),
  description: Type.Union([Type.String(), Type.Null()]),
  configurable_props: Type.Array(ConfigurableProp),
  created_at: Type.Integer(),
  updated_at: Type.Integer(),
});

export const ComponentBody = Type.Object({
  component_code: Type.Optional(Type.String()),
  component_url: Type.Optional(Type.String()),
  ...Filter,
});

export const Source = Type.Object({
  id: Type.String(),
  user_id: Type.Optional(Type.String()),
  component_id: Type.String(),
  configured_props: Type.Object({}, { additionalProperties: true }),
  active: Type.Boolean(),
  created_at: Type.Integer(),
  updated_at: Type.Integer(),
  name: Type.String(),
  name_slug: Type.String(),
});

export const SourceBody = Type.Object({
  component_id: Type.Optional(Type.String()),
  component_code: Type.Optional(Type.String()),
  component_url: Type.Optional(Type.String()),
  key: Type.Optional(Type.String()),
  name: Type.Optional(Type.String()),
  configured_props: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  active: Type.Optional(Type.Boolean()),
  ...Filter,
});

export const Subscription = Type.Object({
  id: Type.String(),
  emitter_id: Type.String(),
  listener_id: Type.String(),
  event_name: Type.String(),
});

export const SubscriptionParams = Type.Object({
  emitter_id: Type.Optional(Type.String()),
  listener_id: Type.Optional(Type.String()),
  event_name: Type.Optional(Type.String()),
  ...Filter,
});

export const AutoSubscription = Type.Object({
  id: Type.String(),
  event_name: Type.String(),
  listener_id: Type.String(),
});

export const AutoSubscriptionItem = Type.Object({
  id: Type.String(),
  event_name: Type.String({ description: '"default", "$errors" or "$logs", as created' }),
  listener_id: Type.String(),
  created_at: Type.Integer(),
});

export const Deleted = Type.Object({ id: Type.String(), deleted: Type.Boolean() });

export const EventSummary = Type.Object({
  id: Type.String({ description: "`<ms>-<seq>`; sort numerically" }),
  indexed_at_ms: Type.Integer(),
  event: Type.Unknown(),
  metadata: Type.Object({
    emit_id: Type.String(),
    name: Type.String(),
    emitter_id: Type.String(),
    id: Type.Optional(Type.Unknown()),
    summary: Type.Optional(Type.String()),
    ts: Type.Number(),
  }),
});

export const EventQuery = Type.Object({
  ...Filter,
  ...Paging,
  expand: Type.Optional(Type.String({ description: "`event` returns full event data" })),
  event_name: Type.Optional(Type.String({ description: "another stream: $errors, $logs, a custom name" })),
});

export const Accepted = Type.Object({ accepted: Type.Boolean() });

export const Workflow = Type.Object({
  id: Type.String(),
  name: Type.String(),
  active: Type.Boolean(),
  deployment_id: Type.String(),
  trigger: Type.Object(
    {
      type: Type.String({ description: "http, timer or none" }),
      endpoint_url: Type.Optional(Type.String()),
      custom_response: Type.Optional(Type.Boolean({ description: "http: the reply waits for the run's $.respond()" })),
      interval_seconds: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
      cron: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    },
    { additionalProperties: false },
  ),
  steps: Type.Array(
    Type.Object({
      id: Type.String({ description: "the step's cell id (c_...), new with every deployment" }),
      name: Type.String(),
      code: Type.Optional(Type.String({ description: "the step's own module (a code step)" })),
      component_id: Type.Optional(Type.String({ description: "the saved component the step runs (sc_...)" })),
      key: Type.Optional(Type.String({ description: "the registry component the step runs" })),
      props: Type.Record(Type.String(), Type.Unknown(), { description: 'configured props; secret values as {"secret": true}' }),
    }),
  ),
  settings: Type.Object({
    retries: Type.Integer({ description: "a failed step runs again this many times (0-8), with backoff from 10 s, doubling" }),
    concurrency: Type.Union([Type.Integer(), Type.Null()], { description: "at most this many runs execute at once; the rest wait, queued, in order (null: no bound)" }),
    rate: Type.Union([Type.Object({ limit: Type.Integer(), per_seconds: Type.Integer() }), Type.Null()], { description: "at most `limit` runs start per `per_seconds`; the rest wait, queued (null: no bound)" }),
  }),
  created_at: Type.Integer(),
  updated_at: Type.Integer(),
});

// Checked field by field in core (one 400 lists every problem), so the schema only documents it.
export const WorkflowBody = Type.Object(
  {
    name: Type.Optional(Type.Unknown({ description: "string" })),
    steps: Type.Optional(
      Type.Unknown({
        description:
          '[{name, code | component_id | key, props?}]: code is a module exporting { async run({ steps, $ }) }; component_id a saved component (sc_...); key a registry component; props its configured props (string values may hold {{ expressions }}; send a secret back as {"secret": true} to keep it)',
      }),
    ),
    trigger: Type.Optional(Type.Unknown({ description: '{type: "http"} | {type: "timer", interval_seconds | cron} | {type: "none"}' })),
    active: Type.Optional(Type.Unknown({ description: "boolean" })),
    settings: Type.Optional(Type.Unknown({ description: "{retries?: 0-8, concurrency?: n | null, rate?: {limit, per_seconds} | null}; null: the defaults" })),
    ...Filter,
  },
);

export const Webhook = Type.Object({
  id: Type.String(),
  user_id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  url: Type.String(),
  active: Type.Boolean(),
  secret: Type.Optional(Type.String({ description: "shown only in the create response" })),
  created_at: Type.Integer(),
  updated_at: Type.Integer(),
});

const nullable = (t: TSchema) => Type.Union([t, Type.Null()]);

export const WebhookDelivery = Type.Object({
  id: Type.String(),
  event_id: Type.String(),
  emitter_id: Type.String(),
  status: Type.Union([Type.Literal("pending"), Type.Literal("delivered"), Type.Literal("failed")]),
  attempts: Type.Integer({ description: "tries so far" }),
  last_status_code: nullable(Type.Integer({ description: "the HTTP status of the last try; null when none came back" })),
  last_error: nullable(Type.String({ description: "why the last try failed (a refused address, a timeout, HTTP 500...)" })),
  next_attempt_at_ms: nullable(Type.Integer({ description: "when it is tried next; null once delivered or failed" })),
  created_at_ms: Type.Integer(),
  delivered_at_ms: nullable(Type.Integer()),
});

export const WebhookParams = Type.Object({
  url: Type.Optional(Type.String()),
  name: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  ...Filter,
});
