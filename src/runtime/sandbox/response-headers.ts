// Headers a component hands to this.http.respond(). Hop-by-hop headers describe the connection,
// which belongs to the server (a component's Transfer-Encoding next to the server's
// Content-Length makes a reply no client can read), so they are dropped; a name or value Node
// would refuse to write (CR/LF, control characters) fails the run with a message that says which.
import { isHopByHop } from "../../lib/net/hop-by-hop.ts";

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// Visible ASCII, space, tab and obs-text; no CR, LF, NUL or other controls.
const VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
const MAX_HEADERS = 100;
const MAX_HEADER_BYTES = 16 * 1024;

/** `what` names the call in errors: respond(), or $.send.http() for a request's headers. */
export function checkResponseHeaders(raw: unknown, what = "respond()"): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof raw !== "object" || raw === null) return out;
  let count = 0;
  let bytes = 0;
  for (const [name, value] of Object.entries(raw)) {
    if (typeof value !== "string") continue;
    if (!TOKEN.test(name)) throw new TypeError(`${what}: ${JSON.stringify(name.slice(0, 100))} is not a valid header name`);
    if (!VALUE.test(value)) throw new TypeError(`${what}: the value of header "${name}" has characters a header can't carry (CR, LF or other controls)`);
    if (isHopByHop(name)) continue;
    bytes += name.length + value.length;
    if (++count > MAX_HEADERS || bytes > MAX_HEADER_BYTES) {
      throw new RangeError(`${what}: more than ${MAX_HEADERS} headers or ${MAX_HEADER_BYTES} bytes of them`);
    }
    out[name] = value;
  }
  return out;
}
