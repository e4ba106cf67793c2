// Bytes to and from the runner for node/crypto-*.js: what crosses is a plain Uint8Array copy (a
// Buffer is a subclass, and a view may show part of a larger buffer); what comes back is a Buffer.
import { Buffer } from "buffer";

/** data as Node's crypto takes it (a string in `encoding`, a view, an ArrayBuffer), as plain bytes */
export function toBytes(data, encoding, what = "data") {
  if (typeof data === "string") return new Uint8Array(Buffer.from(data, encoding && encoding !== "buffer" ? encoding : "utf8"));
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength));
  if (data instanceof ArrayBuffer) return new Uint8Array(data.slice(0));
  throw new TypeError(`The "${what}" argument must be of type string or an instance of Buffer, TypedArray, or DataView`);
}

export function fromHost(bytes) {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** a Buffer, or its text in `encoding` */
export function output(bytes, encoding) {
  const b = fromHost(bytes);
  return encoding && encoding !== "buffer" ? b.toString(encoding) : b;
}
