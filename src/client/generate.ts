// `npm run client:types`: regenerates src/client/schema.ts from the service's OpenAPI document.
import { writeFileSync } from "node:fs";
import { currentDocument, schemaSource, SCHEMA_FILE } from "./openapi-types.ts";

writeFileSync(SCHEMA_FILE, await schemaSource(await currentDocument()));
process.stdout.write(`wrote ${SCHEMA_FILE}\n`);
