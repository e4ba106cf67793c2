import { test } from "node:test";
import assert from "node:assert/strict";
import { StoreHealth } from "./health.ts";
import { isStorageUnavailable } from "./faults.ts";

// The store's health between faults: unavailable at the first fault (503 at once), degraded while
// faults come and go but the probe write keeps succeeding (a node serving most requests stays in
// its load balancer), unavailable again once the probe fails.

const lost = () => Object.assign(new Error("connection terminated"), { code: "ECONNRESET" });

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

test("a fault: unavailable; faults while probes succeed: degraded (200); a failing probe: unavailable again", async () => {
  let probeWorks = true;
  let probes = 0;
  const health = new StoreHealth(async () => {
    probes++;
    if (!probeWorks) throw lost();
  });
  try {
    assert.equal(health.check(), undefined);
    // the first fault of an episode, no probe yet: unavailable at once
    assert.ok(isStorageUnavailable(health.translate(lost())));
    assert.throws(() => health.check(), (e: unknown) => isStorageUnavailable(e));
    // the probe succeeds: available
    await until(() => health.available, "the probe to succeed");
    assert.equal(health.check(), undefined);
    // another connection dies: the store is not available, but only degraded
    health.translate(lost());
    assert.equal(health.available, false);
    assert.match(health.check() ?? "", /storage faults \(unreachable\) come and go/);
    // the server is gone for good: once a probe fails, it is unavailable
    probeWorks = false;
    const before = probes;
    await until(() => probes > before, "a failing probe");
    assert.throws(() => health.check(), (e: unknown) => isStorageUnavailable(e));
  } finally {
    health.close();
  }
});
