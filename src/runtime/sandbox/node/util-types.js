// node:util/types for bundled packages: the util polyfill's own `types`.
import util from "util/";
export default util.types;
export const { isDate, isRegExp, isPromise, isTypedArray, isUint8Array, isArrayBuffer, isAnyArrayBuffer } = util.types;
