// Source of the "url" module inside the isolate. Plain isolated-vm contexts have no URL global;
// the runtime installs one, and until then constructing either class says why it fails.
function missing(name) {
  return class {
    constructor() {
      throw new Error(`${name} is not available during analysis`);
    }
  };
}

export const URL = globalThis.URL ?? missing("URL");
export const URLSearchParams = globalThis.URLSearchParams ?? missing("URLSearchParams");

export default { URL, URLSearchParams };
