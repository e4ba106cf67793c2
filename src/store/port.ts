import type { ComponentMeta } from "../lib/component-meta.ts";
import type { DataStoreOp, DataStoreWrites } from "../lib/data-store-limits.ts";
export type { DataStoreOp, DataStoreWrites };

// The Store port: what core needs from storage, in domain terms. The Kysely adapter serves
// both SQLite (embedded) and PostgreSQL (scale-out); nothing above this file sees SQL.

export interface UserRow {
  id: string;
  username: string;
  email: string;
  admin: boolean;
  daily_invocations_quota: number;
  daily_compute_time_quota: number;
  invocations_used: number;
  compute_time_used: number;
  usage_day: string;
  created_at: number;
}

export interface ComponentRow {
  id: string;
  user_id: string | null;
  registry: boolean;
  key: string | null;
  code: string;
  code_hash: string;
  component_url: string | null;
  meta: ComponentMeta;
  created_at: number;
  updated_at: number;
  /** what the runner loads when the code imports packages, Node modules or files: made at save */
  bundle: ComponentBundle | null;
}

export interface ComponentBundle {
  code: string;
  /** sha256 of `code`: the runner's cache key for it */
  hash: string;
  /** the package versions in it, `name@version` */
  packages: string[];
}

export interface SourceRow {
  id: string;
  user_id: string;
  component_id: string;
  name: string;
  name_slug: string;
  /** configured values as stored: secrets sealed, timer normalised */
  props: Record<string, unknown>;
  active: boolean;
  endpoint_key: string | null;
  created_at: number;
  updated_at: number;
}

export interface SubscriptionRow {
  id: string;
  user_id: string;
  emitter_id: string;
  listener_id: string;
  event_name: string;
  created_at: number;
}

export interface AutoSubscriptionRow {
  id: string;
  user_id: string;
  event_name: string;
  listener_id: string;
  created_at: number;
}

export interface WorkflowTrigger {
  type: "http" | "timer" | "none";
  /** http: the reply waits for the run's $.respond() (workflows §4) */
  custom_response?: boolean;
  interval_seconds?: number | null;
  cron?: string | null;
}

export interface WorkflowStepRow {
  /** the cell id, `c_...`; new for every deployment */
  id: string;
  name: string;
  /** the module the step runs, as written: the step's own code, or its component's */
  code: string;
  /** the step is this saved component (`sc_`) ... */
  component_id?: string;
  /** ... or this registry component */
  key?: string;
  /** the module that runs when the code needed bundling (npm packages, Node modules) */
  bundle?: string;
  /** the step's component as analyzed (its props); absent on steps deployed before props existed */
  meta?: ComponentMeta;
  /** configured props (secrets sealed; `{{ }}` expressions kept as written) */
  props?: Record<string, unknown>;
}

export interface WorkflowRow {
  id: string;
  user_id: string;
  name: string;
  active: boolean;
  deployment_id: string;
  trigger: WorkflowTrigger;
  steps: WorkflowStepRow[];
  endpoint_key: string | null;
  /** how runs are retried and paced (workflows §3); null: the defaults */
  settings: WorkflowSettings | null;
  created_at: number;
  updated_at: number;
}

/** A workflow's run settings (workflows §3). */
export interface WorkflowSettings {
  /** a failed step runs again this many times (0-8), with exponential backoff from 10 s */
  retries?: number;
  /** at most this many runs execute at once (null: no bound) */
  concurrency?: number | null;
  /** runs started per window (null: no bound) */
  rate?: { limit: number; per_seconds: number } | null;
}

export interface WebhookRow {
  id: string;
  user_id: string;
  name: string;
  description: string;
  url: string;
  active: boolean;
  /** sealed with the service's secret box */
  secret: string;
  created_at: number;
  updated_at: number;
}

/** A connected account (Pipedream's `apn_`): an app's credentials, referenced by app props. */
export interface AccountRow {
  id: string;
  user_id: string;
  app: string;
  name: string;
  /** the auth object as JSON, sealed with the service's secret box */
  auth: string;
  /** the keys of the auth object, in the order given (shown; the values never are) */
  auth_fields: string[];
  created_at: number;
  updated_at: number;
  /** connected with OAuth (its tokens are refreshed by the service) */
  oauth: boolean;
  /** "error": its refresh was refused; runs that use it fail until it is reconnected */
  status: "ok" | "error";
  status_reason: string | null;
  /** when its access token expires (OAuth accounts whose provider said so) */
  expires_at_ms: number | null;
}

