// Headers that describe a connection, not a message (RFC 9110 §7.6.1), plus Content-Length:
// the server frames its own replies, so a component's copy of any of these is dropped.
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "content-length",
]);

export function isHopByHop(name: string): boolean {
  const lower = name.toLowerCase();
  return HOP_BY_HOP.has(lower) || lower.startsWith("proxy-");
}
