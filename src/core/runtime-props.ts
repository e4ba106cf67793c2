import type { ComponentMeta } from "../runtime/types.ts";
import type { SecretBox } from "../lib/secret-box.ts";
import { defaultTimer } from "./props.ts";

/** Prop values as the sandbox gets them: secrets opened, the timer resolved, the http endpoint. */
export function runtimeProps(
  meta: ComponentMeta,
  stored: Record<string, unknown>,
  secrets: SecretBox,
  endpointUrl: string | null,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of meta.props) {
    const value = stored[p.name];
    if (p.type === "$.service.db") continue;
    if (p.type === "$.interface.http") out[p.name] = { endpoint: endpointUrl };
    else if (p.type === "$.interface.timer") out[p.name] = value ?? defaultTimer(p);
    else if (value === undefined) continue;
    else if (p.secret && typeof value === "string") out[p.name] = JSON.parse(secrets.open(value));
    else out[p.name] = value;
  }
  return out;
}
