import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import { resolveConfig } from "../src/config.ts";
import { buildApp } from "../src/app.ts";

// The client's types are generated from the service's own OpenAPI document, so the two can't
// drift apart unnoticed: `npm run client:types` (this file, run) rewrites src/client/schema.ts, and
// test/client.test.ts fails when the committed file is not what the document generates now. Out of
// src/: it builds the whole service, and src/client/ must import nothing above it.

export const SCHEMA_FILE = join(import.meta.dirname, "..", "src", "client", "schema.ts");

const HEADER = `// Generated from /v1/openapi.json by \`npm run client:types\` (openapi-typescript): do not edit.\n`;

/** The OpenAPI document of a throwaway service built from this code (no port, a temp store). */
export async function currentDocument(): Promise<unknown> {
  const dataDir = mkdtempSync(join(tmpdir(), "tributary-openapi-"));
  const app = await buildApp(
    resolveConfig({ TRIBUTARY_DATA_DIR: dataDir, TRIBUTARY_ADMIN_KEY: "openapi", TRIBUTARY_STORE: "sqlite", TRIBUTARY_RUNNERS: "1" }),
    { logger: false },
  );
  try {
    await app.http.ready();
    return app.http.swagger();
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The text schema.ts should hold for `doc`. */
export async function schemaSource(doc: unknown): Promise<string> {
  const ast = await openapiTS(doc as Parameters<typeof openapiTS>[0]);
  return HEADER + astToString(ast);
}

if (import.meta.main) {
  writeFileSync(SCHEMA_FILE, await schemaSource(await currentDocument()));
  process.stdout.write(`wrote ${SCHEMA_FILE}\n`);
}
