import type { Response } from "undici";
import { fetchChecked } from "./guarded-fetch.ts";
import { assertFetchable } from "./net-guard.ts";

export interface FetchTextOptions {
  timeoutMs: number;
  maxBytes: number;
  allow: readonly string[];
}

/**
 * GETs a URL as text with a deadline and a size cap, re-checking every redirect target
 * against the address guard. Throws Error with a message fit for the user.
 */
export async function fetchText(rawUrl: string, opts: FetchTextOptions): Promise<string> {
  return (await fetchBytes(rawUrl, opts)).toString("utf8");
}

/** The same, as bytes (package tarballs); `headers` are sent with every hop. */
export async function fetchBytes(rawUrl: string, opts: FetchTextOptions & { headers?: Record<string, string> }): Promise<Buffer> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new Error(`"${rawUrl}" is not a valid URL`);
  }
  const signal = AbortSignal.timeout(opts.timeoutMs);
  for (let hops = 0; hops < 5; hops++) {
    // checked out here, so that its refusal reads as it is (not as "fetching ... failed")
    const allowed = await assertFetchable(url, opts.allow);
    let res: Response;
    try {
      res = await fetchChecked(url, { redirect: "manual", signal, headers: opts.headers }, allowed);
    } catch (err) {
      const reason = signal.aborted ? `timed out after ${opts.timeoutMs} ms` : String((err as Error).message);
      throw new Error(`fetching ${url.href} failed: ${reason}`, { cause: err });
    }
    if (res.status >= 300 && res.status < 400 && res.headers.get("location")) {
      url = new URL(res.headers.get("location")!, url);
      await res.body?.cancel();
      continue;
    }
    if (!res.ok) throw new Error(`fetching ${url.href} failed: HTTP ${res.status}`);
    return await readCapped(res, opts.maxBytes, url.href);
  }
  throw new Error(`fetching ${rawUrl} failed: too many redirects`);
}

async function readCapped(res: Response, maxBytes: number, href: string): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > maxBytes) throw new Error(`${href} is larger than ${maxBytes} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
