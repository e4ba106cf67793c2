import { PARTITIONS } from "../../store/port.ts";
import { fnv1a } from "../../lib/hash.ts";

/**
 * The partition of an emitter (source, workflow) or webhook id. Every node must compute the same,
 * forever: changing it would move every emitter at once.
 */
export function partitionOf(id: string): number {
  return fnv1a(id) % PARTITIONS;
}
