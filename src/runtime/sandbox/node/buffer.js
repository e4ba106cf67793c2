// node:buffer inside the sandbox: the buffer package's Buffer, with what Node's module has beside
// it that packages read (ioredis sizes its pipelines by constants.MAX_STRING_LENGTH). Bundled into
// components.
import polyfill from "buffer/";

export const Buffer = polyfill.Buffer;

// Node's per-encoding methods (buf.latin1Slice(start, end), buf.utf8Write(string, offset, length)),
// which packages call directly for speed (ssh2 parses its protocol with them)
for (const encoding of ["latin1", "ascii", "utf8", "hex", "base64", "ucs2"]) {
  const define = (name, value) => {
    if (!(name in Buffer.prototype)) Object.defineProperty(Buffer.prototype, name, { value, writable: true, configurable: true });
  };
  define(`${encoding}Slice`, function (start = 0, end = this.length) {
    return this.toString(encoding, start, end);
  });
  define(`${encoding}Write`, function (string, offset = 0, length = this.length - offset) {
    return this.write(string, offset, length, encoding);
  });
}
export const SlowBuffer = polyfill.SlowBuffer;
export const INSPECT_MAX_BYTES = polyfill.INSPECT_MAX_BYTES;
export const kMaxLength = polyfill.kMaxLength;
// V8's longest string, as Node reports it
export const kStringMaxLength = 2 ** 29 - 24;
export const constants = Object.freeze({ MAX_LENGTH: kMaxLength, MAX_STRING_LENGTH: kStringMaxLength });
export const Blob = globalThis.Blob;
export const File = globalThis.File;
export const atob = (s) => globalThis.atob(s);
export const btoa = (s) => globalThis.btoa(s);

export function isUtf8(input) {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(input);
    return true;
  } catch {
    return false;
  }
}

export function isAscii(input) {
  const bytes = new Uint8Array(input.buffer ?? input, input.byteOffset ?? 0, input.byteLength);
  for (let i = 0; i < bytes.length; i++) if (bytes[i] > 127) return false;
  return true;
}

export default { Buffer, SlowBuffer, INSPECT_MAX_BYTES, kMaxLength, kStringMaxLength, constants, Blob, File, atob, btoa, isUtf8, isAscii };
