import { PARTITIONS } from "../../store/port.ts";

/**
 * The partition of an emitter (source, workflow) or webhook id: FNV-1a of the id. Every node
 * must compute the same, forever: changing it would move every emitter at once.
 */
export function partitionOf(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % PARTITIONS;
}
