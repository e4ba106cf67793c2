// Stands in for a Node module the sandbox does not have (fs, net, child_process...) when a
// package imports it: the package loads, and only calling into the module fails, with a clear
// message. A component that imports such a module itself is refused at save instead.
// CommonJS, because that is how packages reach these modules: require("fs").readFileSync.
const fail = (name) => () => {
  throw new Error(`${name} is not available in the sandbox`);
};
module.exports = function forbidden(name) {
  return new Proxy(fail(name), {
    get: (_t, prop) => (prop === "__esModule" ? false : prop === "then" ? undefined : fail(`${name}.${String(prop)}`)),
  });
};