/** An admin-configured OAuth 2 client for one app (integrations §1). */
export interface OAuthAppRow {
  id: string;
  app: string;
  client_id: string;
  /** sealed with the service's secret box */
  client_secret: string;
  authorize_url: string;
  token_url: string;
  scopes: string[];
  pkce: boolean;
  token_auth: "basic" | "body";
  authorize_params: Record<string, string>;
  created_at: number;
  updated_at: number;
}

/** One authorization a user started: its state (hashed), and how it ended. */
export interface OAuthFlowRow {
  id: string;
  state_hash: string;
  user_id: string;
  app: string;
  /** a reconnect: the account it updates */
  account_id: string | null;
  name: string | null;
  scopes: string[];
  /** PKCE's verifier, sealed */
  code_verifier: string | null;
  expires_at_ms: number;
  used_at_ms: number | null;
  result_account_id: string | null;
  error: string | null;
}

/** A user's environment variable (`process.env` of their components). */
export interface EnvVarRow {
  user_id: string;
  /** case-sensitive, `^[A-Za-z_][A-Za-z0-9_]{0,127}$` */
  name: string;
  /** sealed with the service's secret box, secret or not */
  value: string;
  /** a secret's value is never shown by the API */
  secret: boolean;
  created_at: number;
  updated_at: number;
}

/** A data store (Pipedream's `ds_`): a user's named key-value store of JSON values. */
export interface DataStoreRow {
  id: string;
  user_id: string;
  name: string;
  created_at: number;
  updated_at: number;
  /** live records when it was read (expired ones never count) */
  keys: number;
}

/** One record of a data store. */
export interface DataStoreRecordRow {
  key: string;
  /** the value as JSON text */
  value: string;
  /** when it expires (ms); null: never */
  expires_at_ms: number | null;
}


export interface DataStoreApplyResult {
  /** false when there is no such store (deleted meanwhile): nothing was written */
  found: boolean;
  /** keys whose `set` was refused: each would have been a new key past `maxKeys` */
  refused: string[];
  /** live records removed by `delete` and `clear` */
  deleted: number;
  /** live records after */
  keys: number;
}

/** A page of records in key order (UTF-8 bytes), strictly after `afterKey`, of those starting with `prefix`. */
export interface RecordPageRequest {
  limit: number;
  prefix?: string;
  afterKey?: string;
}

/** One event on its way to one listener (decisions §5). */
export interface DeliveryRow {
  id: string;
  user_id: string;
  emitter_id: string;
  listener_id: string;
  event_name: string;
  /** the delivered event's id, `${ms}-${n}` */
  event_id: string;
  /** JSON text: the emitted payload (source and workflow listeners) or the summary item (webhooks) */
  payload: string;
  /** how many deliveries led to this one; over 8 it is not made (decisions §5) */
  hops: number;
  attempts: number;
  next_at_ms: number;
  created_at_ms: number;
}

/** What became of one webhook delivery (its history, kept after the delivery is done). */
export interface WebhookDeliveryRow {
  /** the delivery's id */
  id: string;
  webhook_id: string;
  user_id: string;
  event_id: string;
  emitter_id: string;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at_ms: number | null;
  created_at_ms: number;
  delivered_at_ms: number | null;
}

/** Newest-first paging by creation order; ids are the cursor positions. */
export interface PageRequest {
  limit: number;
  afterId?: string;
  beforeId?: string;
}

export interface Page<T> {
  items: T[];
  total: number;
}

export interface UserStore {
  count(): Promise<number>;
  insert(user: UserRow, apiKeyHash: string): Promise<void>;
  byId(id: string): Promise<UserRow | undefined>;
  byUsername(username: string): Promise<UserRow | undefined>;
  byKeyHash(hash: string): Promise<UserRow | undefined>;
  setKeyHash(id: string, hash: string): Promise<void>;
  /**
   * Reserves one of the user's daily invocations for `day` (a run accepted): true when taken, i.e.
   * fewer than the user's `daily_invocations_quota` were reserved that day, however many nodes
   * reserve at once. The caller asks only for users with a quota.
   */
  reserveInvocation(id: string, day: string): Promise<boolean>;
  /** gives back a reservation of `day` whose run will never happen */
  releaseInvocation(id: string, day: string): Promise<void>;
  list(page: PageRequest): Promise<Page<UserRow> | undefined>;
  /**
   * Deletes the user and everything they own. Returns the ids of their sources, workflows and
   * webhooks (so the runtime can stop them), or undefined when there is no such user.
   */
  delete(id: string): Promise<string[] | undefined>;
}

