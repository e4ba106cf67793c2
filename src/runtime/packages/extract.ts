import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import * as tar from "tar";
import { containedPath } from "../../lib/contained-path.ts";
import { recordSize } from "./cache.ts";

// Unpacks one package's tarball into the cache (files/<name>@<version>), on the cache's worker
// thread: synchronous file system calls there cost the service's event loop nothing, and nothing
// is left pending when an unpack stops. Regular files and directories only (a link in a tarball
// could point anywhere); every entry is counted as its header is read and the unpack stops at
// the first one past a limit, before anything of it is written; the package appears whole (a
// rename of its temporary directory) or not at all.

export interface UnpackRequest {
  /** the cache's files/ directory */
  files: string;
  /** the package's directory name there (dirName of name@version) */
  dir: string;
  /** the name of the temporary directory beside it to unpack into */
  tmp: string;
  /** name@version, for messages */
  key: string;
  tarball: Uint8Array;
  maxBytes: number;
  maxFiles: number;
}

export type UnpackOutcome =
  | { ok: true; bytes: number; files: number }
  | { ok: false; message: string; /** which limit was passed, when one was */ limit?: "bytes" | "files" };

class LimitPassed extends Error {
  readonly limit: "bytes" | "files";
  constructor(limit: "bytes" | "files") {
    super(`over the ${limit} limit`);
    this.limit = limit;
  }
}

const KEPT = new Set(["File", "OldFile", "Directory"]);
const SLICE = 64 * 1024;
/** what a tar stream holds besides file contents: headers and padding, at most this per entry */
const PER_ENTRY = 1536;

export async function unpackPackage(req: UnpackRequest): Promise<UnpackOutcome> {
  const dir = containedPath(req.files, req.dir);
  if (existsSync(dir)) return reused(dir);
  const tmp = containedPath(req.files, req.tmp);
  mkdirSync(tmp, { recursive: true });
  try {
    const counted = await extract(tmp, req);
    const native = nativeReason(tmp);
    if (native) throw new Error(`${req.key} needs a native addon (${native}), which the sandbox can't load`);
    renameSync(tmp, dir);
    recordSize(dir, counted.bytes);
    return { ok: true, ...counted };
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    if (e instanceof LimitPassed) return { ok: false, message: e.message, limit: e.limit };
    if (existsSync(dir)) return reused(dir); // another save unpacked it meanwhile
    return { ok: false, message: (e as Error).message };
  }
}

function reused(dir: string): UnpackOutcome {
  const now = new Date();
  utimesSync(dir, now, now);
  return { ok: true, bytes: 0, files: 0 };
}

// The tarball is gunzipped here, not by tar, so that every byte it inflates to is counted: the
// body of an entry that is skipped (a link, a pax header) costs as much to inflate as a file.
// tar gets a plain tar stream and may not decompress anything itself (a tarball gzipped twice).
async function extract(tmp: string, req: UnpackRequest): Promise<{ bytes: number; files: number }> {
  let bytes = 0;
  let files = 0;
  let inflated = 0;
  const maxInflated = req.maxBytes + (req.maxFiles + 2) * PER_ENTRY;
  let failure: Error | undefined;
  /** ends the unpack: the entry being read is skipped, and nothing after it is read */
  const stop = (e: Error): false => {
    failure ??= e;
    unpack.abort(e);
    return false;
  };
  const unpack = new tar.UnpackSync({
    cwd: tmp,
    strip: 1,
    brotli: false,
    zstd: false,
    // as root, tar would hand each file to the uid the tarball names
    preserveOwner: false,
    filter: (path, entry) => {
      if (failure) return false;
      if (++files > req.maxFiles) return stop(new LimitPassed("files"));
      bytes += ("size" in entry ? entry.size : 0) ?? 0;
      if (bytes > req.maxBytes) return stop(new LimitPassed("bytes"));
      if (!("type" in entry) || !KEPT.has(entry.type)) return false;
      // the leading folder (package/) is stripped; what is left must stay inside
      const rest = path.split("/").slice(1).join("/");
      if (rest.replace(/\/+$/, "") === "") return false;
      try {
        containedPath(tmp, rest);
      } catch {
        return stop(new Error(`${req.key}: its tarball has a file outside the package (${JSON.stringify(path)})`));
      }
      return true;
    },
  });
  unpack.on("error", (e: Error) => {
    failure ??= new Error(`${req.key}: its tarball can't be unpacked: ${e.message}`);
  });
  // a file tar could not write (disk full, a path it refused) would otherwise leave the package short
  unpack.on("warn", (code: string, message: string) => {
    if (code === "TAR_ENTRY_ERROR") failure ??= new Error(`${req.key}: unpacking failed: ${message}`);
  });

  const tarball = Buffer.from(req.tarball.buffer, req.tarball.byteOffset, req.tarball.byteLength);
  const gzipped = tarball[0] === 0x1f && tarball[1] === 0x8b;
  const source = gzipped ? Readable.from(slices(tarball)).pipe(createGunzip({ chunkSize: SLICE })) : Readable.from(slices(tarball));
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      // a tar stream starts with a file name: gzip's or zstd's first byte would make tar inflate it
      if (inflated === 0 && (chunk[0] === 0x1f || chunk[0] === 0x28)) throw new Error(`${req.key}: its tarball is compressed twice`);
      inflated += chunk.length;
      if (inflated > maxInflated) stop(new LimitPassed("bytes"));
      else unpack.write(chunk);
      if (failure) break;
    }
  } catch (e) {
    failure ??= new Error(`${req.key}: its tarball can't be unpacked: ${(e as Error).message}`, { cause: e });
  } finally {
    source.destroy();
  }
  if (!failure) unpack.end();
  if (failure) throw failure;
  return { bytes, files };
}

function* slices(bytes: Buffer): Generator<Buffer> {
  for (let i = 0; i < bytes.length; i += SLICE) yield bytes.subarray(i, i + SLICE);
}

function nativeReason(dir: string): string | undefined {
  if (existsSync(join(dir, "binding.gyp"))) return "binding.gyp";
  try {
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { gypfile?: boolean };
    if (pkg.gypfile === true) return "gypfile";
  } catch {
    // no readable package.json: the bundler will say what is missing
  }
  return undefined;
}
