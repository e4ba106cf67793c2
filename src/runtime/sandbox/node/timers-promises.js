// node:timers/promises for bundled packages, on the sandbox's timers.
export const setTimeout = (ms, value) => new Promise((resolve) => globalThis.setTimeout(() => resolve(value), ms));
export const setImmediate = (value) => new Promise((resolve) => globalThis.setTimeout(() => resolve(value), 0));
export default { setTimeout, setImmediate };
