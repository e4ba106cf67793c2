// fs/promises' open gives a FileHandle, not a number: its methods are the descriptor's calls
// (fd-calls.cjs) and the path calls that also take a descriptor (path-calls.cjs), in promise
// form, and its streams are opened on the file the descriptor has.
const { Buffer } = require("buffer");
const { fdOf } = require("./tree.cjs");
const pathCalls = require("./path-calls.cjs");
const fdCalls = require("./fd-calls.cjs");
const { ReadStream, WriteStream } = require("./streams.cjs");

class FileHandle {
  constructor(fd) {
    this.fd = fd;
  }
  async readFile(options) {
    return pathCalls.readFile(this.fd, options);
  }
  async writeFile(data, options) {
    return pathCalls.writeFile(this.fd, data, options);
  }
  async appendFile(data, options) {
    return pathCalls.appendFile(this.fd, data, options);
  }
  async stat() {
    return fdCalls.fstat(this.fd);
  }
  async read(buffer, offset, length, position) {
    buffer ??= Buffer.alloc(16384);
    const bytesRead = fdCalls.read(this.fd, buffer, offset, length, position);
    return { bytesRead, buffer };
  }
  async write(data, offset, length, position) {
    const bytesWritten = fdCalls.write(this.fd, data, offset, length, position);
    return { bytesWritten, buffer: data };
  }
  async truncate(len = 0) {
    return pathCalls.truncate(this.fd, len);
  }
  // a second close is harmless, as Node's is
  async close() {
    if (this.fd !== -1) fdCalls.close(this.fd);
    this.fd = -1;
  }
  createReadStream(options) {
    return new ReadStream(fdOf(this.fd, "read").path, options);
  }
  createWriteStream(options) {
    return new WriteStream(fdOf(this.fd, "write").path, { flags: "a", ...options });
  }
}

module.exports = FileHandle;
