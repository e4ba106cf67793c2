import { tributaryClient } from "../../client/index.ts";
import { CliError, colors, printJson, reachingFetch, unwrap } from "../output.ts";
import { DEFAULT_URL, readProfile, writeProfile } from "../profile.ts";

export async function login(opts: { url?: string; key?: string; json?: boolean }): Promise<void> {
  const saved = readProfile();
  const url = (opts.url ?? process.env.TRIBUTARY_URL ?? saved.url ?? DEFAULT_URL).replace(/\/+$/, "");
  const key = opts.key ?? process.env.TRIBUTARY_API_KEY;
  if (!key) throw new CliError("no API key given", "tributary login --key trb_... (or set TRIBUTARY_API_KEY)");
  const me = unwrap(await tributaryClient({ url, key, fetch: reachingFetch(url) }).GET("/v1/users/me"), "the key was refused: check it, or the --url");
  const file = writeProfile({ url, key });
  const user = (me as { data: { username?: string; id?: string } }).data;
  if (opts.json) printJson({ url, user, profile: file });
  else process.stdout.write(`Logged in to ${colors.cyan(url)} as ${colors.bold(String(user.username ?? user.id))} (profile ${file})\n`);
}