export interface ComponentStore {
  insert(row: ComponentRow): Promise<void>;
  byId(id: string): Promise<ComponentRow | undefined>;
  /** the user's own (non-registry) component with this code hash */
  byUserHash(userId: string, codeHash: string): Promise<ComponentRow | undefined>;
  /** the user's newest component with this key */
  byUserKey(userId: string, key: string): Promise<ComponentRow | undefined>;
  registryByKey(key: string): Promise<ComponentRow | undefined>;
  registryByHash(codeHash: string): Promise<ComponentRow | undefined>;
  /** a page of the user's own components, or of the registry's when `userId` is null; newest first; of one type when given */
  list(userId: string | null, page: PageRequest, type?: string): Promise<Page<ComponentRow> | undefined>;
  touch(id: string, updatedAt: number, componentUrl: string | null): Promise<void>;
}

export interface SourceStore {
  insert(row: SourceRow): Promise<void>;
  update(row: SourceRow): Promise<void>;
  byId(id: string): Promise<SourceRow | undefined>;
  slugsLike(userId: string, base: string): Promise<Set<string>>;
  /** every source of the user, newest first */
  listAll(userId: string): Promise<SourceRow[]>;
  /** every active source of every user (the runtime starts their timers) */
  listActive(): Promise<SourceRow[]>;
  byEndpointKey(key: string): Promise<SourceRow | undefined>;
  delete(id: string): Promise<boolean>;
}

export interface WorkflowStore {
  insert(row: WorkflowRow): Promise<void>;
  update(row: WorkflowRow): Promise<void>;
  byId(id: string): Promise<WorkflowRow | undefined>;
  byEndpointKey(key: string): Promise<WorkflowRow | undefined>;
  listActive(): Promise<WorkflowRow[]>;
  list(userId: string, page: PageRequest): Promise<Page<WorkflowRow> | undefined>;
  delete(id: string): Promise<boolean>;
}

export interface WebhookStore {
  insert(row: WebhookRow): Promise<void>;
  byId(id: string): Promise<WebhookRow | undefined>;
  list(userId: string, page: PageRequest): Promise<Page<WebhookRow> | undefined>;
  delete(id: string): Promise<boolean>;
}

export interface AccountStore {
  insert(row: AccountRow): Promise<void>;
  update(row: AccountRow): Promise<void>;
  byId(id: string): Promise<AccountRow | undefined>;
  list(userId: string, page: PageRequest): Promise<Page<AccountRow> | undefined>;
  delete(id: string): Promise<boolean>;
  /**
   * Claims the account's token refresh until `untilMs`, on every node: true when this caller got
   * it (no claim, or an expired one). The claim ends with `refreshed` or `releaseRefresh`.
   */
  claimRefresh(id: string, now: number, untilMs: number): Promise<boolean>;
  /** ends the claim made with `untilMs` (a later claim, or none, stays as it is) */
  releaseRefresh(id: string, untilMs: number): Promise<void>;
  /**
   * New auth, expiry and status in one statement, ending the refresh claim made with `untilMs`.
   * False (nothing written) when that claim is gone: the account was reconnected or edited
   * meanwhile (update() clears claims), and what the refresh got is stale.
   */
  refreshed(id: string, untilMs: number, fields: Pick<AccountRow, "auth" | "auth_fields" | "expires_at_ms" | "status" | "status_reason" | "updated_at">): Promise<boolean>;
  /** whether a refresh of the account is claimed by someone now */
  refreshClaimed(id: string, now: number): Promise<boolean>;
}

export interface OAuthAppStore {
  insert(row: OAuthAppRow): Promise<void>;
  update(row: OAuthAppRow): Promise<void>;
  byId(id: string): Promise<OAuthAppRow | undefined>;
  byApp(app: string): Promise<OAuthAppRow | undefined>;
  /** every app, by name */
  list(): Promise<OAuthAppRow[]>;
  delete(id: string): Promise<boolean>;
}

export interface OAuthFlowStore {
  insert(row: OAuthFlowRow): Promise<void>;
  byId(id: string): Promise<OAuthFlowRow | undefined>;
  /** the unused, unexpired flow whose state hashes to `stateHash` (nothing is changed) */
  pending(stateHash: string, now: number): Promise<OAuthFlowRow | undefined>;
  /**
   * Uses the flow whose state hashes to `stateHash` once: the row when it was unused and not
   * expired at `now` (it is marked used), else undefined, however many callbacks race.
   */
  use(stateHash: string, now: number): Promise<OAuthFlowRow | undefined>;
  /** how a used flow ended: the account, or the error shown */
  finish(id: string, result: { account_id: string } | { error: string }): Promise<void>;
  /** forgets flows that expired before `before` */
  prune(before: number): Promise<void>;
}

