// A fetched response's body as the sandbox gets it: decoded as fetch decodes it, capped per
// response and, across every fetch of this runner, by the bytes held at once.
import { pipeline, Transform, type Readable, type TransformCallback } from "node:stream";
import { constants, createBrotliDecompress, createGunzip, createInflate, createInflateRaw, type ZlibOptions } from "node:zlib";

export const MAX_RESPONSE_BYTES = 10 * 1024 * 1024;
/**
 * Response bytes all of this runner's fetches may hold at once. A runner takes up to 1,024 runs
 * of a workflow side by side, each up to 8 fetches of 10 MB: without a bound, one user's
 * workflow could hold many GB outside the isolates' heaps. Past it a fetch fails (RangeError).
 */
export const MAX_HELD_BYTES = 512 * 1024 * 1024;
/** codings decoded in a row at most, as fetch does */
const MAX_CODINGS = 5;

let held = 0;

/** bytes the runner's fetches hold now */
export const heldBytes = () => held;

// as fetch's: a body cut short (no gzip trailer) still gives what it holds
const LENIENT: ZlibOptions = { flush: constants.Z_SYNC_FLUSH, finishFlush: constants.Z_SYNC_FLUSH };

/** deflate with its zlib header, or raw as some servers send it: told by the first byte, as fetch does */
class InflateAny extends Transform {
  #inner: Transform | undefined;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (!this.#inner) {
      const inner = (chunk[0]! & 0x0f) === 0x08 ? createInflate(LENIENT) : createInflateRaw(LENIENT);
      inner.on("data", (data: Buffer) => this.push(data));
      inner.on("error", (e) => this.destroy(e));
      this.#inner = inner;
    }
    this.#inner.write(chunk, () => done());
  }

  override _flush(done: TransformCallback): void {
    if (!this.#inner) return done();
    this.#inner.once("end", () => done());
    this.#inner.end();
  }
}

function decoderFor(coding: string): Transform | undefined {
  if (coding === "gzip" || coding === "x-gzip") return createGunzip(LENIENT);
  if (coding === "deflate") return new InflateAny();
  if (coding === "br") return createBrotliDecompress({ flush: constants.BROTLI_OPERATION_FLUSH, finishFlush: constants.BROTLI_OPERATION_FLUSH });
  return undefined;
}

/**
 * The body decoded when the server compressed it, as fetch decodes it: the codings of
 * Content-Encoding undone last first; one it doesn't know leaves the body as it came.
 */
export function decodedBody(body: Readable, encoding: string | undefined): Readable {
  const codings = (encoding ?? "").toLowerCase().split(",").map((c) => c.trim()).filter((c) => c !== "" && c !== "identity");
  if (codings.length === 0 || codings.length > MAX_CODINGS) return body;
  const decoders = codings.reverse().map(decoderFor);
  if (decoders.some((d) => d === undefined)) return body;
  return (pipeline as (...streams: Array<Readable | Transform | ((err: Error | null) => void)>) => Readable)(body, ...(decoders as Transform[]), () => {});
}

/** a body nobody reads: closed, and its abort error (undici emits one) kept from the process */
export function discard(body: Readable): Uint8Array {
  body.on("error", () => {});
  body.destroy();
  return new Uint8Array(0);
}

const tooLarge = () => new RangeError(`response body is larger than ${MAX_RESPONSE_BYTES} bytes`);

/** the whole body, at most MAX_RESPONSE_BYTES of it, counted against MAX_HELD_BYTES while it is read */
export async function readCapped(body: Readable, declared: number, maxHeld = MAX_HELD_BYTES): Promise<Uint8Array> {
  if (declared > MAX_RESPONSE_BYTES) {
    discard(body);
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      total += chunk.byteLength;
      held += chunk.byteLength;
      if (total > MAX_RESPONSE_BYTES) throw tooLarge();
      if (held > maxHeld) throw new RangeError(`the sandbox holds ${Math.round(maxHeld / 1024 / 1024)} MB of responses being read already: try again shortly`);
      chunks.push(chunk);
    }
    return new Uint8Array(Buffer.concat(chunks, total));
  } catch (e) {
    discard(body);
    if (e instanceof RangeError) throw e;
    throw new TypeError("terminated", { cause: e });
  } finally {
    held -= total;
  }
}
