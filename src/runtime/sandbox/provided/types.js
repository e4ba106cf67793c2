// Source of the "@pipedream/types" module inside the isolate.
export function defineComponent(component) {
  return component;
}

export function defineSource(component) {
  return component;
}

export function defineApp(app) {
  return app;
}

export function defineAction(action) {
  return action;
}
