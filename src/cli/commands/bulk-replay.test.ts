import { test } from "node:test";
import assert from "node:assert/strict";
import { agoMs } from "./bulk-replay.ts";

test("--since and --until take a duration ago; anything else is refused saying what they take", () => {
  const now = 1_000_000_000;
  assert.equal(agoMs("90s", "--since", now), now - 90_000);
  assert.equal(agoMs("30m", "--since", now), now - 1_800_000);
  assert.equal(agoMs("1h", "--since", now), now - 3_600_000);
  assert.equal(agoMs("2d", "--since", now), now - 172_800_000);
  for (const bad of ["1 hour", "h", "-1h", "1.5h", ""]) assert.throws(() => agoMs(bad, "--since", now), /--since takes a duration such as 90s/);
});
