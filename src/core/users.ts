import type { CoreDeps } from "./deps.ts";
import type { Usage } from "./runtime/usage.ts";
import type { Page, PageRequest, UserRow } from "../store/port.ts";
import { AppError, invalid, notFound } from "../lib/errors.ts";
import { newApiKey, newId } from "../lib/ids.ts";
import { sha256Hex } from "../lib/hash.ts";
import { nowSeconds, utcDay } from "../lib/clock.ts";
import { AuthCache } from "./auth-cache.ts";

export interface UserView {
  id: string;
  username: string;
  email: string;
  admin: boolean;
  api_key: string;
  daily_compute_time_quota: number;
  daily_compute_time_used: number;
  daily_invocations_quota: number;
  daily_invocations_used: number;
  /** Pipedream's orgs the user belongs to: there are none here */
  orgs: never[];
}

export interface NewUser {
  username: string;
  email: string;
  admin?: boolean;
}

const USERNAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const EMAIL = /^[^\s@]+@[^\s@]+$/;

export class Users {
  readonly #deps: CoreDeps;
  readonly #cache = new AuthCache();

  readonly #usage: Usage;

  constructor(deps: CoreDeps, usage: Usage) {
    this.#deps = deps;
    this.#usage = usage;
  }

  /** The user this API key belongs to, or undefined. Hot path: served from memory when warm. */
  async authenticate(apiKey: string): Promise<UserRow | undefined> {
    const hash = sha256Hex(apiKey);
    const hit = this.#cache.get(hash);
    if (hit) return hit;
    const user = await this.#deps.store.users.byKeyHash(hash);
    if (user) this.#cache.set(hash, user);
    return user;
  }

  view(user: UserRow, apiKey: string): UserView {
    // counted in memory by the runtime, ahead of what the cached row says
    const used = this.#usage.current(user);
    return {
      id: user.id,
      username: user.username,
      email: user.email,
      admin: user.admin,
      api_key: apiKey,
      daily_compute_time_quota: user.daily_compute_time_quota,
      daily_compute_time_used: used.computeMs,
      daily_invocations_quota: user.daily_invocations_quota,
      daily_invocations_used: used.invocations,
      orgs: [],
    };
  }

  /** An admin adds a user; the new key is returned this once. */
  async add(actor: UserRow, input: NewUser): Promise<{ user: UserRow; apiKey: string }> {
    requireAdmin(actor);
    return this.#create(input, newApiKey());
  }


  async #create(input: NewUser, apiKey: string): Promise<{ user: UserRow; apiKey: string }> {
    const problems = [];
    if (typeof input.username !== "string" || !USERNAME.test(input.username)) {
      problems.push({ field: "username", message: "must be 1-64 letters, digits, '_', '.' or '-'" });
    }
    if (typeof input.email !== "string" || !EMAIL.test(input.email)) {
      problems.push({ field: "email", message: "must be an email address" });
    }
    if (problems.length) throw invalid("invalid user", problems);
    if (await this.#deps.store.users.byUsername(input.username)) {
      throw invalid("username is taken", [{ field: "username", message: "is taken" }]);
    }
    const user: UserRow = {
      id: newId("u_"),
      username: input.username,
      email: input.email,
      admin: input.admin === true,
      daily_invocations_quota: this.#deps.quotas.dailyInvocations,
      daily_compute_time_quota: this.#deps.quotas.dailyComputeTime,
      invocations_used: 0,
      compute_time_used: 0,
      usage_day: utcDay(),
      created_at: nowSeconds(),
    };
    await this.#deps.store.users.insert(user, sha256Hex(apiKey));
    return { user, apiKey };
  }

  /**
   * First start on an empty store creates the admin; TRIBUTARY_ADMIN_KEY, when set, always
   * opens the admin account (so changing it in the environment is how an operator resets it).
   * Returns the generated key when one was made, to be printed once.
   */
  async bootstrapAdmin(configuredKey: string | undefined): Promise<string | undefined> {
    const store = this.#deps.store.users;
    if (configuredKey) {
      if (await store.byKeyHash(sha256Hex(configuredKey))) return undefined;
      const admin = await store.byUsername("admin");
      if (admin) await store.setKeyHash(admin.id, sha256Hex(configuredKey));
      else await this.#create({ username: "admin", email: "admin@localhost", admin: true }, configuredKey);
      return undefined;
    }
    if ((await store.count()) > 0) return undefined;
    const { apiKey } = await this.#create({ username: "admin", email: "admin@localhost", admin: true }, newApiKey());
    return apiKey;
  }

  async rotateKey(user: UserRow): Promise<string> {
    const apiKey = newApiKey();
    await this.#deps.store.users.setKeyHash(user.id, sha256Hex(apiKey));
    this.#cache.dropUser(user.id);
    this.onChanged(user.id);
    return apiKey;
  }

  async list(actor: UserRow, page: PageRequest): Promise<Page<UserRow>> {
    requireAdmin(actor);
    const result = await this.#deps.store.users.list(page);
    if (!result) throw invalid("unknown cursor", [{ field: "cursor", message: "is not a position in this list" }]);
    return result;
  }

  /** Removes the user and everything they own. */
  /** told about each source, workflow and webhook removed with a user (wired by Core) */
  onGone: (id: string, userId: string) => void = () => {};
  /** told when a user's key or account changes (the other nodes drop what they cached) */
  onChanged: (userId: string) => void = () => {};

  /** Another node changed the user: their cached key lookups go. */
  forgetCached(userId: string): void {
    this.#cache.dropUser(userId);
  }

  async delete(actor: UserRow, id: string): Promise<void> {
    requireAdmin(actor);
    if (id === actor.id) throw invalid("you cannot delete your own account", [{ field: "id", message: "is you" }]);
    const owned = await this.#deps.store.transaction((tx) => tx.users.delete(id));
    if (!owned) throw notFound("user");
    this.#cache.dropUser(id);
    this.onChanged(id);
    // their timers, cached targets, delivery lanes and live streams stop with them
    for (const emitterId of owned) this.onGone(emitterId, id);
  }
}

export function requireAdmin(user: UserRow): void {
  if (!user.admin) throw new AppError("forbidden", "this endpoint is for admins");
}
