import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { networkInterfaces } from "node:os";
import { assertFetchable, isPrivateAddress } from "./net-guard.ts";
import { ipv4Number } from "./ip-address.ts";

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

it("an address that can't be parsed is refused", () => {
  for (const a of ["1::2::3", "12345::", "g::1", "::ffff:1.2.3.400", "1:2:3:4:5:6:7"]) assert.equal(isPrivateAddress(a), true, a);
});

/** a range, its first and last addresses (refused), and its neighbours (allowed; none when the neighbour is itself refused) */
type Row = [range: string, first: string, last: string, before: string | null, after: string | null];

const IPV4: Row[] = [
  ["0.0.0.0/8", "0.0.0.0", "0.255.255.255", null, "1.0.0.0"],
  ["10.0.0.0/8", "10.0.0.0", "10.255.255.255", "9.255.255.255", "11.0.0.0"],
  ["100.64.0.0/10", "100.64.0.0", "100.127.255.255", "100.63.255.255", "100.128.0.0"],
  ["127.0.0.0/8", "127.0.0.0", "127.255.255.255", "126.255.255.255", "128.0.0.0"],
  ["169.254.0.0/16", "169.254.0.0", "169.254.255.255", "169.253.255.255", "169.255.0.0"],
  ["172.16.0.0/12", "172.16.0.0", "172.31.255.255", "172.15.255.255", "172.32.0.0"],
  ["192.0.0.0/24", "192.0.0.0", "192.0.0.255", "191.255.255.255", "192.0.1.0"],
  ["192.0.2.0/24", "192.0.2.0", "192.0.2.255", "192.0.1.255", "192.0.3.0"],
  ["192.31.196.0/24", "192.31.196.0", "192.31.196.255", "192.31.195.255", "192.31.197.0"],
  ["192.52.193.0/24", "192.52.193.0", "192.52.193.255", "192.52.192.255", "192.52.194.0"],
  ["192.88.99.0/24", "192.88.99.0", "192.88.99.255", "192.88.98.255", "192.88.100.0"],
  ["192.168.0.0/16", "192.168.0.0", "192.168.255.255", "192.167.255.255", "192.169.0.0"],
  ["192.175.48.0/24", "192.175.48.0", "192.175.48.255", "192.175.47.255", "192.175.49.0"],
  ["198.18.0.0/15", "198.18.0.0", "198.19.255.255", "198.17.255.255", "198.20.0.0"],
  ["198.51.100.0/24", "198.51.100.0", "198.51.100.255", "198.51.99.255", "198.51.101.0"],
  ["203.0.113.0/24", "203.0.113.0", "203.0.113.255", "203.0.112.255", "203.0.114.0"],
  ["224.0.0.0/4", "224.0.0.0", "239.255.255.255", "223.255.255.255", null],
  ["240.0.0.0/4 (and 255.255.255.255)", "240.0.0.0", "255.255.255.255", null, null],
];

const ALL_ONES = "ffff:ffff:ffff:ffff:ffff";
const IPV6: Row[] = [
  ["::/128 unspecified", "::", "::", null, null],
  ["::1/128 loopback", "::1", "::1", null, null],
  ["100::/64 discard-only", "100::", `100::ffff:ffff:ffff:ffff`, null, null],
  ["64:ff9b:1::/48 local-use NAT64", "64:ff9b:1::", `64:ff9b:1:${ALL_ONES}`, null, null],
  ["everything below 2000::/3", "::1:0:0:0", `1fff:ffff:ffff:${ALL_ONES}`, null, "2000::"],
  ["2001::/23 IETF protocol assignments", "2001::", `2001:1ff:ffff:${ALL_ONES}`, `2000:ffff:ffff:${ALL_ONES}`, "2001:200::"],
  ["2001:db8::/32 documentation", "2001:db8::", `2001:db8:ffff:${ALL_ONES}`, `2001:db7:ffff:${ALL_ONES}`, "2001:db9::"],
  ["2620:4f:8000::/48 AS112", "2620:4f:8000::", `2620:4f:8000:${ALL_ONES}`, `2620:4f:7fff:${ALL_ONES}`, "2620:4f:8001::"],
  ["3fff::/20 documentation", "3fff::", `3fff:fff:ffff:${ALL_ONES}`, `3ffe:ffff:ffff:${ALL_ONES}`, "3fff:1000::"],
  ["everything above 2000::/3", "4000::", `5eff:ffff:ffff:${ALL_ONES}`, `3fff:ffff:ffff:${ALL_ONES}`, null],
  ["5f00::/16 SRv6", "5f00::", `5f00:ffff:ffff:${ALL_ONES}`, null, null],
  ["fc00::/7 unique local", "fc00::", `fdff:ffff:ffff:${ALL_ONES}`, null, null],
  ["fe80::/10 link-local", "fe80::", `febf:ffff:ffff:${ALL_ONES}`, null, null],
  ["fec0::/10 site-local", "fec0::", `feff:ffff:ffff:${ALL_ONES}`, null, null],
  ["ff00::/8 multicast", "ff00::", `ffff:ffff:ffff:${ALL_ONES}`, null, null],
];

