/** An account's app-events URL (docs/connecting-accounts.md, "App events"): where its app sends events. */
export function appEventsUrl(publicUrl: string, key: string): string {
  return `${publicUrl}/app-events/${key}`;
}
