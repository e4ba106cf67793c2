import type { HttpResponse } from "../../runtime/protocol.ts";

/**
 * Calls on another node (several nodes). An HTTP source that answers its requests itself
 * (customResponse) runs on the node that owns it, like all its runs, so its `this.db` and event
 * ids have one writer: a node that takes such a request hands the event to the owner and sends
 * back what the owner's run answered.
 */
export interface Peers {
  respond(address: string, sourceId: string, eventJson: string): Promise<HttpResponse>;
}
