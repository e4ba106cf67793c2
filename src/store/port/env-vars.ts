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
