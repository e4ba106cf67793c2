import { useState } from "react";
import { messageOf } from "../api-error.ts";
import { toastFailed } from "../ui/toasts.ts";

type ApiCall = () => Promise<{ error?: unknown; response: Response }>;

/**
 * An API action behind a button: which one is running (for its spinner), and the API's message
 * when it fails, shown where it happened and as a toast.
 */
export function useAction() {
  const [busy, setBusy] = useState<string>();
  const [error, setError] = useState<string>();
  const act = async (what: string, call: ApiCall, done: () => void | Promise<void>) => {
    setBusy(what);
    setError(undefined);
    const fail = (why: unknown) => {
      toastFailed(what, messageOf(why));
      setError(`${what} failed: ${messageOf(why)}`);
    };
    let res: Awaited<ReturnType<ApiCall>>;
    try {
      res = await call();
    } catch (e) {
      // the network, not the API: the service is down or unreachable
      setBusy(undefined);
      return fail(e);
    }
    setBusy(undefined);
    if (!res.response.ok) return fail(res.error);
    await done();
  };
  return { busy, error, act, dismiss: () => setError(undefined) };
}
