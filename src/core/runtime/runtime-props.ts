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
import type { NamedSecret } from "./secret-mask.ts";

/** Hears why an account's auth couldn't be had (the run then fails with it, not with a 401). */
export type OnAccountError = (e: AccountError) => void;

/**
 * Prop values as the sandbox gets them: secrets opened, the timer resolved, the http endpoint,
 * an app prop that names a connected account given that account's current auth (the sandbox
 * makes it `this.<prop>.$auth`), an apphook its definition (with the event names configured for it).
 * A promise only when an account has to be read; a missing account gives an empty auth, so
 * the run fails the way a revoked credential would. An account whose tokens can't be made fresh
 * is told to `onAccountError` (for a workflow, only when it is `cellId`'s, the step that runs).
 * The secret props' opened values and the accounts' auth are added to `found` (by the time the
 * values are had), for the mask of what the run shows (secret-mask.ts).
 */
export function runtimeProps(
  t: Target,
  secrets: SecretBox,
  accounts: AccountAuth,
  onAccountError: OnAccountError,
  cellId?: string,
  found?: NamedSecret[],
): Record<string, unknown> | Promise<Record<string, unknown>> {
  if (t.workflow) return stepProps(t.workflow.steps, t.user.id, secrets, accounts, onAccountError, cellId, found);
  return resolve(withAdded(t.component.meta, t.source.props).props, t.source.props, t.endpointUrl, t.user.id, secrets, accounts, onAccountError, found);
}

/**
 * The secrets a workflow's steps are given (secret props, accounts' auth), for masking what the
 * run API shows of a run of them; an account whose auth can't be had gives none.
 */
export async function workflowSecrets(steps: WorkflowStepRow[], userId: string, secrets: SecretBox, accounts: AccountAuth): Promise<NamedSecret[]> {
  const found: NamedSecret[] = [];
  await stepProps(steps, userId, secrets, accounts, () => undefined, undefined, found);
  return found;
}

/**
 * A workflow's props: each step's, by its cell id (docs/writing-workflows.md, "Props"). Expressions stay as written:
 * they are evaluated in the step's isolate, with the results of the steps before it.
 */
function stepProps(
  steps: WorkflowStepRow[],
  userId: string,
  secrets: SecretBox,
  accounts: AccountAuth,
  onAccountError: OnAccountError,
  cellId: string | undefined,
  found: NamedSecret[] | undefined,
) {
  const out: Record<string, unknown> = {};
  let reads: Promise<void>[] | undefined;
  for (const step of steps) {
    if (!step.meta || !step.props || Object.keys(step.props).length === 0) continue;
    const values = resolve(withAdded(step.meta, step.props).props, step.props, null, userId, secrets, accounts, step.id === cellId ? onAccountError : () => undefined, found);
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
  found: NamedSecret[] | undefined,
): Record<string, unknown> | Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  let reads: Promise<void>[] | undefined;
  const readAccount = (p: PropDefinition, value: unknown) =>
    accounts.auth(userId, accountIdOf(value)!).then(
      (auth) => {
        out[p.name] = auth ?? {};
        if (found && auth) authSecrets(`account:${p.app ?? p.name}`, auth, found);
      },
      (e: unknown) => {
        if (!(e instanceof AccountError)) throw e;
        out[p.name] = {};
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
      out[p.name] = Array.isArray(value) ? { ...definition, eventNames: value } : definition;
    } else if (value === undefined) continue;
    else if (p.secret && typeof value === "string") {
      const opened: unknown = JSON.parse(secrets.open(value));
      out[p.name] = opened;
      if (found && typeof opened === "string") found.push({ name: p.name, value: opened });
    } else if (p.type === "app" && accountIdOf(value) !== undefined) (reads ??= []).push(readAccount(p, value));
    else out[p.name] = value;
  }
  // the definitions of props additionalProps() added, for the isolate's `this` (isolate/this.js)
  const added = addedOf(stored);
  if (added.length > 0) out[ADDED] = Object.fromEntries(added.map(({ name, ...def }) => [name, def]));
  return reads ? Promise.all(reads).then(() => out) : out;
}

/**
 * Every string in an account's auth: which of its fields are secret is the app's to say, and a
 * token may sit under any name, so all are masked (ids and domains with them).
 */
function authSecrets(name: string, auth: unknown, found: NamedSecret[]): void {
  if (typeof auth === "string") found.push({ name, value: auth });
  else if (auth !== null && typeof auth === "object") for (const v of Object.values(auth)) authSecrets(name, v, found);
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
