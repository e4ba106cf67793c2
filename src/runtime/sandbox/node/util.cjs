// node:util for bundled packages: the util package, with what Node's module has beside it that the
// package lacks: TextEncoder and TextDecoder (axios 1.x imports them from "util"), the sandbox's
// own globals. CommonJS, so require("util") stays the package's one object.
const util = require("util/");

if (!("TextEncoder" in util)) util.TextEncoder = globalThis.TextEncoder;
if (!("TextDecoder" in util)) util.TextDecoder = globalThis.TextDecoder;
module.exports = util;
