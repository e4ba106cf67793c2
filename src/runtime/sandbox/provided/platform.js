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

// Pipedream's signature is axios($, config); the runtime issue replaces this with the real one.
export function axios() {
  throw new Error("axios is not available during analysis");
}
