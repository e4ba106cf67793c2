import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as nodeCrypto from "node:crypto";
import { createSource, startApp, waitEvents, type TestApp } from "./helpers.ts";

// node:crypto's ciphers, keys, signatures and key agreement inside the sandbox (node/crypto-*.js,
// computed by the runner), each result checked against Node's own for the same inputs.

let t: TestApp;
before(async () => {
  t = await startApp();
});
after(async () => {
  await t.close();
});

async function runOnce(code: string, props: Record<string, unknown> = {}) {
  const source = await createSource(t, code, { configured_props: props });
  assert.equal((await t.request("POST", `/v1/sources/${source.id}/run`)).status, 202);
  const [first] = await Promise.race([
    waitEvents(t, source.id, 1, "", 20_000),
    waitEvents(t, source.id, 1, "$errors", 20_000).then((e) => Promise.reject(new Error(JSON.stringify(e[0].event)))),
  ]);
  return first.event;
}

const KEY = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
const IV = "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf";
const TEXT = "The quick brown fox jumps over the lazy dog, and then some more, and a little more: ".repeat(4) + "é€😀";

function node(alg: string, keyLen: number, ivLen: number, aad?: string) {
  const c = nodeCrypto.createCipheriv(alg, Buffer.from(KEY, "hex").subarray(0, keyLen), Buffer.from(IV, "hex").subarray(0, ivLen) as Buffer, { authTagLength: 16 } as never) as nodeCrypto.CipherGCM;
  if (aad) c.setAAD(Buffer.from(aad));
  const out = Buffer.concat([c.update(TEXT, "utf8"), c.final()]).toString("hex");
  return aad ? { out, tag: c.getAuthTag().toString("hex") } : { out };
}

describe("ciphers", () => {
  it("CBC, CTR, chacha20, GCM and chacha20-poly1305 match Node's, fed in uneven pieces; decrypting gives the text back", async () => {
    const event = await runOnce(`import crypto from "node:crypto";
      const key = Buffer.from("${KEY}", "hex"), iv = Buffer.from("${IV}", "hex");
      const text = ${JSON.stringify(TEXT)};
      const pieces = (b) => [b.subarray(0, 3), b.subarray(3, 20), b.subarray(20, 90), b.subarray(90)];
      function enc(alg, keyLen, ivLen, aad) {
        const c = crypto.createCipheriv(alg, key.subarray(0, keyLen), iv.subarray(0, ivLen), { authTagLength: 16 });
        if (aad) c.setAAD(Buffer.from(aad));
        const out = Buffer.concat([...pieces(Buffer.from(text)).map((p) => c.update(p)), c.final()]);
        let back;
        const d = crypto.createDecipheriv(alg, key.subarray(0, keyLen), iv.subarray(0, ivLen), { authTagLength: 16 });
        if (aad) { d.setAAD(Buffer.from(aad)); d.setAuthTag(c.getAuthTag()); }
        back = pieces(out).map((p) => d.update(p, undefined, "utf8")).join("") + d.final("utf8");
        return aad ? { out: out.toString("hex"), tag: c.getAuthTag().toString("hex"), back } : { out: out.toString("hex"), back };
      }
      export default { run() {
        const gcm = enc("aes-256-gcm", 32, 12, "header");
        const d = crypto.createDecipheriv("aes-256-gcm", key, iv.subarray(0, 12));
        d.setAAD(Buffer.from("header"));
        d.setAuthTag(Buffer.alloc(16));
        d.update(Buffer.from(gcm.out, "hex"));
        let forged; try { d.final(); forged = "accepted"; } catch (e) { forged = e.message; }
        let unknown; try { crypto.createCipheriv("nope-128", key, iv); } catch (e) { unknown = e.message; }
        let badKey; try { crypto.createCipheriv("aes-256-ctr", key.subarray(0, 5), iv); } catch (e) { badKey = e.message; }
        this.$emit({
          cbc: enc("aes-256-cbc", 32, 16), ctr: enc("aes-128-ctr", 16, 16), chacha20: enc("chacha20", 32, 16),
          gcm, poly: enc("chacha20-poly1305", 32, 12, "header"), forged, unknown, badKey,
          listed: [crypto.getCiphers().includes("aes-256-gcm"), crypto.getHashes().includes("sha512"), crypto.getCurves().includes("prime256v1")],
        });
      } };`);
    for (const [name, alg, keyLen, ivLen, aad] of [["cbc", "aes-256-cbc", 32, 16], ["ctr", "aes-128-ctr", 16, 16], ["chacha20", "chacha20", 32, 16], ["gcm", "aes-256-gcm", 32, 12, "header"], ["poly", "chacha20-poly1305", 32, 12, "header"]] as const) {
      assert.deepEqual(event[name], { ...node(alg, keyLen, ivLen, aad), back: TEXT }, name);
    }
    assert.match(event.forged, /Unsupported state or unable to authenticate data/);
    assert.match(event.unknown, /Unknown cipher/);
    assert.match(event.badKey, /Invalid key length/);
    assert.deepEqual(event.listed, [true, true, true]);
  });
});

