// Resource-list cursors are opaque to clients: base64url of the item's id (docs/api.md, "Pagination").
export function encodeCursor(id: string): string {
  return Buffer.from(id, "utf8").toString("base64url");
}

/** The id inside a cursor, or undefined when it isn't one of ours. */
export function decodeCursor(cursor: string): string | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  const id = Buffer.from(cursor, "base64url").toString("utf8");
  return /^[a-z]+_[A-Za-z0-9_-]{8,32}$/.test(id) ? id : undefined;
}
