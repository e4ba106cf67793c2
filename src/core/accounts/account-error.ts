import type { InvokeResult } from "../../runtime/protocol.ts";

// Why an invocation could not have its connected account's credentials (docs/connecting-accounts.md, "Refresh"): its
// refresh was refused (the account's status is "error" until it is reconnected), or the provider
// could not be reached while the token had expired. The invocation fails on $errors with it.
export class AccountError extends Error {
  readonly accountId: string;

  constructor(accountId: string, reason: string) {
    super(`account ${accountId}: ${reason}`);
    this.name = "AccountError";
    this.accountId = accountId;
  }
}

/** The invocation that could not have its account: failed before it ran, with nothing else done. */
export function accountFailure(e: AccountError, cellId?: string): InvokeResult {
  const error = { name: e.name, message: e.message, stack: "", ...(cellId ? { cellId, code: e.name } : {}) };
  return { emits: [], db: null, logs: [], emitErrors: [], wallMs: 0, error };
}
