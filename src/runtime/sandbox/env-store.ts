// The owners' environment variables the runner holds, by version (protocol.ts EnvText), so that
// the host sends only the version with each run and the text once per runner and version
// (ipc.ts RunnerEnvAsk). Bounded (least recently used goes first): a version let go is asked for
// again by the next run that names it.

export const MAX_ENVS = 1000;
/** what the texts hold together at most; one larger than this is still kept, alone */
export const MAX_ENV_CHARS = 64 * 1024 * 1024;

const texts = new Map<string, string>();
let chars = 0;

export function getEnv(version: string): string | undefined {
  const json = texts.get(version);
  if (json !== undefined) {
    texts.delete(version);
    texts.set(version, json);
  }
  return json;
}

export function putEnv(version: string, json: string): void {
  if (texts.has(version)) return void getEnv(version);
  texts.set(version, json);
  chars += json.length;
  for (const [old, text] of texts) {
    if ((texts.size <= MAX_ENVS && chars <= MAX_ENV_CHARS) || old === version) break;
    texts.delete(old);
    chars -= text.length;
  }
}
