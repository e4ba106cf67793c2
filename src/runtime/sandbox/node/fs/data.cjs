// What a call's options and data mean, as Node reads them: an encoding given alone or as
// { encoding, flag }, data as a string, Buffer or any typed array. The path and the descriptor
// calls both take them, so both read them here, alike.
const { Buffer } = require("buffer");
const { argError, describe } = require("./errors.cjs");

const encodingOf = (options) => (typeof options === "string" ? options : options?.encoding ?? null);
const flagOf = (options, fallback) => (typeof options === "object" && options !== null && options.flag) || fallback;

function bytesOf(data, options) {
  if (typeof data === "string") return Buffer.from(data, encodingOf(options) ?? "utf8");
  if (Buffer.isBuffer(data)) return data;
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  throw argError(`The "data" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received ${describe(data)}`);
}

// a copy when no encoding is asked for: the caller may change it, the file must not change with it
function decoded(buf, options) {
  const encoding = encodingOf(options);
  return encoding && encoding !== "buffer" ? buf.toString(encoding) : Buffer.from(buf);
}

module.exports = { encodingOf, flagOf, bytesOf, decoded };
