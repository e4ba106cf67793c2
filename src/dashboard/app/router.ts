import { useSyncExternalStore } from "react";

// Hash routes (#/sources/dc_123/errors): the page is always served from /, so the server needs
// no fallback for client-side paths, and a reload keeps the place.

const subscribe = (onChange: () => void) => {
  window.addEventListener("hashchange", onChange);
  return () => window.removeEventListener("hashchange", onChange);
};

/** The route's parts: "#/sources/dc_1" → ["sources", "dc_1"]. */
export function useRoute(): string[] {
  const hash = useSyncExternalStore(subscribe, () => location.hash);
  return hash
    .replace(/^#\/?/, "")
    .split("/")
    .filter(Boolean)
    .map((p) => decodeURIComponent(p));
}

export const href = (...parts: string[]): string => "#/" + parts.map(encodeURIComponent).join("/");

export function navigate(...parts: string[]): void {
  location.hash = href(...parts);
}
