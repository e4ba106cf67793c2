import type { Bus } from "../../bus/port.ts";

// Work accepted for an emitter another node owns is announced to that node over the bus. Under
// load one source takes many requests a millisecond: announcements are gathered and each
// (kind, id) goes out once per turn of the event loop, not once per row.

type Kind = "inbox" | "deliveries";

export class Announcements {
  readonly #bus: Bus;
  readonly #pending = new Map<string, Kind>();
  #scheduled: NodeJS.Immediate | undefined;

  constructor(bus: Bus) {
    this.#bus = bus;
  }

  add(kind: Kind, id: string): void {
    this.#pending.set(`${kind}:${id}`, kind);
    this.#scheduled ??= setImmediate(() => this.#flush());
  }

  close(): void {
    if (this.#scheduled) clearImmediate(this.#scheduled);
    this.#scheduled = undefined;
    this.#pending.clear();
  }

  #flush(): void {
    this.#scheduled = undefined;
    for (const [key, kind] of this.#pending) this.#bus.broadcast({ t: kind, id: key.slice(kind.length + 1) });
    this.#pending.clear();
  }
}
