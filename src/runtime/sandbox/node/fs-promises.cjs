// node:fs/promises for bundled packages: fs.cjs's promises (every path missing, writes refused).
module.exports = require("./fs.cjs").promises;
