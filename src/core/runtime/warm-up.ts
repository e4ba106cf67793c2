import type { InvokeLimits } from "../../runtime/protocol.ts";
import type { Invoker } from "../../runtime/types.ts";
import type { EnvSnapshots } from "../env-vars/env-snapshots.ts";
import { codeOf, type Target } from "./target.ts";

/**
 * Starts the source's context on its runner ahead of its first run, so that run starts warm.
 * Nothing runs, nothing is recorded or counted; a failure is left for the run to report.
 */
export async function warmUp(d: { invoker: Invoker; env: EnvSnapshots; limits: InvokeLimits; fetchAllow: string[] }, t: Target, nextUseAt: number): Promise<void> {
  // the component's top level runs now, and may read process.env
  const env = await d.env.snapshot(t.user.id);
  await d.invoker.invoke({
    sourceId: t.source.id,
    owner: t.user.id,
    nextUseAt,
    ...codeOf(t),
    kind: "run",
    warmOnly: true,
    ...(env === undefined ? {} : { env }),
    props: {},
    db: {},
    // no epoch the host gives out: the first real run brings the source's db
    dbEpoch: -1,
    limits: d.limits,
    fetchAllow: d.fetchAllow,
  });
}
