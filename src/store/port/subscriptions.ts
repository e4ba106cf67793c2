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
