// The components shipped with the service (docs/api.md, "The registry"): one file per component, key = file stem.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const REGISTRY_DIR = join(import.meta.dirname, "../core/registry");

export interface ShippedComponent {
  key: string;
  code: string;
}

export function listShippedComponents(): ShippedComponent[] {
  return readdirSync(REGISTRY_DIR)
    .filter((f) => f.endsWith(".js"))
    .sort()
    .map((f) => ({ key: f.slice(0, -".js".length), code: readFileSync(join(REGISTRY_DIR, f), "utf8") }));
}
