// node:url for bundled packages: the legacy API of the `url` package (parse, format, resolve) and
// what Node exports beside it that the package lacks: the WHATWG URL classes (Shopify's client
// does `new (require("url").URL)(...)`), fileURLToPath and pathToFileURL, domainToASCII.
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
export const domainToUnicode = (domain) => String(domain);

export default { parse, resolve, resolveObject, format, Url, URL, URLSearchParams, fileURLToPath, pathToFileURL, domainToASCII, domainToUnicode };
