import type { ColumnType, Generated } from "kysely";

// Table shapes as Kysely sees them. Both dialects store booleans as 0/1 integers and JSON as
// text, so one query codebase reads the same values from SQLite and PostgreSQL.

export interface UsersTable {
  seq: Generated<number>;
  id: string;
  username: string;
  email: string;
  admin: number;
  api_key_hash: string;
  daily_invocations_quota: number;
  daily_compute_time_quota: number;
  usage_day: string;
  invocations_used: number;
  compute_time_used: number;
  created_at: number;
  updated_at: number;
  reserved_day: string | null;
  invocations_reserved: Generated<number>;
}

export interface ComponentsTable {
  seq: Generated<number>;
  id: string;
  user_id: string | null;
  registry: number;
  key: string | null;
  name: string | null;
  version: string | null;
  code: string;
  code_hash: string;
  component_url: string | null;
  meta: string;
  created_at: number;
  updated_at: number;
  bundle: string | null;
  bundle_hash: string | null;
  /** JSON: the package versions in the bundle */
  packages: string | null;
  /** "source", "action": what the description says, "source" when it says nothing */
  type: Generated<string>;
}

export interface SourcesTable {
  seq: Generated<number>;
  id: string;
  user_id: string;
  component_id: string;
  name: string;
  name_slug: string;
  props: string;
  active: number;
  endpoint_key: string | null;
  created_at: number;
  updated_at: number;
}

export interface SubscriptionsTable {
  seq: Generated<number>;
  id: string;
  user_id: string;
  emitter_id: string;
  listener_id: string;
  event_name: string;
  created_at: number;
}

export interface AutoSubscriptionsTable {
  seq: Generated<number>;
  id: string;
  user_id: string;
  event_name: string;
  listener_id: string;
  created_at: number;
}

export interface EventsTable {
  seq: Generated<number>;
  emitter_id: string;
  user_id: string;
  event_name: string;
  ms: number;
  n: number;
  emit_id: string;
  indexed_at_ms: number;
  payload: string;
  size: number;
  meta: string;
}

export interface EmitterStateTable {
  emitter_id: string;
  user_id: string;
  db: string;
  dedupe: string;
  last_ms: number;
  last_n: number;
}

export interface InboxTable {
  seq: Generated<number>;
  source_id: string;
  kind: string;
  event: string;
  received_at_ms: number;
}

export interface TimersTable {
  source_id: string;
  next_due_ms: number;
}

export interface WorkflowsTable {
  seq: Generated<number>;
  id: string;
  user_id: string;
  name: string;
  active: number;
  deployment_id: string;
  trigger: string;
  steps: string;
  endpoint_key: string | null;
  settings: string | null;
  created_at: number;
  updated_at: number;
}

/** every deployment of a workflow a run or the workflow itself still names (migration 023) */
export interface WorkflowDeploymentsTable {
  id: string;
  workflow_id: string;
  trigger: string;
  steps: string;
  settings: string | null;
  created_at: number;
}

export interface WebhooksTable {
  seq: Generated<number>;
  id: string;
  user_id: string;
  name: string;
  description: string;
  url: string;
  active: number;
  secret: string;
  created_at: number;
  updated_at: number;
}

export interface AccountsTable {
  seq: Generated<number>;
  id: string;
  user_id: string;
  app: string;
  name: string;
  /** sealed JSON */
  auth: string;
  /** JSON array of the auth object's keys */
  auth_fields: string;
  created_at: number;
  updated_at: number;
  oauth: Generated<number>;
  status: Generated<string>;
  status_reason: string | null;
  expires_at_ms: number | null;
  refresh_claim_ms: number | null;
  /** the key of its app-events URL (migration 026) */
  events_key: string | null;
}

export interface OAuthAppsTable {
  id: string;
  app: string;
  client_id: string;
  /** sealed */
  client_secret: string;
  authorize_url: string;
  token_url: string;
  /** JSON array */
  scopes: string;
  pkce: number;
  token_auth: string;
  /** JSON object */
  authorize_params: string;
  created_at: number;
  updated_at: number;
}

export interface OAuthFlowsTable {
  id: string;
  state_hash: string;
  user_id: string;
  app: string;
  account_id: string | null;
  name: string | null;
  /** JSON array */
  scopes: string;
  /** sealed */
  code_verifier: string | null;
  expires_at_ms: number;
  used_at_ms: number | null;
  result_account_id: string | null;
  error: string | null;
}

