// The host's answers to what a runner asks while an invocation runs (ipc.ts RunnerQuestion). The
// runner is ours, but what it relays comes from the sandbox: the request it asks for must still
// be pending on this runner, and must name what is asked for (its code, its environment
// variables' version, the data store).
import { AppError } from "../lib/errors.ts";
import { droppedMessage, type RunnerAsk, type RunnerQuestion } from "./ipc.ts";
import type { RunnerChild } from "./runner-child.ts";
import type { Pending } from "./runner-request.ts";

/** reads a data store for a runner (RunnerProcessOptions.answer); absent: every read fails */
export type StoreReader = (ask: RunnerAsk) => Promise<unknown>;

export function answerQuestion(child: RunnerChild, question: RunnerQuestion, byId: (id: number) => Pending | undefined, readStore: StoreReader | undefined): void {
  if (typeof question?.ask !== "number") return;
  const ask = question.ask;
  const give = (value: unknown) => child.answer({ t: "answer", ask, ok: true, value });
  const refuse = (message: string) => child.answer({ t: "answer", ask, ok: false, message });
  const pending = byId(question.req);
  const mine = pending?.child === child && pending.msg.type === "invoke" ? { request: pending.msg, opts: pending.opts } : undefined;
  switch (question.t) {
    case "env": {
      const text = mine && mine.request.envVersion === question.envVersion ? mine.opts.env : undefined;
      return text ? give(text()) : refuse("no such environment variables");
    }
    case "code": {
      const code = mine && mine.request.codeHash === question.codeHash ? mine.opts.code : undefined;
      return code ? give(code()) : refuse("no such code");
    }
    case "store-read": {
      const named = mine?.request.dataStores ?? [];
      if (typeof question.store !== "string" || !named.includes(question.store) || !readStore) {
        return refuse("this invocation can't read that data store");
      }
      readStore(question).then(give, (e: unknown) =>
        refuse(e instanceof AppError ? e.message : "the data store could not be read (the service's store is unavailable)"),
      );
      return;
    }
    default:
      process.stderr.write(droppedMessage("runner ask", question));
  }
}
