import type { CoreDeps } from "../deps.ts";
import type { EnvVarRow, UserRow } from "../../store/port.ts";
import { AppError, notFound } from "../../lib/errors.ts";
import { nowSeconds } from "../../lib/clock.ts";
import type { EnvSnapshots } from "./env-snapshots.ts";
import { checkEnvVarInput, checkName, type EnvVarInput } from "./env-input.ts";

// A user's environment variables: what `process.env` holds in every run of their sources and
// workflows (Pipedream's environment variables). Values are sealed at rest, secret or not; a
// secret's value never leaves the service except into those runs.

export interface EnvVarView {
  name: string;
  secret: boolean;
  /** absent for a secret */
  value?: string;
  updated_at: number;
}

/** variables per user at most: each run carries them all */
export const MAX_ENV_VARS = 500;
/**
 * Bytes of names and values (UTF-8) per user at most. What users keep here are API keys, tokens
 * and URLs (tens to hundreds of bytes) and now and then a JSON service-account key (~2-3 KiB):
 * 256 KiB holds a hundred such keys. 500 values of 64 KiB (32 MiB) made every run of the user
 * copy and parse megabytes, and stalled every other user's runs with it.
 */
export const MAX_ENV_BYTES = 256 * 1024;

const bytesOf = (name: string, value: string) => Buffer.byteLength(name) + Buffer.byteLength(value);

export class EnvVars {
  readonly #deps: CoreDeps;
  readonly #snapshots: EnvSnapshots;
  /** tells the other nodes (their snapshots of the user go stale) */
  readonly #changed: (userId: string) => void;
  /** the bound on variables per user (MAX_ENV_VARS; tests lower it) */
  max = MAX_ENV_VARS;
  /** the bound on their bytes per user (MAX_ENV_BYTES; tests lower it) */
  maxBytes = MAX_ENV_BYTES;
  /** each user's PUT under way, so two at once can't both pass the bytes check */
  readonly #putting = new Map<string, Promise<unknown>>();

  constructor(deps: CoreDeps, snapshots: EnvSnapshots, changed: (userId: string) => void) {
    this.#deps = deps;
    this.#snapshots = snapshots;
    this.#changed = changed;
  }

  view(row: EnvVarRow): EnvVarView {
    if (row.secret) return { name: row.name, secret: true, updated_at: row.updated_at };
    return { name: row.name, secret: false, value: this.#deps.secrets.open(row.value), updated_at: row.updated_at };
  }

  /** The user's variables, by name. */
  list(user: UserRow): Promise<EnvVarRow[]> {
    return this.#deps.store.envVars.list(user.id);
  }

  /** Creates or replaces `name`; the next run of each of the user's components sees it. */
  put(user: UserRow, name: string, body: unknown): Promise<EnvVarRow> {
    const input = checkEnvVarInput(name, body);
    const previous = this.#putting.get(user.id) ?? Promise.resolve();
    const mine = previous.then(() => this.#put(user, name, input));
    const tail = mine.catch(() => {});
    this.#putting.set(user.id, tail);
    void tail.then(() => this.#putting.get(user.id) === tail && this.#putting.delete(user.id));
    return mine;
  }

  async #put(user: UserRow, name: string, input: EnvVarInput): Promise<EnvVarRow> {
    await this.#checkBytes(user, name, input.value);
    const value = this.#deps.secrets.seal(input.value);
    const row = await this.#deps.store.envVars.put({ user_id: user.id, name, value, secret: input.secret, at: nowSeconds() }, this.max);
    if (!row) throw new AppError("limit_reached", `you have ${this.max} environment variables, the most allowed: delete one to add ${name}`);
    this.#changedNow(user.id);
    return row;
  }

  // Only growth past the bound is refused: a user already over it (from before the bound) keeps
  // their variables, and may replace one with one no larger.
  async #checkBytes(user: UserRow, name: string, value: string): Promise<void> {
    let now = 0;
    let others = 0;
    for (const row of await this.#deps.store.envVars.list(user.id)) {
      const bytes = bytesOf(row.name, this.#deps.secrets.open(row.value));
      now += bytes;
      if (row.name !== name) others += bytes;
    }
    const after = others + bytesOf(name, value);
    if (after <= this.maxBytes || after <= now) return;
    const limit = `${this.maxBytes} bytes (${Math.round(this.maxBytes / 1024)} KiB)`;
    throw new AppError("limit_reached", `your environment variables would total ${after} bytes of names and values, over the limit of ${limit} per user; they total ${now} bytes now: delete some or make values shorter`);
  }

  /** 404 when the user has no such variable (another user's reads the same). */
  async delete(user: UserRow, name: string): Promise<void> {
    checkName(name);
    if (!(await this.#deps.store.envVars.delete(user.id, name))) throw notFound("environment variable");
    this.#changedNow(user.id);
  }

  #changedNow(userId: string): void {
    this.#snapshots.drop(userId);
    this.#changed(userId);
  }
}
