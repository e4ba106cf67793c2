// A Server-Sent Events client for the tests: the raw text received so far, and the messages
// (id + parsed data) in it, read from a real HTTP response.

export interface SseClient {
  status: number;
  headers: Headers;
  /** raw text received so far */
  text(): string;
  messages(): { id: string; data: any }[];
  ended: Promise<void>;
  close(): void;
}

export async function connect(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
  const ac = new AbortController();
  const res = await fetch(url, { headers, signal: ac.signal });
  let buf = "";
  const ended = (async () => {
    if (!res.body) return;
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body) buf += decoder.decode(chunk as Uint8Array, { stream: true });
    } catch {
      // aborted by close()
    }
  })();
  return {
    status: res.status,
    headers: res.headers,
    text: () => buf,
    messages: () =>
      buf
        .split("\n\n")
        .filter((block) => block.startsWith("id: "))
        .map((block) => {
          const lines = block.split("\n");
          return { id: lines[0].slice(4), data: JSON.parse(lines[1].slice(6)) };
        }),
    ended,
    close: () => ac.abort(),
  };
}
