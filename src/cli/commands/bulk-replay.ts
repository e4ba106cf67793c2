import { api } from "../profile.ts";
import { CliError, colors, printJson, unwrap } from "../output.ts";

// `tributary replay p_... --failed [--since 1h] [--until 10m] [--limit N]`: the workflow's failed
// runs in a time range replayed at once (POST /v1/workflows/{id}/runs/replay), newest first.

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** "90s", "30m", "1h", "2d": that long ago, as ms since the epoch */
export function agoMs(text: string, option: string, now = Date.now()): number {
  const m = /^(\d+)\s*([smhd])$/.exec(text.trim());
  if (!m) throw new CliError(`${option} takes a duration such as 90s, 30m, 1h or 2d, not "${text}"`);
  return now - Number(m[1]) * UNITS[m[2]!]!;
}

export async function bulkReplay(workflowId: string, opts: { json?: boolean; failed?: boolean; since?: string; until?: string; limit?: string }): Promise<void> {
  if (!opts.failed) throw new CliError(`replaying a workflow's runs (${workflowId}) takes --failed: tributary replay ${workflowId} --failed [--since 1h]`);
  const limit = opts.limit === undefined ? undefined : Number(opts.limit);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > 1000)) throw new CliError("--limit takes a whole number from 1 to 1000");
  const body = {
    status: "failed" as const,
    ...(opts.since === undefined ? {} : { since: agoMs(opts.since, "--since") }),
    ...(opts.until === undefined ? {} : { until: agoMs(opts.until, "--until") }),
    ...(limit === undefined ? {} : { limit }),
  };
  const { client } = api();
  const data = (unwrap(await client.POST("/v1/workflows/{id}/runs/replay", { params: { path: { id: workflowId } }, body })) as { data: { runs: string[]; matched: number; stopped?: string } }).data;
  if (opts.json) return printJson(data);
  const out = [`Replaying ${colors.bold(String(data.runs.length))} of ${data.matched} failed runs of ${colors.bold(workflowId)}${data.stopped ? ` (stopped: ${data.stopped})` : ""}`];
  for (const id of data.runs) out.push(`  ${id}`);
  if (data.runs.length > 0) out.push(`see \`tributary runs ${workflowId}\``);
  process.stdout.write(out.join("\n") + "\n");
}
