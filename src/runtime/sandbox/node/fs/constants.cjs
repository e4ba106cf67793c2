// fs.constants, one object: fs and fs/promises hand out this same one, and the descriptor calls
// read their open flags from it when a flag is given as a number.
const { S_IFMT, S_IFREG, S_IFDIR } = require("./stats.cjs");

module.exports = {
  F_OK: 0, R_OK: 4, W_OK: 2, X_OK: 1, O_RDONLY: 0, O_WRONLY: 1, O_RDWR: 2, O_CREAT: 64, O_EXCL: 128, O_TRUNC: 512, O_APPEND: 1024,
  COPYFILE_EXCL: 1, COPYFILE_FICLONE: 2, COPYFILE_FICLONE_FORCE: 4, S_IFMT, S_IFREG, S_IFDIR,
};