export interface EnvVarStore {
  /** the user's variables, by name (code point order) */
  list(userId: string): Promise<EnvVarRow[]>;
  /**
   * Creates or replaces the variable (`secret` absent: false for a new one, kept on a replace;
   * created_at is kept). Refused (undefined, nothing written) when it is new and the user has
   * `max` already, however many puts of the user run at once, on any node.
   */
  put(v: { user_id: string; name: string; value: string; secret?: boolean; at: number }, max: number): Promise<EnvVarRow | undefined>;
  delete(userId: string, name: string): Promise<boolean>;
}

export interface DataStoreStore {
  insert(row: Omit<DataStoreRow, "keys">): Promise<void>;
  byId(id: string, nowMs: number): Promise<DataStoreRow | undefined>;
  /** the owner of each of `ids` that exists (one indexed read, no record counts): id -> user id */
  ownersOf(ids: readonly string[]): Promise<Map<string, string>>;
  rename(id: string, name: string, updatedAt: number): Promise<void>;
  /** the user's stores, newest first */
  list(userId: string, page: PageRequest, nowMs: number): Promise<Page<DataStoreRow> | undefined>;
  /** deletes the store and its records (run it in a transaction); false when there was none */
  delete(id: string): Promise<boolean>;
}

/**
 * A data store's records. Reads never return an expired record. The writes (`apply`, `purge`)
 * lock the store's row first, so run each in a transaction (the store handed to
 * `Store.transaction`): a run's commit can apply its writes with its other results, all or
 * nothing. A transaction that writes several stores should apply them in id order.
 */
export interface DataStoreRecordStore {
  get(storeId: string, key: string, nowMs: number): Promise<DataStoreRecordRow | undefined>;
  getMany(storeId: string, keys: string[], nowMs: number): Promise<Map<string, DataStoreRecordRow>>;
  /** live keys in key order: every one, or a page of them after `afterKey` */
  keys(storeId: string, nowMs: number, page?: { limit: number; afterKey?: string }): Promise<string[]>;
  /** live records, of those starting with `prefix` when given */
  count(storeId: string, nowMs: number, prefix?: string): Promise<number>;
  page(storeId: string, req: RecordPageRequest, nowMs: number): Promise<DataStoreRecordRow[]>;
  /** applies `ops` in order; a new key past `maxKeys` live keys is refused, not an error */
  apply(storeId: string, ops: DataStoreOp[], nowMs: number, maxKeys: number): Promise<DataStoreApplyResult>;
  /** stores that hold expired records, up to `limit` of them (the sweep's work) */
  expiredStores(nowMs: number, limit: number): Promise<string[]>;
  /** removes up to `limit` of the store's expired records; returns how many */
  purge(storeId: string, nowMs: number, limit: number): Promise<number>;
}

export interface DeliveryStore {
  /** every queued delivery, oldest first (resumed at start) */
  pending(): Promise<DeliveryRow[]>;
  /** the listeners that have queued deliveries */
  listeners(): Promise<string[]>;
  /** how many deliveries are queued (a metric: a full count, so read it seldom) */
  count(): Promise<number>;
  /** a listener's oldest `limit` queued deliveries, oldest first */
  pendingFor(listenerId: string, limit: number): Promise<DeliveryRow[]>;
  /** a failed webhook attempt: count it and set when to try again */
  retry(id: string, attempts: number, nextAtMs: number): Promise<void>;
  /** drops everything queued for a listener that is gone */
  deleteListener(listenerId: string): Promise<number>;
  /**
   * Past `keep` queued deliveries for the listener, drops the oldest (but `except`, one being
   * sent) until `keep` are left; returns the ids dropped.
   */
  dropOldest(listenerId: string, keep: number, except: string): Promise<string[]>;
}

export interface WebhookDeliveryStore {
  /** writes the row, or updates the one with its id (status, attempts, last_*, next_attempt_at_ms, delivered_at_ms) */
  record(row: WebhookDeliveryRow): Promise<void>;
  /** a page of the webhook's history, newest first */
  list(webhookId: string, page: PageRequest): Promise<Page<WebhookDeliveryRow> | undefined>;
  /** the pending rows `ids` of the webhook end as failed, with `error` */
  fail(webhookId: string, ids: string[], error: string): Promise<void>;
  /** keeps only the webhook's newest `keep` finished rows (pending ones are deliveries still owed) */
  trim(webhookId: string, keep: number): Promise<void>;
  /** the webhook is gone */
  deleteWebhook(webhookId: string): Promise<number>;
}

