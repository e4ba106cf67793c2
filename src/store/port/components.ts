import type { ComponentMeta } from "../../lib/component-meta.ts";
import type { Page, PageRequest } from "./paging.ts";

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
  /** what the runner loads when the code imports packages, Node modules or files: made at save */
  bundle: ComponentBundle | null;
}

export interface ComponentBundle {
  code: string;
  /** sha256 of `code`: the runner's cache key for it */
  hash: string;
  /** the package versions in it, `name@version` */
  packages: string[];
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
  /** a page of the user's own components, or of the registry's when `userId` is null; newest first; of one type when given */
  list(userId: string | null, page: PageRequest, type?: string): Promise<Page<ComponentRow> | undefined>;
  touch(id: string, updatedAt: number, componentUrl: string | null): Promise<void>;
}
