// node:fs/promises: fs.cjs's promises (an in-memory /tmp; every other path missing, writes refused).
module.exports = require("./fs.cjs").promises;
