import type { Page, PageRequest } from "./paging.ts";

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