/** the IPv6 forms that carry an IPv4 address: mapped (dotted and hex), NAT64, 6to4 */
function carriers(v4: string): string[] {
  const n = ipv4Number(v4);
  const hi = Math.floor(n / 0x10000).toString(16);
  const lo = (n % 0x10000).toString(16);
  return [`::ffff:${v4}`, `::ffff:${hi}:${lo}`, `0:0:0:0:0:ffff:${hi}:${lo}`, `64:ff9b::${v4}`, `2002:${hi}:${lo}::1`];
}

function assertEdges(rows: Row[], forms: (ip: string) => string[]): void {
  for (const [range, first, last, before, after] of rows) {
    for (const ip of [first, last]) for (const form of forms(ip)) assert.equal(isPrivateAddress(form), true, `${form} is in ${range}`);
    for (const ip of [before, after]) {
      if (ip) for (const form of forms(ip)) assert.equal(isPrivateAddress(form), false, `${form} is outside ${range}`);
    }
  }
}

describe("special-purpose ranges: each one's edges in and out", () => {
  it("IPv4", () => assertEdges(IPV4, (ip) => [ip]));
  it("IPv4 carried in IPv6 (mapped, NAT64, 6to4) is judged as its IPv4 address", () => assertEdges(IPV4, carriers));
  it("IPv6", () => assertEdges(IPV6, (ip) => [ip]));
});

it("every address of this machine's own interfaces is refused, in every notation", () => {
  const own = Object.values(networkInterfaces()).flat().filter((info) => info !== undefined);
  assert.ok(own.length > 0, "the machine has addresses");
  for (const { address, family } of own) {
    const forms = family === "IPv4" ? [address, ...carriers(address)] : [address];
    for (const form of forms) assert.equal(isPrivateAddress(form), true, form);
  }
});

describe("TRIBUTARY_FETCH_ALLOW opens an exact host:port", () => {
  const noLookup = () => Promise.reject(new Error("no name is looked up here"));
  it("that host and port pass, marked allowed; another port of the same host is refused", async () => {
    assert.equal(await assertFetchable(new URL("http://127.0.0.1:5432/"), ["127.0.0.1:5432"], noLookup), true);
    assert.equal(await assertFetchable(new URL("http://127.0.0.1/"), ["127.0.0.1:80"], noLookup), true, "the scheme's default port");
    assert.equal(await assertFetchable(new URL("https://127.0.0.1/"), ["127.0.0.1:443"], noLookup), true);
    await assert.rejects(assertFetchable(new URL("http://127.0.0.1:5433/"), ["127.0.0.1:5432"], noLookup), /loopback or private address \(127\.0\.0\.1\)/);
  });
  it("an IPv6 host is listed with or without brackets", async () => {
    for (const entry of ["[::1]:8080", "::1:8080"]) assert.equal(await assertFetchable(new URL("http://[::1]:8080/"), [entry], noLookup), true, entry);
    await assert.rejects(assertFetchable(new URL("http://[::1]:8081/"), ["[::1]:8080"], noLookup), /loopback or private address \(::1\)/);
  });
  it("a public address passes, not marked allowed", async () => {
    assert.equal(await assertFetchable(new URL("http://8.8.8.8/"), [], noLookup), false);
  });
});