export interface SubscriptionStore {
  insert(row: SubscriptionRow): Promise<void>;
  find(userId: string, emitterId: string, listenerId: string, eventName: string): Promise<SubscriptionRow | undefined>;
  listByUser(userId: string): Promise<SubscriptionRow[]>;
  delete(userId: string, emitterId: string, listenerId: string, eventName?: string): Promise<number>;
  /** removes every subscription naming this id as emitter or listener */
  deleteNaming(id: string): Promise<number>;
  insertAuto(row: AutoSubscriptionRow): Promise<void>;
  findAuto(userId: string, eventName: string, listenerId: string): Promise<AutoSubscriptionRow | undefined>;
  /** the user's auto-subscriptions, oldest first */
  listAuto(userId: string): Promise<AutoSubscriptionRow[]>;
  /** deletes the user's auto-subscription with this id; false when there is none */
  deleteAuto(userId: string, id: string): Promise<boolean>;
  deleteAutoNaming(listenerId: string): Promise<number>;
}

/** An event id, `${ms}-${n}`, as its two numbers. */
export interface EventKey {
  ms: number;
  n: number;
}

export interface EventMetaRow {
  id?: string | number;
  summary?: string;
  ts: number;
}

export interface EventRow extends EventKey {
  emitter_id: string;
  user_id: string;
  event_name: string;
  emit_id: string;
  indexed_at_ms: number;
  /** the event as JSON text */
  payload: string;
  /** bytes of payload */
  size: number;
  meta: EventMetaRow;
}

export interface EmitterStateRow {
  emitter_id: string;
  user_id: string;
  db: Record<string, unknown>;
  /** dedupe memory: the recent ids (unique), the greatest id (greatest) or the last id (last) */
  dedupe: { ids?: (string | number)[]; greatest?: number; last?: string | number };
  last_ms: number;
  last_n: number;
}

export interface InboxRow {
  seq: number;
  source_id: string;
  kind: string;
  /** the invocation's event as JSON text */
  event: string;
  received_at_ms: number;
}

export interface UsageIncrement {
  user_id: string;
  day: string;
  invocations: number;
  compute_ms: number;
}

/** Everything a group of finished invocations writes, committed as one transaction. */
/** A workflow run's state (workflows §3). */
export type RunStatus = "running" | "suspended" | "succeeded" | "failed" | "exited" | "cancelled";
export type RunStepStatus = "pending" | "running" | "suspended" | "succeeded" | "failed" | "skipped";

/** One execution of a workflow (`r_...`): a row per run, newest kept per workflow (retention). */
export interface RunRow {
  id: string;
  workflow_id: string;
  user_id: string;
  /** the deployment (`d_...`) whose steps it runs */
  deployment_id: string;
  status: RunStatus;
  /** the index of the next step to run (= the number of steps ended) */
  cursor: number;
  /** the trigger event, JSON text */
  trigger_event: string;
  trigger_kind: "HTTP" | "TIMER" | "EMIT";
  /** what the steps set as `$.summary`, the last one wins */
  summary: string | null;
  /** the status of the HTTP reply an HTTP trigger got, when it is known */
  response_status: number | null;
  /** the run this one replays */
  replay_of: string | null;
  started_at_ms: number;
  ended_at_ms: number | null;
  /**
   * When the engine takes the run up next: a waiting run's resume time (its delay, its suspension's
   * timeout, a retry's backoff); null while a node runs it, or for a suspension with no timeout.
   */
  due_at_ms: number | null;
  /** the workflow's partition: a node scans the runs of the partitions it holds */
  partition: number;
  /** what a waiting run waits for (core/workflows/run-wait.ts), JSON; null while it runs */
  wait: string | null;
}

/** A step of a run, as far as the run got. Values are JSON text (null: none). */
export interface RunStepRow {
  run_id: string;
  /** the step's position in the deployment */
  idx: number;
  /** the step's cell id (`c_...`) */
  cell_id: string;
  name: string;
  status: RunStepStatus;
  started_at_ms: number | null;
  ended_at_ms: number | null;
  return_value: string | null;
  /** a JSON object: what the step `$.export`ed */
  exports: string | null;
  /** a JSON array of {level, msg, ts} */
  logs: string | null;
  /** a JSON object {name, message, stack} */
  error: string | null;
  attempts: number;
  /** the request that resumed the step's suspension ({method, headers, body}), JSON */
  resume_data: string | null;
}

