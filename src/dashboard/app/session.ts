import { tributaryClient, type TributaryClient } from "../../client/index.ts";

// The API key typed at sign-in is kept in this browser's localStorage and sent as a Bearer
// header by the typed client; it never goes into a URL. Signing out removes it.

const KEY = "tributary.apiKey";

export const storedKey = (): string | null => localStorage.getItem(KEY);
export const storeKey = (key: string): void => localStorage.setItem(KEY, key);
export const forgetKey = (): void => localStorage.removeItem(KEY);

/** A client of this same origin's API with `key`. */
export const clientFor = (key: string): TributaryClient => tributaryClient({ url: location.origin, key });
