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
  /** the signed-in key, for the SSE streams (sent as a header, never in the URL) */
  key: string;
  me: Me;
  signOut: () => void;
}

export const SessionContext = createContext<Session | undefined>(undefined);

export function useSession(): Session {
  const s = useContext(SessionContext);
  if (!s) throw new Error("useSession outside a signed-in page");
  return s;
}
