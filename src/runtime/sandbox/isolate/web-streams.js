// Runs INSIDE the isolate: the WHATWG streams Node has as globals (and in `stream/web`), from
// web-streams-polyfill, which the runner hands over the first time code names one of them
// (host-ops.ts, webStreamsSource: ~65 KB of source, evaluated only then). TextEncoderStream and
// TextDecoderStream, which the polyfill lacks, are TransformStreams over the sandbox's own
// TextEncoder and TextDecoder.
import { call } from "./host.js";

// taken before any component code runs: what it does to the global eval can't reach this
const evaluate = globalThis.eval;

/** the globals this module gives, each made when first read (node-globals.js) */
export const STREAM_GLOBALS = [
  "ReadableStream",
  "ReadableStreamDefaultReader",
  "ReadableStreamBYOBReader",
  "ReadableStreamBYOBRequest",
  "ReadableByteStreamController",
  "ReadableStreamDefaultController",
  "WritableStream",
  "WritableStreamDefaultWriter",
  "WritableStreamDefaultController",
  "TransformStream",
  "TransformStreamDefaultController",
  "ByteLengthQueuingStrategy",
  "CountQueuingStrategy",
  "TextEncoderStream",
  "TextDecoderStream",
];

let classes;

export function webStreams() {
  if (classes) return classes;
  classes = evaluate(call("webStreamsSource"));
  // the sandbox's own classes (runtime.js installs them after this module is evaluated)
  const { TextEncoder, TextDecoder } = globalThis;
  classes.TextEncoderStream = textEncoderStream(classes.TransformStream, TextEncoder);
  classes.TextDecoderStream = textDecoderStream(classes.TransformStream, TextDecoder);
  return classes;
}

function textEncoderStream(TransformStream, TextEncoder) {
  const encoder = new TextEncoder();
  return class TextEncoderStream extends TransformStream {
    constructor() {
      // a surrogate pair split across two chunks is joined before encoding, as the spec says
      let high = "";
      super({
        transform(chunk, controller) {
          let s = high + String(chunk);
          high = "";
          const last = s.charCodeAt(s.length - 1);
          if (last >= 0xd800 && last <= 0xdbff) {
            high = s.slice(-1);
            s = s.slice(0, -1);
          }
          if (s.length > 0) controller.enqueue(encoder.encode(s));
        },
        flush(controller) {
          if (high) controller.enqueue(encoder.encode("\ufffd"));
        },
      });
    }
    get encoding() {
      return "utf-8";
    }
  };
}

/** where a trailing UTF-8 sequence that the chunk doesn't complete starts (its length: none) */
function completeUpTo(bytes) {
  let i = bytes.length - 1;
  let continuation = 0;
  while (i >= 0 && continuation < 3 && (bytes[i] & 0xc0) === 0x80) {
    i--;
    continuation++;
  }
  if (i < 0) return bytes.length;
  const lead = bytes[i];
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return need > continuation + 1 ? i : bytes.length;
}

function textDecoderStream(TransformStream, TextDecoder) {
  return class TextDecoderStream extends TransformStream {
    #decoder;
    #fatal;
    #ignoreBOM;
    constructor(label = "utf-8", options = {}) {
      const first = new TextDecoder(label, options);
      // after the first chunk a U+FEFF is text, not a byte order mark
      const rest = new TextDecoder(label, { fatal: Boolean(options.fatal), ignoreBOM: true });
      let decoder = first;
      let held = new Uint8Array(0);
      const decode = (bytes, controller) => {
        const text = decoder.decode(bytes);
        decoder = rest;
        if (text) controller.enqueue(text);
      };
      super({
        transform(chunk, controller) {
          const input = chunk instanceof ArrayBuffer ? new Uint8Array(chunk) : new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
          const bytes = new Uint8Array(held.length + input.length);
          bytes.set(held);
          bytes.set(input, held.length);
          const end = completeUpTo(bytes);
          held = bytes.slice(end);
          if (end > 0) decode(bytes.subarray(0, end), controller);
        },
        flush(controller) {
          if (held.length > 0) decode(held, controller);
        },
      });
      this.#decoder = first;
      this.#fatal = Boolean(options.fatal);
      this.#ignoreBOM = Boolean(options.ignoreBOM);
    }
    get encoding() {
      return this.#decoder.encoding;
    }
    get fatal() {
      return this.#fatal;
    }
    get ignoreBOM() {
      return this.#ignoreBOM;
    }
  };
}
