// Source of the "url" module inside the isolate: the runtime's WHATWG URL classes.
const host = globalThis.__tributaryHost;

export const URL = host.URL;
export const URLSearchParams = host.URLSearchParams;

export default { URL, URLSearchParams };
