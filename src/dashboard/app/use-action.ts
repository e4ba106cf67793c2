import { useState } from "react";
import { messageOf } from "./api-error.ts";

type ApiCall = () => Promise<{ error?: unknown; response: Response }>;

/**
 * An API action behind a button: which one is running (for its spinner), and the API's message
 * when it fails, to show where it happened.
 */
export function useAction() {
  const [busy, setBusy] = useState<string>();
  const [error, setError] = useState<string>();
  const act = async (what: string, call: ApiCall, done: () => void | Promise<void>) => {
    setBusy(what);
    setError(undefined);
    const res = await call();
    setBusy(undefined);
    if (!res.response.ok) return setError(`${what} failed: ${messageOf(res.error)}`);
    await done();
  };
  return { busy, error, act, dismiss: () => setError(undefined) };
}
