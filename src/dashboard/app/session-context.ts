import { createContext, useContext } from "react";
import type { TributaryClient } from "../../client/index.ts";

export interface Me {
  id: string;
  username: string;
  email: string;
  admin: boolean;
  daily_compute_time_quota: number;
  daily_compute_time_used: number;
  daily_invocations_quota: number;
  daily_invocations_used: number;
}

export interface Session {
  api: TributaryClient;
  /** this origin's fetch with the session cookie and the dashboard's header, for the SSE streams */
  fetch: typeof fetch;
  me: Me;
  signOut: () => void;
}

export const SessionContext = createContext<Session | undefined>(undefined);

export function useSession(): Session {
  const s = useContext(SessionContext);
  if (!s) throw new Error("useSession outside a signed-in page");
  return s;
}
