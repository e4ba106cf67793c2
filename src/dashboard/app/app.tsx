import { useCallback, useEffect, useMemo, useState } from "react";
import { Center, Loader } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { clientFor, dashboardFetch, endSession, forgetStoredKey, signedIn, signInWith } from "./session.ts";
import { SessionContext, type Me, type Session } from "./session-context.ts";
import { SignIn } from "./sign-in.tsx";
import { Shell } from "./shell.tsx";
import { messageOf } from "./api-error.ts";

// Signed in or not: the session cookie (HttpOnly, session.ts) is asked about once at load; a
// signed-in page reads its user from GET /v1/users/me. Any 401 afterwards means the session ended
// (expired, key rotated, user deleted): the sign-in page shows why.

type Phase = "checking" | "signed-out" | "signed-in";

export function App() {
  const [phase, setPhase] = useState<Phase>("checking");
  const [me, setMe] = useState<Me>();
  const [problem, setProblem] = useState<string>();

  const leave = useCallback((why?: string) => {
    // the next person to sign in starts at the sources, not on the last one's page
    history.replaceState(null, "", "#/sources");
    // nor sees the last one's messages
    notifications.clean();
    setMe(undefined);
    setProblem(why);
    setPhase("signed-out");
  }, []);

  const sessionFetch = useMemo(() => dashboardFetch(() => leave("Your session has ended: sign in again.")), [leave]);
  const api = useMemo(() => clientFor(sessionFetch), [sessionFetch]);

  const enter = useCallback(async (): Promise<string | undefined> => {
    const { data, error } = await api.GET("/v1/users/me");
    if (!data) return (error as { error?: { message?: string } } | undefined)?.error?.message ?? "sign-in failed";
    setMe(data.data);
    setProblem(undefined);
    setPhase("signed-in");
    return undefined;
  }, [api]);

  const signIn = useCallback(
    async (key: string): Promise<string | undefined> => (await signInWith(key)) ?? (await enter()),
    [enter],
  );

  const signOut = useCallback(() => {
    void endSession().finally(() => leave());
  }, [leave]);

  useEffect(() => {
    forgetStoredKey();
    const failed = (why: unknown) => leave(`The dashboard could not load your session: ${messageOf(why)}`);
    void signedIn()
      .then(async (yes) => {
        if (!yes) return setPhase("signed-out");
        const err = await enter();
        if (err) leave(err);
      })
      .catch(failed);
  }, [enter, leave]);

  const session = useMemo<Session | undefined>(
    () => (me ? { api, fetch: sessionFetch, me, signOut } : undefined),
    [api, sessionFetch, me, signOut],
  );

  if (phase === "signed-out") return <SignIn onSignIn={signIn} notice={problem} />;
  if (phase === "checking" || !session)
    return (
      <Center h="100vh">
        <Loader />
      </Center>
    );
  return (
    <SessionContext.Provider value={session}>
      <Shell />
    </SessionContext.Provider>
  );
}
