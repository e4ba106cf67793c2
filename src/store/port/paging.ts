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
