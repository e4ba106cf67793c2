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