/** Workflow runs (workflows §3); written only by commits (CommitBatch.runs), read by the API. */
export interface RunStore {
  byId(id: string): Promise<RunRow | undefined>;
  /** the run's steps, in order */
  steps(runId: string): Promise<RunStepRow[]>;
  /** a workflow's runs, newest first; undefined for a cursor that is not a position in the list */
  list(workflowId: string, page: PageRequest, status?: RunStatus): Promise<Page<RunRow> | undefined>;
  /** writes a run that starts later (a replay, queued): the engine takes it up when it is due */
  create(run: RunRow, steps: RunStepRow[]): Promise<void>;
  /**
   * Takes a waiting run up: it becomes running with no due time (its wait kept, for a node that
   * takes it up after a crash), when it is still exactly as read (`status`, `wait`) and not due
   * later than `now`. False when something changed it meanwhile (a resume URL, a cancel).
   */
  claim(id: string, status: RunStatus, wait: string | null, now: number): Promise<boolean>;
  /** claim() of many runs in one statement: the ids of those claimed */
  claimMany(runs: ReadonlyArray<{ id: string; status: RunStatus; wait: string | null }>, now: number): Promise<Set<string>>;
  /** steps() of many runs in one read */
  stepsOf(runIds: readonly string[]): Promise<Map<string, RunStepRow[]>>;
  /**
   * Queued runs (settings.concurrency / rate) that may start now, oldest first: of a workflow, or
   * of the partitions given.
   */
  queued(of: { workflowId: string } | { partitions: readonly number[] }, now: number, limit: number): Promise<RunRow[]>;
  /** a queued run that may not start yet tries again at `dueAtMs` (when it still waits for `wait`) */
  postpone(id: string, wait: string, dueAtMs: number): Promise<void>;
  /** live runs of the partitions whose due time has come, soonest first */
  due(partitions: readonly number[], now: number, limit: number): Promise<RunRow[]>;
  /**
   * Running runs nobody has taken (due_at_ms null): a node running them stopped. Those a node
   * drives now read the same, so a reader pages on (`afterId`: the last id of the page before;
   * pages are in id order).
   */
  orphans(partitions: readonly number[], limit: number, afterId?: string): Promise<RunRow[]>;
  /** the soonest due time after `after` of the partitions' live runs (undefined: none) */
  nextDue(partitions: readonly number[], after: number): Promise<number | undefined>;
  /**
   * Ends a running or suspended run as `cancelled`, its steps' statuses changed as `stepsAtEnd`
   * says (the run machine's one rule for a run's end); false when it had ended already.
   */
  cancel(id: string, now: number, stepsAtEnd: Readonly<Partial<Record<RunStepStatus, RunStepStatus>>>): Promise<boolean>;
  /**
   * A waiting run's resume URL was called: when it still waits for exactly `wait` (the JSON it
   * holds), records what resumed it (the step's resume_data, or the new wait) and makes it due
   * now. False when it no longer waits for that.
   */
  resume(id: string, wait: string, change: { resumeData?: { idx: number; json: string }; wait: string }, now: number): Promise<boolean>;
}

/** A send a step queued ($.send.http, $.send.email): sent after the step commits, retried on failure. */
export interface RunSendRow {
  /** `snd_...` */
  id: string;
  run_id: string;
  /** the step that queued it, and its place among that step's sends */
  step_idx: number;
  position: number;
  user_id: string;
  /** the workflow's partition: its owner sends it */
  partition: number;
  kind: "http" | "email";
  /** JSON text: http `{method, url, headers, body?}`, email `{subject, text?, html?}` */
  request: string;
  /** what a run shows of it: http `METHOD url`, email its subject */
  label: string;
  status: "pending" | "sent" | "failed";
  /** tries made */
  attempts: number;
  /** when it is tried next (pending ones) */
  next_at_ms: number;
  /** the HTTP status of the last try, when it got one */
  last_status: number | null;
  /** why the last try failed */
  last_error: string | null;
  created_at_ms: number;
  done_at_ms: number | null;
}

