import { createHash } from "node:crypto";
import type { EnvVarStore } from "../../store/port.ts";
import type { SecretBox } from "../../lib/secret-box.ts";
import type { EnvText } from "../../runtime/protocol.ts";
import type { NamedSecret } from "../runtime/secret-mask.ts";

// Every run of a user's components carries the user's environment variables (process.env), so
// each user's are kept here, opened and already as the JSON text the runner takes, with its
// version: a run costs a map lookup and carries only the version (a runner asks for a text it
// doesn't hold, once), and a user with none (most) sends nothing. A change made through this node marks
// the user's entry stale at once; one made through another node arrives over the bus
// (SourceRuntime.onUserChanged). A bus message may be lost, so with PostgreSQL (other nodes may
// write) an entry is also read again after `ttlMs`. A read opens only values whose sealed text
// changed: each is opened once per change, not once per run or per read.

/** What a run of the user's is given, and what of it its output must not show. */
export interface EnvForRun {
  /** the variables as a JSON object's text and its version, or undefined when there are none */
  text: EnvText | undefined;
  /** the secret variables' opened values (runtime/secret-mask.ts masks them in what runs show) */
  secrets: readonly NamedSecret[];
}

interface Snapshot extends EnvForRun {
  /** name -> [sealed, opened], what the next read reuses */
  opened: Map<string, [string, string]>;
}

interface Entry {
  /** ms since the epoch; 0 once stale */
  expires: number;
  value: Promise<Snapshot>;
  done?: Snapshot;
}

const MAX_USERS = 10_000;

export class EnvSnapshots {
  readonly #store: EnvVarStore;
  readonly #secrets: SecretBox;
  readonly #ttlMs: number;
  readonly #entries = new Map<string, Entry>();

  constructor(store: EnvVarStore, secrets: SecretBox, ttlMs: number) {
    this.#store = store;
    this.#secrets = secrets;
    this.#ttlMs = ttlMs;
  }

  /**
   * The user's variables as JSON text with its version, or undefined when they have none; a
   * promise only when they must be read. Rejects only when the store can't be read.
   */
  snapshot(userId: string): EnvText | undefined | Promise<EnvText | undefined> {
    const run = this.forRun(userId);
    return run instanceof Promise ? run.then((s) => s.text) : run.text;
  }

  /** The user's variables with their secret ones' values: as `snapshot`, for a run. */
  forRun(userId: string): EnvForRun | Promise<EnvForRun> {
    const entry = this.#entries.get(userId);
    const now = this.#ttlMs === Infinity ? 1 : Date.now();
    if (entry && entry.expires > now) return entry.done ?? entry.value;
    const previous = entry?.done?.opened;
    const mine: Entry = { expires: now + this.#ttlMs, value: this.#load(userId, previous) };
    if (!this.#entries.has(userId) && this.#entries.size >= MAX_USERS) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(userId, mine);
    mine.value.then(
      (s) => void (mine.done = s),
      // a failed read is not kept: the next run tries the store again
      () => void (this.#entries.get(userId) === mine && this.#entries.delete(userId)),
    );
    return mine.value;
  }

  /** The user's variables changed (here or on another node): the next run reads them again. */
  drop(userId: string): void {
    const entry = this.#entries.get(userId);
    if (entry) entry.expires = 0;
  }

  async #load(userId: string, previous: Map<string, [string, string]> | undefined): Promise<Snapshot> {
    const rows = await this.#store.list(userId);
    const opened = new Map<string, [string, string]>();
    if (rows.length === 0) return { text: undefined, secrets: [], opened };
    const secrets: NamedSecret[] = [];
    // no prototype: a variable may be named __proto__
    const env = Object.create(null) as Record<string, string>;
    for (const r of rows) {
      const known = previous?.get(r.name);
      const plain = known && known[0] === r.value ? known[1] : this.#secrets.open(r.value);
      opened.set(r.name, [r.value, plain]);
      env[r.name] = plain;
      if (r.secret) secrets.push({ name: r.name, value: plain });
    }
    const json = JSON.stringify(env);
    // the owner is in the hash: two users' runs never share a version the runner holds
    const version = createHash("sha256").update(userId).update("\n").update(json).digest("base64url");
    return { text: { version, json }, secrets, opened };
  }
}
