import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tributaryClient } from "../src/client/index.ts";
import { schemaSource, SCHEMA_FILE } from "../scripts/client-types.ts";
import { startApp, type TestApp } from "./helpers.ts";

// The typed client (`tributary/client`) against a real service over real HTTP, and its types
// checked against the service's OpenAPI document: a route or schema change that isn't carried
// into src/client/schema.ts (npm run client:types) fails here.

describe("tributary/client", () => {
  let t: TestApp;
  let url = "";
  before(async () => {
    t = await startApp();
    await t.app.http.listen({ port: 0, host: "127.0.0.1" });
    url = `http://127.0.0.1:${(t.app.http.server.address() as AddressInfo).port}`;
  });
  after(() => t.close());

  it("its types are the ones the OpenAPI document generates now", async () => {
    // the document this very service serves (no second service to build on a loaded machine)
    const doc = (await (await fetch(`${url}/v1/openapi.json`)).json()) as unknown;
    const expected = await schemaSource(doc);
    assert.ok(readFileSync(SCHEMA_FILE, "utf8") === expected, "src/client/schema.ts is out of date: run npm run client:types");
  });

  it("calls the API with the key: reads, writes, and errors in the envelope", async () => {
    const api = tributaryClient({ url, key: t.adminKey });
    const me = await api.GET("/v1/users/me");
    assert.equal(me.response.status, 200);
    assert.equal(me.data?.data.username, "admin");

    const created = await api.POST("/v1/sources/", { body: { component_code: `export default { run() { this.$emit(1); } }` } });
    assert.equal(created.response.status, 200, JSON.stringify(created.error));
    const id = created.data!.data.id;
    const got = await api.GET("/v1/sources/{id}", { params: { path: { id } } });
    assert.equal(got.data?.data.id, id);

    const missing = await api.GET("/v1/sources/{id}", { params: { path: { id: "dc_nothing0000000" } } });
    assert.equal(missing.response.status, 404);
    assert.equal((missing.error as { error: { code: string } }).error.code, "not_found");

    const anonymous = await tributaryClient({ url }).GET("/v1/users/me");
    assert.equal(anonymous.response.status, 401);
  });
});