export interface EnvVarsTable {
  user_id: string;
  name: string;
  /** sealed */
  value: string;
  secret: number;
  created_at: number;
  updated_at: number;
}

export interface DeliveriesTable {
  seq: Generated<number>;
  id: string;
  user_id: string;
  emitter_id: string;
  listener_id: string;
  event_name: string;
  event_id: string;
  payload: string;
  hops: number;
  attempts: number;
  next_at_ms: number;
  created_at_ms: number;
}

export interface WebhookDeliveriesTable {
  seq: Generated<number>;
  id: string;
  webhook_id: string;
  user_id: string;
  event_id: string;
  emitter_id: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at_ms: number | null;
  created_at_ms: number;
  delivered_at_ms: number | null;
}

/** one row, rewritten by the store's health probe */
export interface HealthProbeTable {
  id: number;
  at_ms: number;
}

/** one row per partition (migration 010): who runs its emitters' durable work, until when */
export interface PartitionLeasesTable {
  id: number;
  owner: string | null;
  epoch: number;
  expires_at_ms: number;
}

/** nodes alive now: each renews its row with its leases */
export interface ClusterNodesTable {
  node_id: string;
  address: string | null;
  expires_at_ms: number;
}

/** events held per stream now (migration 011): total_count of a page without counting the stream */
export interface StreamCountsTable {
  emitter_id: string;
  event_name: string;
  user_id: string;
  total: number;
}

/** a workflow's runs (migration 014); JSON values are text */
export interface WorkflowRunsTable {
  seq: Generated<number>;
  id: string;
  workflow_id: string;
  user_id: string;
  deployment_id: string;
  status: string;
  cursor: number;
  trigger_event: string;
  trigger_kind: string;
  summary: string | null;
  response_status: number | null;
  replay_of: string | null;
  retry_of: string | null;
  /** how the run started (migration 025); null on rows from before */
  started_by: string | null;
  started_at_ms: number;
  ended_at_ms: number | null;
  due_at_ms: number | null;
  partition: number;
  wait: string | null;
  /** `wait`'s kind, computed by the database (migration 022): read and compared, never written */
  wait_kind: ColumnType<string | null, never, never>;
}

/** the steps a run reached, by (run_id, idx) */
export interface WorkflowRunStepsTable {
  run_id: string;
  idx: number;
  cell_id: string;
  name: string;
  status: string;
  started_at_ms: number | null;
  ended_at_ms: number | null;
  return_value: string | null;
  exports: string | null;
  logs: string | null;
  error: string | null;
  attempts: number;
  resume_data: string | null;
}

/** when an emitter's owner was last emailed about its errors (migration 018) */
export interface ErrorNoticesTable {
  emitter_id: string;
  last_sent_ms: number;
}

/** what steps queued with $.send.http / $.send.email (migration 016) */
export interface RunSendsTable {
  id: string;
  run_id: string;
  step_idx: number;
  position: number;
  user_id: string;
  partition: number;
  kind: string;
  request: string;
  label: string;
  status: string;
  attempts: number;
  next_at_ms: number;
  last_status: number | null;
  last_error: string | null;
  created_at_ms: number;
  done_at_ms: number | null;
}

export interface Database {
  events: EventsTable;
  emitter_state: EmitterStateTable;
  inbox: InboxTable;
  timers: TimersTable;
  users: UsersTable;
  components: ComponentsTable;
  sources: SourcesTable;
  subscriptions: SubscriptionsTable;
  auto_subscriptions: AutoSubscriptionsTable;
  workflows: WorkflowsTable;
  workflow_deployments: WorkflowDeploymentsTable;
  webhooks: WebhooksTable;
  accounts: AccountsTable;
  env_vars: EnvVarsTable;
  deliveries: DeliveriesTable;
  webhook_deliveries: WebhookDeliveriesTable;
  health_probe: HealthProbeTable;
  partition_leases: PartitionLeasesTable;
  cluster_nodes: ClusterNodesTable;
  stream_counts: StreamCountsTable;
  workflow_runs: WorkflowRunsTable;
  workflow_run_steps: WorkflowRunStepsTable;
  run_sends: RunSendsTable;
  error_notices: ErrorNoticesTable;
  oauth_apps: OAuthAppsTable;
  oauth_flows: OAuthFlowsTable;
}
