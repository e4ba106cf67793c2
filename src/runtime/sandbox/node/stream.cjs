// node:stream inside the sandbox: readable-stream (Node's streams, as a package), with the
// Readable.fromWeb it declares but can't make (its web-stream adapters aren't in the package):
// Pipedream's docs turn a fetch body into a Node stream with it, to pipe a download into
// fs.createWriteStream. CommonJS, as packages reach it: require("stream").Readable.
//
// It is made here as readable-stream's main file makes it (the package's Readable, with the other
// classes and functions on it: the very object that file exports), not by requiring that file:
// it requires "stream", which is this file, and a bridge (fs, http) may load it first.
const Custom = require("readable-stream/lib/stream.js");
const promises = require("readable-stream/lib/stream/promises.js");

const { Readable } = Custom;

/** A Node Readable of a web ReadableStream's chunks, as Node's Readable.fromWeb makes. */
function fromWeb(readableStream, options = {}) {
  if (typeof readableStream?.getReader !== "function") {
    const e = new TypeError('The "readableStream" argument must be an instance of ReadableStream.');
    e.code = "ERR_INVALID_ARG_TYPE";
    throw e;
  }
  const reader = readableStream.getReader();
  return new Readable({
    objectMode: options.objectMode,
    highWaterMark: options.highWaterMark,
    encoding: options.encoding,
    signal: options.signal,
    // called again once what it pushed is taken
    read() {
      reader.read().then(
        ({ done, value }) => this.push(done ? null : value),
        (e) => this.destroy(e),
      );
    },
    destroy(err, callback) {
      reader.cancel(err ?? undefined).then(
        () => callback(err),
        (e) => callback(err ?? e),
      );
    },
  });
}

Readable.fromWeb = fromWeb;

const stream = Readable;
const originalDestroy = Readable.destroy;
for (const name of ["_uint8ArrayToBuffer", "_isUint8Array", "isDisturbed", "isErrored", "isReadable", "Readable", "Writable", "Duplex", "Transform", "PassThrough", "addAbortSignal", "finished", "pipeline", "compose", "Stream"]) {
  stream[name] = Custom[name];
}
stream.destroy = originalDestroy;
Object.defineProperty(Custom, "promises", { configurable: true, enumerable: true, get: () => promises });
stream.default = stream;

module.exports = stream;
