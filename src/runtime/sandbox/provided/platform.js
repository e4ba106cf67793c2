// Source of the "@pipedream/platform" module inside the isolate. Must stay self-contained: it is
// compiled as an ES module in every isolate, with no imports of its own.
export const DEFAULT_POLLING_SOURCE_TIMER_INTERVAL = 900;

export class ConfigurationError extends Error {
  constructor(message) {
    super(message);
    this.name = "ConfigurationError";
  }
}

export function defineComponent(component) {
  return component;
}

export function defineSource(component) {
  return component;
}

export function defineApp(app) {
  return app;
}

const client = globalThis.__tributaryHost.axios;

// Pipedream's signature: axios($, config), resolving to the response data (the whole response
// with returnFullResponse). `$` is the component's `this`; nothing of it is needed here.
export async function axios(_$, config = {}) {
  const { returnFullResponse, debug: _debug, ...rest } = config;
  const response = await client.request(rest);
  return returnFullResponse ? response : response.data;
}
