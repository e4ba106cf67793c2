import { tributaryClient, type TributaryClient } from "../../client/index.ts";
import { messageOf } from "./api-error.ts";

// The page never keeps the API key. The key typed at sign-in is sent once to POST
// /dashboard/session, which answers with an HttpOnly cookie that scripts can't read; the API then
// takes that cookie on requests carrying X-Tributary-Dashboard: 1 (a header another site's page
// can't add). So nothing on this origin, an HTTP endpoint's page included, can read a key from
// the browser. Signing out is a DELETE, which clears the cookie.

const HEADER = "X-Tributary-Dashboard";

/** A fetch of this origin with the session cookie and the dashboard's header. */
function sameOrigin(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = new Request(input, { ...init, credentials: "same-origin" });
  request.headers.set(HEADER, "1");
  return fetch(request);
}

/** The dashboard's fetch: a 401 means the session ended (it expired, the key was rotated, the user deleted). */
export function dashboardFetch(onEnded: () => void): typeof fetch {
  return async (input, init) => {
    const res = await sameOrigin(input, init);
    if (res.status === 401) onEnded();
    return res;
  };
}

/** The typed client of this origin's API, signed in by the session cookie. */
export const clientFor = (f: typeof fetch): TributaryClient => tributaryClient({ url: location.origin, fetch: f });

async function session(method: "GET" | "POST" | "DELETE", body?: unknown): Promise<{ ok: boolean; data?: { signed_in: boolean }; error?: unknown }> {
  const res = await sameOrigin("/dashboard/session", {
    method,
    ...(body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  });
  const json = (await res.json().catch(() => undefined)) as { data?: { signed_in: boolean } } | undefined;
  return res.ok ? { ok: true, data: json?.data } : { ok: false, error: json };
}

/** Removes the key an earlier version of the dashboard kept in localStorage, where scripts could read it. */
export function forgetStoredKey(): void {
  try {
    localStorage.removeItem("tributary.apiKey");
  } catch {
    // storage turned off: nothing was kept there either
  }
}

/** Whether this browser holds a live session. */
export async function signedIn(): Promise<boolean> {
  const res = await session("GET");
  return res.data?.signed_in === true;
}

/** Exchanges the key for a session cookie; the error's message when the API refused it. */
export async function signInWith(key: string): Promise<string | undefined> {
  const res = await session("POST", { key });
  return res.ok ? undefined : messageOf(res.error);
}

/** Ends this browser's session (the cookie is cleared). */
export async function endSession(): Promise<void> {
  await session("DELETE");
}
