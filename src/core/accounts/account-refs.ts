import type { ComponentMeta } from "../../runtime/types.ts";
import type { AccountStore, UserRow } from "../../store/port.ts";
import { invalid, notFound, type FieldProblem } from "../../lib/errors.ts";

// An app prop configured with a connected account holds `{"authProvisionId": "apn_..."}`, as
// Pipedream's configured props do, never the auth itself: the auth is read from the account at
// each run (core/account-auth.ts), so rotating it reaches every source that uses it.

export interface AccountRef {
  /** the app prop's name */
  prop: string;
  /** the app the prop declares */
  app: string | undefined;
  /** the account's id */
  id: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A configured app value that names an account rather than giving the auth inline. */
export function accountIdOf(value: unknown): string | undefined {
  return isObject(value) && typeof value.authProvisionId === "string" ? value.authProvisionId : undefined;
}

/** The accounts the stored props of a component name, one entry per app prop that names one. */
export function accountRefs(meta: ComponentMeta, props: Record<string, unknown>): AccountRef[] {
  const refs: AccountRef[] = [];
  for (const p of meta.props) {
    if (p.type !== "app") continue;
    const id = accountIdOf(Object.hasOwn(props, p.name) ? props[p.name] : undefined);
    if (id !== undefined) refs.push({ prop: p.name, app: p.app, id });
  }
  return refs;
}

/**
 * Every account the props name must be the user's and for the prop's app; else one 400 names
 * each prop. Another user's account reads exactly like a missing one: its existence is not told.
 */
export async function checkAccountRefs(store: AccountStore, user: UserRow, meta: ComponentMeta, props: Record<string, unknown>): Promise<void> {
  const problems = await accountRefProblems(store, user, meta, props, "configured_props");
  if (problems.length) throw invalid("configured_props name accounts that can't be used here", problems);
}

/**
 * The problems of the accounts `props` name, each under `${at}.<prop>`. `missing` says what an
 * account that isn't the user's is: a field problem (sources), or a 404 thrown at once (workflow
 * steps): either way it reads exactly like one that doesn't exist.
 */
export async function accountRefProblems(
  store: AccountStore,
  user: UserRow,
  meta: ComponentMeta,
  props: Record<string, unknown>,
  at: string,
  missing: "problem" | "not_found" = "problem",
): Promise<FieldProblem[]> {
  const problems: FieldProblem[] = [];
  for (const ref of accountRefs(meta, props)) {
    const field = `${at}.${ref.prop}`;
    const account = ref.id.startsWith("apn_") ? await store.byId(ref.id) : undefined;
    if (!account || account.user_id !== user.id) {
      if (missing === "not_found") throw notFound("connected account");
      problems.push({ field, message: "authProvisionId names no connected account of yours" });
    } else if (account.app !== ref.app) {
      problems.push({ field, message: `needs a ${ref.app ?? "matching"} account; ${ref.id} is a ${account.app} account` });
    }
  }
  return problems;
}