/** The sends steps queued; written by commits (CommitBatch.sends), then by the sender. */
export interface RunSendStore {
  /** a run's sends (their requests left out), by step and then in the order they were queued; at most `limit` */
  forRun(runId: string, limit: number): Promise<Array<Omit<RunSendRow, "request">>>;
  /** pending sends of the partitions and kinds that are due, soonest first */
  due(partitions: readonly number[], kinds: ReadonlyArray<RunSendRow["kind"]>, now: number, limit: number): Promise<RunSendRow[]>;
  /**
   * Takes a pending send for one try, counting it: its next try moves to `until` (another node's
   * scan, or a crash, finds it again only then), when it is still pending and due at `nextAt` as
   * read.
   */
  claim(id: string, nextAt: number, until: number): Promise<boolean>;
  /** records a try: still pending (with its next time), sent or failed */
  record(row: Pick<RunSendRow, "id" | "status" | "attempts" | "next_at_ms" | "last_status" | "last_error" | "done_at_ms">): Promise<void>;
}

export interface CommitBatch {
  events: EventRow[];
  states: EmitterStateRow[];
  /** inbox rows whose invocation is done */
  inboxDone: number[];
  timers: { source_id: string; next_due_ms: number }[];
  usage: UsageIncrement[];
  /** streams written to: each keeps only its newest `keep` events */
  trims: { emitter_id: string; event_name: string; keep: number }[];
  /** deliveries of the events above */
  deliveries: DeliveryRow[];
  /** deliveries whose listener has finished with them */
  deliveriesDone: string[];
  /** workflow runs written (inserted, or updated by id) and their steps (by run_id and idx) */
  runs: RunRow[];
  runSteps: RunStepRow[];
  /** workflows whose runs keep only the newest `keep` that ended (running and suspended ones stay) */
  runTrims: { workflow_id: string; keep: number }[];
  /** runs' writes to data stores (their `data_store` props), applied in order per store */
  dataStores: DataStoreWrites[];
  /** what the steps committed here queued with $.send.http / $.send.email */
  sends: RunSendRow[];
  /**
   * Several nodes: the partition leases (id, epoch) this node must still hold for the batch to
   * commit; checked in the transaction, which fails with FencedError when one was taken over.
   */
  fence?: { node: string; leases: Array<[partition: number, epoch: number]> };
}

/** A commit refused because this node no longer holds a partition lease it was written under. */
export class FencedError extends Error {
  constructor(partitions: number[], message?: string) {
    super(message ?? `this node no longer holds partition${partitions.length === 1 ? "" : "s"} ${partitions.join(", ")}: its work there is another node's now`);
    this.name = "FencedError";
  }
}

/** Emitters are hashed into this many partitions (migration 010 made a lease row for each). */
export const PARTITIONS = 64;

/** A partition's lease as this node holds it. */
export interface HeldLease {
  partition: number;
  epoch: number;
}

/** Partition leases and node heartbeats (several nodes on one PostgreSQL). Times are the database's clock. */
export interface LeaseStore {
  /** records this node as alive until now + ttl; returns the ids of every live node */
  heartbeat(node: string, address: string | null, ttlMs: number): Promise<string[]>;
  /** extends the leases this node still holds among `partitions`; returns those (the rest were lost) */
  renew(node: string, partitions: number[], ttlMs: number): Promise<HeldLease[]>;
  /**
   * Takes up to `max` partitions nobody holds or whose lease expired, each with a new epoch; with
   * `ownToo`, also those still leased to this node id (a node restarted under a fixed
   * TRIBUTARY_NODE_ID takes its work back at once instead of waiting for its old leases to expire).
   */
  claim(node: string, max: number, ttlMs: number, ownToo?: boolean): Promise<HeldLease[]>;
  /**
   * Gives leases up at once (a node handing work over, or stopping): each only while it is still
   * held under that epoch (a restarted process under the same node id may have taken it again).
   */
  release(node: string, leases: HeldLease[]): Promise<void>;
  /** this node's heartbeat goes (it is stopping) */
  leave(node: string): Promise<void>;
  /** where the holder of a partition's live lease can be reached (undefined: nobody holds it now) */
  ownerAddress(partition: number): Promise<string | undefined>;
}

export interface EventPageRequest {
  limit: number;
  /** strictly older than this id */
  after?: EventKey;
  /** strictly newer than this id */
  before?: EventKey;
}

/** When an emitter's owner was last emailed about its errors. */
export interface ErrorNoticeStore {
  /** true when this caller may send the emitter's next error email (none in the last `gapMs`) */
  claim(emitterId: string, now: number, gapMs: number): Promise<boolean>;
}

/** An emitter's failures: its stored $errors events, and the newest one. */
export interface ErrorSummaryRow {
  emitter_id: string;
  total: number;
  last_ms: number;
  /** the newest $errors event's `error` member, JSON */
  last_error: string;
}

