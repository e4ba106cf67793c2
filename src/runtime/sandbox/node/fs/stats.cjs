// fs.Stats (stat, lstat, fstat) and fs.Dirent (readdir's withFileTypes), the shapes packages read
// a node through. Only files and directories exist here, so every other kind a Stats or Dirent
// can be asked about is answered no, once, in their shared base. Each still says for itself
// whether it is a file or a directory: a Stats from its mode (code reads `mode`, as in Node), a
// Dirent from the kind it was made with.

const S_IFMT = 0o170000;
const S_IFDIR = 0o040000;
const S_IFREG = 0o100000;

class NotSpecial {
  isSymbolicLink() {
    return false;
  }
  isBlockDevice() {
    return false;
  }
  isCharacterDevice() {
    return false;
  }
  isFIFO() {
    return false;
  }
  isSocket() {
    return false;
  }
}

class Stats extends NotSpecial {
  constructor(node) {
    super();
    this.dev = 1;
    this.mode = node.dir ? S_IFDIR | 0o777 : S_IFREG | 0o666;
    this.nlink = 1;
    this.uid = 0;
    this.gid = 0;
    this.rdev = 0;
    this.blksize = 4096;
    this.ino = node.ino;
    this.size = node.dir ? 4096 : node.size;
    this.blocks = Math.ceil(this.size / 512);
    // nothing here keeps access or change times apart: all are the last write
    this.atimeMs = node.mtimeMs;
    this.mtimeMs = node.mtimeMs;
    this.ctimeMs = node.mtimeMs;
    this.birthtimeMs = node.birthtimeMs;
    this.atime = new Date(node.mtimeMs);
    this.mtime = new Date(node.mtimeMs);
    this.ctime = new Date(node.mtimeMs);
    this.birthtime = new Date(node.birthtimeMs);
  }
  isFile() {
    return (this.mode & S_IFMT) === S_IFREG;
  }
  isDirectory() {
    return (this.mode & S_IFMT) === S_IFDIR;
  }
}

class Dirent extends NotSpecial {
  constructor(name, node, parentPath) {
    super();
    this.name = name;
    this.parentPath = parentPath;
    this.path = parentPath;
    // not enumerable: a Dirent spread or logged shows Node's fields only
    Object.defineProperty(this, "_dir", { value: node.dir });
  }
  isFile() {
    return !this._dir;
  }
  isDirectory() {
    return this._dir;
  }
}

module.exports = { Stats, Dirent, S_IFMT, S_IFREG, S_IFDIR };
