import type { CoreDeps } from "../deps.ts";
import type { EnvVarRow, UserRow } from "../../store/port.ts";
import { AppError, notFound } from "../../lib/errors.ts";
import { nowSeconds } from "../../lib/clock.ts";
import type { EnvSnapshots } from "./env-snapshots.ts";
import { checkEnvVarInput, checkName } from "./env-input.ts";

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

export class EnvVars {
  readonly #deps: CoreDeps;
  readonly #snapshots: EnvSnapshots;
  /** tells the other nodes (their snapshots of the user go stale) */
  readonly #changed: (userId: string) => void;
  /** the bound on variables per user (MAX_ENV_VARS; tests lower it) */
  max = MAX_ENV_VARS;

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
  async put(user: UserRow, name: string, body: unknown): Promise<EnvVarRow> {
    const input = checkEnvVarInput(name, body);
    const value = this.#deps.secrets.seal(input.value);
    const row = await this.#deps.store.envVars.put({ user_id: user.id, name, value, secret: input.secret, at: nowSeconds() }, this.max);
    if (!row) throw new AppError("limit_reached", `you have ${this.max} environment variables, the most allowed: delete one to add ${name}`);
    this.#changedNow(user.id);
    return row;
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
