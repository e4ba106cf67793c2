// node:diagnostics_channel for bundled packages that publish to it (undici, fetch clients):
// channels nobody in the sandbox subscribes to, so publishing is a no-op.
class Channel {
  constructor(name) {
    this.name = name;
    this.hasSubscribers = false;
  }
  publish() {}
  subscribe() {}
  unsubscribe() {
    return false;
  }
  bindStore() {}
  unbindStore() {}
  runStores(_data, fn, thisArg, ...args) {
    return fn.apply(thisArg, args);
  }
}
const channels = new Map();
export function channel(name) {
  if (!channels.has(name)) channels.set(name, new Channel(name));
  return channels.get(name);
}
export const hasSubscribers = () => false;
export const subscribe = () => {};
export const unsubscribe = () => false;
export function tracingChannel(name) {
  const c = (kind) => channel(`tracing:${name}:${kind}`);
  return {
    start: c("start"), end: c("end"), asyncStart: c("asyncStart"), asyncEnd: c("asyncEnd"), error: c("error"),
    hasSubscribers: false,
    subscribe() {},
    unsubscribe() {},
    traceSync: (fn, _ctx, thisArg, ...args) => fn.apply(thisArg, args),
    tracePromise: (fn, _ctx, thisArg, ...args) => fn.apply(thisArg, args),
    traceCallback: (fn, _pos, _ctx, thisArg, ...args) => fn.apply(thisArg, args),
  };
}
export { Channel };
export default { channel, hasSubscribers, subscribe, unsubscribe, tracingChannel, Channel };
