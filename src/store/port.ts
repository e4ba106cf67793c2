import type { ComponentMeta } from "../runtime/types.ts";

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
  list(page: PageRequest): Promise<Page<UserRow> | undefined>;
  /** deletes the user and everything they own */
  delete(id: string): Promise<boolean>;
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
  touch(id: string, updatedAt: number, componentUrl: string | null): Promise<void>;
}

export interface SourceStore {
  insert(row: SourceRow): Promise<void>;
  update(row: SourceRow): Promise<void>;
  byId(id: string): Promise<SourceRow | undefined>;
  slugsLike(userId: string, base: string): Promise<Set<string>>;
  /** every source of the user, newest first */
  listAll(userId: string): Promise<SourceRow[]>;
  delete(id: string): Promise<boolean>;
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
  listAuto(userId: string): Promise<AutoSubscriptionRow[]>;
  deleteAutoNaming(listenerId: string): Promise<number>;
}

export interface Store {
  readonly kind: "sqlite" | "postgres";
  users: UserStore;
  components: ComponentStore;
  sources: SourceStore;
  subscriptions: SubscriptionStore;
  /** runs `fn` in one transaction; the store handed to `fn` is bound to it */
  transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
