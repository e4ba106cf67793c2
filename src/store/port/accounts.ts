import type { Page, PageRequest } from "./paging.ts";

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
  /**
   * the key of its app-events URL, /app-events/{events_key}: 128 random bits, lower-case hex;
   * null for an account a node of the previous version made, until it is next edited or reconnected
   */
  events_key: string | null;
}

export interface AccountStore {
  insert(row: AccountRow): Promise<void>;
  update(row: AccountRow): Promise<void>;
  byId(id: string): Promise<AccountRow | undefined>;
  /** the account whose app-events URL has this key */
  byEventsKey(key: string): Promise<AccountRow | undefined>;
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

/** An admin-configured OAuth 2 client for one app (docs/connecting-accounts.md). */
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

export interface OAuthAppStore {
  insert(row: OAuthAppRow): Promise<void>;
  update(row: OAuthAppRow): Promise<void>;
  byId(id: string): Promise<OAuthAppRow | undefined>;
  byApp(app: string): Promise<OAuthAppRow | undefined>;
  /** every app, by name */
  list(): Promise<OAuthAppRow[]>;
  delete(id: string): Promise<boolean>;
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
