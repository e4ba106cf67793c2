import type { SecretBox } from "../../lib/secret-box.ts";
import type { AccountAuth } from "../accounts/account-auth.ts";
import { accountIdOf } from "../accounts/account-refs.ts";
import { APPHOOK, defaultTimer } from "../props.ts";
import { ADDED, addedOf, withAdded } from "../added-props.ts";
import type { Target } from "./target.ts";
import type { WorkflowStepRow } from "../../store/port.ts";
import type { PropDefinition } from "../../runtime/types.ts";
import { dataStoreIds } from "../data-stores/store-refs.ts";
import { AccountError } from "../accounts/account-error.ts";

/** Hears why an account's auth couldn't be had (the run then fails with it, not with a 401). */
export type OnAccountError = (e: AccountError) => void;

/**
 * Prop values as the sandbox gets them: secrets opened, the timer resolved, the http endpoint,
 * an app prop that names a connected account given that account's current auth (the sandbox
 * makes it `this.<prop>.$auth`), an apphook its definition (inert: nothing is delivered yet).
 * A promise only when an account has to be read; a missing account gives an empty auth, so
 * the run fails the way a revoked credential would. An account whose tokens can't be made fresh
 * is told to `onAccountError` (for a workflow, only when it is `cellId`'s, the step that runs).
 */
export function runtimeProps(
  t: Target,
  secrets: SecretBox,
  accounts: AccountAuth,
  onAccountError: OnAccountError,
  cellId?: string,
): Record<string, unknown> | Promise<Record<string, unknown>> {
  if (t.workflow) return stepProps(t.workflow.steps, t.user.id, secrets, accounts, onAccountError, cellId);
  return resolve(withAdded(t.component.meta, t.source.props).props, t.source.props, t.endpointUrl, t.user.id, secrets, accounts, onAccountError);
}

/**
 * A workflow's props: each step's, by its cell id (docs/writing-workflows.md, "Props"). Expressions stay as written:
 * they are evaluated in the step's isolate, with the results of the steps before it.
 */
function stepProps(steps: WorkflowStepRow[], userId: string, secrets: SecretBox, accounts: AccountAuth, onAccountError: OnAccountError, cellId?: string) {
  const out: Record<string, unknown> = {};
  let reads: Promise<void>[] | undefined;
  for (const step of steps) {
    if (!step.meta || !step.props || Object.keys(step.props).length === 0) continue;
    const values = resolve(withAdded(step.meta, step.props).props, step.props, null, userId, secrets, accounts, step.id === cellId ? onAccountError : () => undefined);
    if (values instanceof Promise) (reads ??= []).push(values.then((v) => void (out[step.id] = v)));
    else out[step.id] = values;
  }
  return reads ? Promise.all(reads).then(() => out) : out;
}

function resolve(
  defs: PropDefinition[],
  stored: Record<string, unknown>,
  endpointUrl: string | null,
  userId: string,
  secrets: SecretBox,
  accounts: AccountAuth,
  onAccountError: OnAccountError,
): Record<string, unknown> | Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  let reads: Promise<void>[] | undefined;
  const readAccount = (name: string, value: unknown) =>
    accounts.auth(userId, accountIdOf(value)!).then(
      (auth) => void (out[name] = auth ?? {}),
      (e: unknown) => {
        if (!(e instanceof AccountError)) throw e;
        out[name] = {};
        onAccountError(e);
      },
    );
  for (const p of defs) {
    const value = stored[p.name];
    if (p.type === "$.service.db") continue;
    if (p.type === "$.interface.http") out[p.name] = { endpoint: endpointUrl };
    else if (p.type === "$.interface.timer") out[p.name] = value ?? defaultTimer(p);
    else if (p.type === APPHOOK) {
      const { name: _name, ...definition } = p;
      out[p.name] = definition;
    } else if (value === undefined) continue;
    else if (p.secret && typeof value === "string") out[p.name] = JSON.parse(secrets.open(value));
    else if (p.type === "app" && accountIdOf(value) !== undefined) (reads ??= []).push(readAccount(p.name, value));
    else out[p.name] = value;
  }
  // the definitions of props additionalProps() added, for the isolate's `this` (isolate/this.js)
  const added = addedOf(stored);
  if (added.length > 0) out[ADDED] = Object.fromEntries(added.map(({ name, ...def }) => [name, def]));
  return reads ? Promise.all(reads).then(() => out) : out;
}

/**
 * The data stores the target's props name, or undefined: none. A workflow's: the step `cellId`'s
 * when one step runs (a step opens no other step's store), else every step's.
 */
export function dataStoresOf(t: Target, cellId?: string): string[] | undefined {
  const steps = t.workflow && (cellId === undefined ? t.workflow.steps : t.workflow.steps.filter((s) => s.id === cellId));
  const ids = steps
    ? steps.flatMap((s) => (s.meta ? dataStoreIds(withAdded(s.meta, s.props), s.props) : []))
    : dataStoreIds(withAdded(t.component.meta, t.source.props), t.source.props);
  return ids.length > 0 ? [...new Set(ids)] : undefined;
}
