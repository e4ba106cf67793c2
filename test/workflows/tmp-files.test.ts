import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startApp, waitFor, type Reply, type TestApp } from "../helpers.ts";

// A workflow's /tmp (docs/writing-components.md, "Files in /tmp"): Pipedream's Node.js docs write
// a file in a step with fs.writeFileSync and read it back; here as there. Black-box through the API.

interface User {
  id: string;
  key: string;
}

// the shape of Pipedream's docs example ("Writing to /tmp", then reading it back)
const WRITE_AND_READ = `import fs from "fs";

export default defineComponent({
  async run({ steps, $ }) {
    fs.writeFileSync("/tmp/data.json", JSON.stringify({ name: steps.trigger.event.body.name, at: "/tmp" }));
    const data = fs.readFileSync("/tmp/data.json");
    return JSON.parse(data.toString());
  },
});`;

// a later step of the same run sees the file, through fs/promises
const LATER = `import { readFile, readdir } from "node:fs/promises";

export default defineComponent({
  async run({ steps, $ }) {
    return { files: (await readdir("/tmp")).includes("data.json"), text: await readFile("/tmp/data.json", "utf8") };
  },
});`;

// helper_functions' download-file-to-tmp, as Pipedream ships it (its props given as the step's)
const DOWNLOAD_TO_TMP = `import { axios } from "@pipedream/platform";
import fs from "fs";

export default {
  key: "helper_functions-download-file-to-tmp",
  name: "Download File To /tmp",
  version: "0.3.6",
  type: "action",
  props: {
    url: { type: "string", label: "Download File URL" },
    filename: { type: "string", label: "Target Filename" },
    headers: { type: "object", label: "HTTP Headers", optional: true },
  },
  async run({ $ }) {
    const { url, filename, headers = {} } = this;
    const resp = await axios($, { url, responseType: "arraybuffer", headers: { "User-Agent": "Mozilla/5.0", ...headers } });
    const rawcontent = resp.toString("base64");
    const buffer = Buffer.from(rawcontent, "base64");
    const downloadedFilepath = \`/tmp/\${filename}\`;
    fs.writeFileSync(downloadedFilepath, buffer);
    return [filename, downloadedFilepath];
  },
};`;

// a later step uploads what the download left in /tmp (as ramp's upload-receipt reads its file)
const READ_DOWNLOAD = `import fs from "fs";
export default defineComponent({
  async run({ steps }) {
    const [, path] = steps.download.$return_value;
    return { size: fs.statSync(path).size, text: fs.readFileSync(path, "utf8") };
  },
});`;

const COLLECT = `export default { async run({ steps, $ }) { $.send.emit({ raw_event: steps }); } };`;

let t: TestApp;
let files: Server;
let origin = "";
before(async () => {
  files = createServer((_req, res) => void res.writeHead(200, { "content-type": "application/pdf" }).end("%PDF-1.4 receipt \u00e9"));
  await new Promise<void>((done) => files.listen(0, "127.0.0.1", done));
  const { port } = files.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  t = await startApp({ TRIBUTARY_FETCH_ALLOW: `127.0.0.1:${port}` });
});
after(async () => {
  await t.close();
  await new Promise((done) => files.close(done));
});

async function runOnce(user: User, w: any, body: unknown): Promise<any> {
  const res = await t.request("POST", new URL(w.trigger.endpoint_url).pathname, { key: null, body });
  assert.equal(res.status, 200, res.text);
  return waitFor(async () => {
    const errors = await call(user, "GET", `/v1/workflows/${w.id}/$errors/event_summaries?expand=event`);
    if (errors.body.data.length > 0) return { error: errors.body.data[0].event.error };
    const events = await call(user, "GET", `/v1/workflows/${w.id}/event_summaries?expand=event`);
    return events.body.data.length >= 1 ? { event: events.body.data[0].event.raw_event } : undefined;
  }, 10_000, "the workflow's event or error");
}

async function call(user: User, method: string, url: string, body?: unknown): Promise<Reply> {
  return t.request(method, url, { key: user.key, ...(body === undefined ? {} : { body }) });
}

describe("a workflow step's /tmp", () => {
  it("a step writes /tmp/data.json with fs.writeFileSync and reads it back; a later step reads it too", async () => {
    const user = await t.newUser();
    const created = await call(user, "POST", "/v1/workflows", {
      name: "tmp",
      trigger: { type: "http" },
      steps: [
        { name: "write_file", code: WRITE_AND_READ },
        { name: "read_later", code: LATER },
        { name: "collect", code: COLLECT },
      ],
    });
    assert.equal(created.status, 200, created.text);
    const got = await runOnce(user, created.body.data, { name: "Luke" });
    assert.equal(got.error, undefined, JSON.stringify(got.error));
    assert.deepEqual(got.event.write_file, { $return_value: { name: "Luke", at: "/tmp" } });
    assert.deepEqual(got.event.read_later, { $return_value: { files: true, text: JSON.stringify({ name: "Luke", at: "/tmp" }) } });
  });

  it("helper_functions' download-file-to-tmp saves the file in /tmp (axios' arraybuffer is a Buffer), and a later step reads it", async () => {
    const user = await t.newUser();
    const created = await call(user, "POST", "/v1/workflows", {
      name: "download",
      trigger: { type: "http" },
      steps: [
        { name: "download", code: DOWNLOAD_TO_TMP, props: { url: `${origin}/receipt.pdf`, filename: "receipt.pdf" } },
        { name: "upload", code: READ_DOWNLOAD },
        { name: "collect", code: COLLECT },
      ],
    });
    assert.equal(created.status, 200, created.text);
    const got = await runOnce(user, created.body.data, {});
    assert.equal(got.error, undefined, JSON.stringify(got.error));
    assert.deepEqual(got.event.download, { $return_value: ["receipt.pdf", "/tmp/receipt.pdf"] });
    assert.deepEqual(got.event.upload, { $return_value: { size: Buffer.byteLength("%PDF-1.4 receipt \u00e9"), text: "%PDF-1.4 receipt \u00e9" } });
  });
});
