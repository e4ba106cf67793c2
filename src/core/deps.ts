import type { Store } from "../store/port.ts";
import type { ComponentAnalyzer } from "../runtime/types.ts";
import type { SecretBox } from "../lib/secret-box.ts";

/** What the domain needs, wired once by buildApp. */
export interface CoreDeps {
  store: Store;
  analyzer: ComponentAnalyzer;
  secrets: SecretBox;
  publicUrl: string;
  fetchAllow: readonly string[];
  quotas: { dailyInvocations: number; dailyComputeTime: number };
}
