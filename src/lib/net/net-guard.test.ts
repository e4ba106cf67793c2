import { it } from "node:test";
import assert from "node:assert/strict";
import { isPrivateAddress } from "./net-guard.ts";

// Every notation of a loopback or private address must be caught: URL parsing rewrites
// [::ffff:127.0.0.1] to [::ffff:7f00:1], which once slipped through.
it("IPv4 embedded in IPv6, in any notation, is judged by its IPv4 address", () => {
  for (const a of ["::1", "::", "::ffff:7f00:1", "::ffff:127.0.0.1", "::127.0.0.1", "64:ff9b::7f00:1", "2002:7f00:1::",
    "0:0:0:0:0:ffff:a00:1", "fe80::1", "fd00::1", "fc00::1", "ff02::1", "127.0.0.1", "10.1.2.3", "169.254.169.254", "192.168.0.1"]) {
    assert.equal(isPrivateAddress(a), true, a);
  }
  for (const a of ["2606:4700::1111", "::ffff:8.8.8.8", "2002:808:808::1", "8.8.8.8", "1.1.1.1"]) {
    assert.equal(isPrivateAddress(a), false, a);
  }
});
