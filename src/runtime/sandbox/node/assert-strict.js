// node:assert/strict for bundled code: the assert polyfill's strict mode.
import assert from "assert";
export default assert.strict;
