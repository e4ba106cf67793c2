import { useEffect, useRef, useState } from "react";
import { useSession } from "../session-context.ts";
import { messageOf } from "../api-error.ts";
import { toastDone, toastFailed } from "../ui/toasts.ts";

// An OAuth connection from the dashboard: the provider's page opens in a new tab (opened in the
// click itself, so no popup blocker stops it), and the flow is polled until the callback has
// made the account, failed, or expired.

const POLL_MS = 1500;

type Start = () => Promise<{ data?: { data: { id: string; authorize_url: string } }; error?: unknown }>;

export function useOAuthFlow(onConnected: () => void | Promise<void>) {
  const { api } = useSession();
  const [waiting, setWaiting] = useState<string>();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const poll = (what: string, id: string) => {
    timer.current = setTimeout(async () => {
      const res = await api.GET("/v1/accounts/connect/{id}", { params: { path: { id } } });
      const flow = res.data?.data;
      if (!flow) {
        setWaiting(undefined);
        return toastFailed(what, messageOf(res.error));
      }
      if (flow.status === "pending") return poll(what, id);
      setWaiting(undefined);
      if (flow.status === "connected") {
        toastDone(`${what}: account ${flow.account_id} is ready`);
        await onConnected();
      } else toastFailed(what, flow.error ?? "the link expired before the provider sent you back");
    }, POLL_MS);
  };

  const start = async (what: string, call: Start) => {
    const tab = window.open("about:blank", "_blank");
    const res = await call();
    const started = res.data?.data;
    if (!started) {
      tab?.close();
      return toastFailed(what, messageOf(res.error));
    }
    if (tab) tab.location.href = started.authorize_url;
    else window.location.assign(started.authorize_url);
    clearTimeout(timer.current);
    setWaiting(what);
    poll(what, started.id);
  };

  return { waiting, start, cancel: () => (clearTimeout(timer.current), setWaiting(undefined)) };
}