export interface EventStore {
  /** the user's emitters among `emitterIds` that have $errors events (another user's: none) */
  errorSummaries(userId: string, emitterIds: string[]): Promise<ErrorSummaryRow[]>;
  /** newest first */
  page(emitterId: string, eventName: string, req: EventPageRequest): Promise<Page<EventRow>>;
  /** oldest first, strictly after `from` (SSE replay) */
  since(emitterId: string, eventName: string, from: EventKey, limit: number): Promise<EventRow[]>;
  /** deletes the emitter's events (all streams) within the inclusive bounds, never past `upTo` */
  deleteRange(emitterId: string, start: EventKey | undefined, end: EventKey | undefined, upTo: EventKey): Promise<number>;
  /** deletes the emitter's events, state, inbox rows and timer (the emitter is gone) */
  deleteEmitter(emitterId: string): Promise<void>;
  state(emitterId: string): Promise<EmitterStateRow | undefined>;
  /** durably records accepted invocations; returns their inbox seqs in order */
  inboxAdd(rows: Omit<InboxRow, "seq">[]): Promise<number[]>;
  /** every pending inbox row, oldest first (replayed at start) */
  inboxPending(): Promise<InboxRow[]>;
  /** the sources that have pending inbox rows */
  inboxSources(): Promise<string[]>;
  /** how many inbox rows are pending (a metric: a full count, so read it seldom) */
  inboxCount(): Promise<number>;
  /** the pending inbox rows of enabled emitters (what the backlog bound counts; a full count too) */
  backlogCount(): Promise<number>;
  /** a source's oldest `limit` pending inbox rows after seq `afterSeq` (default: all), oldest first */
  inboxFor(sourceId: string, limit: number, afterSeq?: number): Promise<InboxRow[]>;
  timer(sourceId: string): Promise<number | undefined>;
  setTimer(sourceId: string, nextDueMs: number): Promise<void>;
  commit(batch: CommitBatch): Promise<void>;
}

export interface Store {
  readonly kind: "sqlite" | "postgres";
  events: EventStore;
  users: UserStore;
  components: ComponentStore;
  sources: SourceStore;
  subscriptions: SubscriptionStore;
  workflows: WorkflowStore;
  webhooks: WebhookStore;
  accounts: AccountStore;
  oauthApps: OAuthAppStore;
  oauthFlows: OAuthFlowStore;
  runs: RunStore;
  runSends: RunSendStore;
  errorNotices: ErrorNoticeStore;
  envVars: EnvVarStore;
  dataStores: DataStoreStore;
  dataStoreRecords: DataStoreRecordStore;
  deliveries: DeliveryStore;
  webhookDeliveries: WebhookDeliveryStore;
  leases: LeaseStore;
  /**
   * Runs `fn` while holding a lock named `name` that every node on this database shares
   * (PostgreSQL: an advisory lock; SQLite has one process). For work that must happen once
   * however many nodes start together: the admin user, the registry components.
   */
  exclusively<T>(name: string, fn: () => Promise<T>): Promise<T>;
  /** runs `fn` in one transaction; the store handed to `fn` is bound to it */
  transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T>;

  // Storage faults. A driver error meaning the store can't do its job (SQLite: disk full, I/O
  // error, read-only, locked past busy_timeout, corrupt; PostgreSQL: disk full and other class
  // 53, connection lost or refused, server shutting down) rejects the call with
  // `AppError("storage_unavailable")` (503, `retryAfterSeconds` set, the driver's error as its
  // `cause`); other errors are left as they are. The first fault makes the store unavailable;
  // from then on it probes every ~1.5 s with a one-row write, and the first probe that succeeds
  // makes it available again. Calls are never refused while unavailable: each tries for real.

  /** false from a storage fault until a probe write succeeds */
  readonly available: boolean;
  /**
   * Resolves when the store is usable (with what is wrong, while faults come and go but writes
   * succeed between them: degraded); rejects with the storage_unavailable AppError while unavailable.
   */
  ping(): Promise<string | undefined>;
  /**
   * `listener` is called once each time the store becomes available again after a fault, e.g. to
   * resume work that failed meanwhile (re-read the inbox and the deliveries). A listener that
   * throws or rejects is reported as a process warning and never affects the store or other
   * listeners. Returns a function that removes the listener.
   */
  onRecovered(listener: () => void): () => void;
  /**
   * `listener` is called once each time the store becomes unavailable, with the driver's error
   * that did it (for the log). Same rules as onRecovered.
   */
  onUnavailable(listener: (cause: unknown) => void): () => void;
  close(): Promise<void>;
}
