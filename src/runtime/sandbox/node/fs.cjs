// node:fs inside the sandbox, for a component's own code and its packages alike. `/tmp` is a
// directory tree in memory, as Pipedream's ephemeral /tmp is a disk of the worker's: files and
// directories under it are made, read, streamed, renamed and removed as in Node. Nothing here
// touches the host (fs/tree.cjs). Every other path is one that isn't there: a read fails as
// Node's does on a missing file (`ENOENT`, which packages check for: the AWS SDK reads
// ~/.aws/config if it exists and carries on when it doesn't), a write as on a read-only disk
// (`EROFS`). Watchers, which no file here changes under, fail at once.
//
// This file only assembles the module, in the order Node's keys come in; the parts are in fs/:
// the tree (tree.cjs), Node's errors (errors.cjs), Stats and Dirent (stats.cjs), the calls by
// path and by descriptor (path-calls.cjs, fd-calls.cjs), their callback and promise forms
// (forms.cjs), streams (streams.cjs) and fs/promises' FileHandle (file-handle.cjs).
const unavailable = require("./forbidden.cjs");
const constants = require("./fs/constants.cjs");
const { Stats, Dirent } = require("./fs/stats.cjs");
const pathCalls = require("./fs/path-calls.cjs");
const fdCalls = require("./fs/fd-calls.cjs");
const { callForms } = require("./fs/forms.cjs");
const { ReadStream, WriteStream } = require("./fs/streams.cjs");
const FileHandle = require("./fs/file-handle.cjs");

const sync = { ...pathCalls, ...fdCalls };
const { fs, promises } = callForms(sync, constants);

promises.open = async (path, flags, mode) => new FileHandle(sync.open(path, flags, mode));

fs.ReadStream = ReadStream;
fs.WriteStream = WriteStream;
fs.createReadStream = (path, options) => new ReadStream(path, options);
fs.createWriteStream = (path, options) => new WriteStream(path, options);
fs.Stats = Stats;
fs.Dirent = Dirent;
for (const name of ["watch", "watchFile", "unwatchFile"]) fs[name] = unavailable(`fs.${name}`);
// Classes packages test values against (`x instanceof fs.FSWatcher`): present, and never made.
for (const name of ["FSWatcher", "StatWatcher"]) {
  fs[name] = {
    [name]: class {
      constructor() {
        throw new Error(`fs.${name} is not available in the sandbox`);
      }
    },
  }[name];
}
promises.FileHandle = FileHandle;
fs.promises = promises;

module.exports = fs;
