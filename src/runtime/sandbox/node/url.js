// node:url for bundled packages: the legacy API of the `url` package (parse, format, resolve) and
// what Node exports beside it that the package lacks: the WHATWG URL classes (Shopify's client
// does `new (require("url").URL)(...)`), fileURLToPath and pathToFileURL, domainToASCII, and
// urlToHttpOptions (got 12+ and http2-wrapper import it).
import legacy from "url/";
import { URL, URLSearchParams } from "url";

export { URL, URLSearchParams };
export const { parse, resolve, resolveObject, format, Url } = legacy;

export function fileURLToPath(u) {
  const url = typeof u === "string" ? new URL(u) : u;
  if (!url || url.protocol !== "file:") throw new TypeError("The URL must be of scheme file");
  if (url.hostname !== "" && url.hostname !== "localhost") throw new TypeError('File URL host must be "localhost" or empty');
  return decodeURIComponent(url.pathname);
}

export function pathToFileURL(path) {
  const p = String(path);
  return new URL(`file://${encodeURI(p.startsWith("/") ? p : `/${p}`).replace(/[?#]/g, encodeURIComponent)}`);
}

export const domainToASCII = (domain) => {
  try {
    return new URL(`http://${domain}`).hostname;
  } catch {
    return "";
  }
};
// Node's own (lib/internal/url.js): a URL as http.request's options
export function urlToHttpOptions(url) {
  const { hostname, pathname, port, username, password, search } = url;
  const options = {
    __proto__: null,
    ...url, // a URL extended with own properties keeps them, as in Node
    protocol: url.protocol,
    hostname: hostname && hostname[0] === "[" ? hostname.slice(1, -1) : hostname,
    hash: url.hash,
    search,
    pathname,
    path: `${pathname || ""}${search || ""}`,
    href: url.href,
  };
  if (port !== "") options.port = Number(port);
  if (username || password) options.auth = `${decodeURIComponent(username)}:${decodeURIComponent(password)}`;
  return options;
}

export const domainToUnicode = (domain) => String(domain);

export default { parse, resolve, resolveObject, format, Url, URL, URLSearchParams, fileURLToPath, pathToFileURL, urlToHttpOptions, domainToASCII, domainToUnicode };
