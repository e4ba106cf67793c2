import type { AccountAuth } from "./accounts/account-auth.ts";
import type { ComponentMeta } from "../runtime/types.ts";
import { accountIdOf } from "./accounts/account-refs.ts";
import { APPHOOK, defaultTimer } from "./props.ts";
import { ADDED } from "./added-props.ts";
import { AccountError } from "./accounts/account-error.ts";
import { AppError } from "../lib/errors.ts";

// `this` of a props form's question, as a run's would be (runtime/runtime-props.ts), from the
// values the form holds now: nothing is stored yet, so secrets are as typed and nothing is sealed.
// An app prop naming a connected account gets that account's auth, read for this user only: an
// account of someone else's gives an empty auth, as a deleted one does in a run.

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export async function sandboxValues(meta: ComponentMeta, configured: Record<string, unknown>, userId: string, accounts: AccountAuth): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const reads: Promise<void>[] = [];
  const declared = new Set(meta.props.map((p) => p.name));
  for (const p of meta.props) {
    const value = Object.hasOwn(configured, p.name) ? configured[p.name] : undefined;
    // no endpoint and no db before the source exists
    if (p.type === "$.service.db" || p.type === "$.interface.http") continue;
    if (p.type === "$.interface.timer") out[p.name] = isObject(value) ? value : defaultTimer(p);
    else if (p.type === APPHOOK) {
      const { name: _name, ...definition } = p;
      out[p.name] = definition;
    } else if (p.type === "app") {
      const id = accountIdOf(value);
      if (id !== undefined) reads.push(accounts.auth(userId, id).then((auth) => void (out[p.name] = auth ?? {})));
      else if (isObject(value)) out[p.name] = value;
    } else if (value !== undefined) out[p.name] = value;
  }
  // values of props additionalProps() adds ride along, as given; one naming an account is an app's
  for (const [name, value] of Object.entries(configured)) {
    if (declared.has(name) || name === ADDED) continue;
    const id = accountIdOf(value);
    if (id !== undefined) reads.push(accounts.auth(userId, id).then((auth) => void (out[name] = { $auth: auth ?? {} })));
    else out[name] = value;
  }
  try {
    await Promise.all(reads);
  } catch (e) {
    // an account whose tokens can't be made fresh: the question can't be answered (422, not 500)
    if (e instanceof AccountError) throw new AppError("invalid_component", e.message);
    throw e;
  }
  return out;
}
