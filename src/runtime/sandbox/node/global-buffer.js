// `Buffer` for bundled components and packages that use it (injected by the bundler, module-scoped).
export { Buffer } from "buffer";