describe("keys and signatures", () => {
  const rsa = nodeCrypto.generateKeyPairSync("rsa", { modulusLength: 1024 });
  const ed = nodeCrypto.generateKeyPairSync("ed25519");
  const ec = nodeCrypto.generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const pem = (k: nodeCrypto.KeyObject, type: "spki" | "pkcs8") => k.export({ type, format: "pem" }) as string;

  it("sign and verify (one-shot and createSign/createVerify) agree with Node; keys import and export as Node's do", async () => {
    const event = await runOnce(`import crypto from "node:crypto";
      export default { props: { rsaPriv: { type: "string" }, rsaPub: { type: "string" }, edPriv: { type: "string" }, ecPub: { type: "string" }, ecSig: { type: "string" } }, run() {
        const data = Buffer.from("signed by the sandbox");
        const rsaSig = crypto.createSign("sha256").update("signed by ").update("the sandbox").sign(this.rsaPriv, "base64");
        const edSig = crypto.sign(null, data, crypto.createPrivateKey(this.edPriv)).toString("base64");
        const pub = crypto.createPublicKey(this.rsaPub);
        const ecOk = crypto.createVerify("sha256").update(data).verify(this.ecPub, this.ecSig, "base64");
        const ecBad = crypto.verify("sha256", Buffer.from("other"), this.ecPub, Buffer.from(this.ecSig, "base64"));
        const fromPriv = crypto.createPublicKey(this.edPriv);
        let big; try { crypto.generateKeyPairSync("rsa", { modulusLength: 16384 }); } catch (e) { big = e.message; }
        const made = crypto.generateKeyPairSync("ed25519", { publicKeyEncoding: { type: "spki", format: "pem" } });
        const madeSig = crypto.sign(null, data, made.privateKey).toString("base64");
        this.$emit({ rsaSig, edSig, ecOk, ecBad, big, made: made.publicKey, madeSig,
          spki: pub.export({ type: "spki", format: "der" }).toString("base64"), type: pub.asymmetricKeyType, bits: pub.asymmetricKeyDetails.modulusLength,
          edPub: fromPriv.export({ type: "spki", format: "pem" }), jwk: fromPriv.export({ format: "jwk" }), equal: fromPriv.equals(crypto.createPublicKey(this.edPriv)) });
      } };`, {
      rsaPriv: pem(rsa.privateKey, "pkcs8"), rsaPub: pem(rsa.publicKey, "spki"), edPriv: pem(ed.privateKey, "pkcs8"), ecPub: pem(ec.publicKey, "spki"),
      ecSig: nodeCrypto.sign("sha256", Buffer.from("signed by the sandbox"), ec.privateKey).toString("base64"),
    });
    const data = Buffer.from("signed by the sandbox");
    assert.equal(event.rsaSig, nodeCrypto.sign("sha256", data, rsa.privateKey).toString("base64"), "PKCS#1 v1.5 is deterministic");
    assert.equal(event.edSig, nodeCrypto.sign(null, data, ed.privateKey).toString("base64"), "Ed25519 is deterministic");
    assert.equal(event.ecOk, true);
    assert.equal(event.ecBad, false);
    assert.match(event.big, /modulusLength must be an integer from 512 to 4096/);
    assert.ok(nodeCrypto.verify(null, data, event.made, Buffer.from(event.madeSig, "base64")), "a key made in the sandbox signs for Node");
    assert.equal(event.spki, (rsa.publicKey.export({ type: "spki", format: "der" }) as Buffer).toString("base64"));
    assert.equal(event.type, "rsa");
    assert.equal(event.bits, 1024);
    assert.equal(event.edPub, pem(ed.publicKey, "spki"));
    assert.deepEqual(event.jwk, ed.publicKey.export({ format: "jwk" }));
    assert.equal(event.equal, true);
  });
});

describe("key agreement", () => {
  it("ECDH, x25519 and modp14 Diffie-Hellman reach the same secret as Node on the other side", async () => {
    const ecdh = nodeCrypto.createECDH("prime256v1");
    ecdh.generateKeys();
    const x = nodeCrypto.generateKeyPairSync("x25519");
    const dh = nodeCrypto.getDiffieHellman("modp14");
    dh.generateKeys();
    const event = await runOnce(`import crypto from "node:crypto";
      export default { props: { ecPub: { type: "string" }, xPub: { type: "string" }, dhPub: { type: "string" } }, run() {
        const ecdh = crypto.createECDH("prime256v1");
        const ecPub = ecdh.generateKeys("base64");
        const ecSecret = ecdh.computeSecret(this.ecPub, "base64", "base64");
        const x = crypto.generateKeyPairSync("x25519");
        const xSecret = crypto.diffieHellman({ privateKey: x.privateKey, publicKey: crypto.createPublicKey(this.xPub) }).toString("base64");
        const dh = crypto.getDiffieHellman("modp14");
        const dhPub = dh.generateKeys("base64");
        const dhSecret = dh.computeSecret(Buffer.from(this.dhPub, "base64")).toString("base64");
        const custom = crypto.createDiffieHellman(dh.getPrime(), dh.getGenerator());
        custom.setPrivateKey(dh.getPrivateKey());
        let search; try { crypto.createDiffieHellman(2048); } catch (e) { search = e.message; }
        this.$emit({ ecPub, ecSecret, xPub: x.publicKey.export({ type: "spki", format: "pem" }), xSecret, dhPub, dhSecret,
          samePublic: custom.generateKeys("base64") === dhPub, prime: dh.getPrime("hex"), search });
      } };`, { ecPub: ecdh.getPublicKey("base64"), xPub: x.publicKey.export({ type: "spki", format: "pem" }), dhPub: dh.getPublicKey("base64") });
    assert.equal(event.ecSecret, ecdh.computeSecret(event.ecPub, "base64", "base64"));
    assert.equal(event.xSecret, nodeCrypto.diffieHellman({ privateKey: x.privateKey, publicKey: nodeCrypto.createPublicKey(event.xPub) }).toString("base64"));
    assert.equal(event.dhSecret, dh.computeSecret(Buffer.from(event.dhPub, "base64")).toString("base64"));
    assert.equal(event.samePublic, true);
    assert.equal(event.prime, dh.getPrime("hex"));
    assert.match(event.search, /would search for a prime/);
  });
});
