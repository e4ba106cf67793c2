import type { Peers } from "../core/cluster/peers.ts";
import type { HttpResponse } from "../runtime/protocol.ts";
import { AppError, ERROR_STATUS, type ErrorCode } from "../lib/errors.ts";

// Node-to-node calls (several nodes), over the nodes' own HTTP servers, authenticated with a
// token every node derives from the shared secret key (routes/cluster.ts checks it).

export function peerClient(token: string, timeoutMs: number): Peers {
  return {
    async respond(address, sourceId, eventJson): Promise<HttpResponse> {
      let res: Response;
      try {
        res = await fetch(`${address}/_cluster/respond/${encodeURIComponent(sourceId)}`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify({ event_json: eventJson }),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (e) {
        // the owner died or is unreachable: its partition moves within the lease's life
        const err = new AppError("unavailable", "the node running this endpoint's source can't be reached: try again in a moment");
        err.retryAfterSeconds = 1;
        err.cause = e;
        throw err;
      }
      const body = (await res.json().catch(() => undefined)) as { data?: HttpResponse; error?: { code?: string; message?: string } } | undefined;
      if (res.ok && body?.data) return body.data;
      const code = (body?.error?.code && body.error.code in ERROR_STATUS ? body.error.code : "internal") as ErrorCode;
      const err = new AppError(code, body?.error?.message ?? `the owner node answered ${res.status}`);
      const retry = res.headers.get("retry-after");
      if (retry) err.retryAfterSeconds = Number(retry);
      throw err;
    },
  };
}
