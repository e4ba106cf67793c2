import { useCallback, useEffect, useMemo, useState } from "react";
import { Center, Loader } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { clientFor, forgetKey, storedKey, storeKey } from "./session.ts";
import { SessionContext, type Me, type Session } from "./session-context.ts";
import { SignIn } from "./sign-in.tsx";
import { Shell } from "./shell.tsx";

// Signed in or not: a stored key is checked once against GET /v1/users/me; a key the API refuses
// is forgotten and the sign-in page shows why.

export function App() {
  const [key, setKey] = useState<string | null>(storedKey);
  const [me, setMe] = useState<Me>();
  const [problem, setProblem] = useState<string>();

  const signIn = useCallback(async (candidate: string): Promise<string | undefined> => {
    const { data, error } = await clientFor(candidate).GET("/v1/users/me");
    if (!data) return (error as { error?: { message?: string } } | undefined)?.error?.message ?? "sign-in failed";
    storeKey(candidate);
    setKey(candidate);
    setMe(data.data);
    return undefined;
  }, []);

  const signOut = useCallback(() => {
    forgetKey();
    // the next person to sign in starts at the sources, not on the last one's page
    history.replaceState(null, "", "#/sources");
    // nor sees the last one's messages
    notifications.clean();
    setKey(null);
    setMe(undefined);
  }, []);

  useEffect(() => {
    if (!key || me) return;
    void signIn(key).then((err) => {
      if (err) {
        signOut();
        setProblem(`The stored key no longer works: ${err}`);
      }
    });
  }, [key, me, signIn, signOut]);

  const session = useMemo<Session | undefined>(
    () => (key && me ? { api: clientFor(key), key, me, signOut } : undefined),
    [key, me, signOut],
  );

  if (!key) return <SignIn onSignIn={signIn} notice={problem} />;
  if (!session)
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
