// Entry point of the runner process (forked by RunnerProcess with Node's permission flags).
// Every request gets exactly one reply; errors in component code never end this process.
import { AppError } from "../../lib/errors.ts";
import type { RunnerMessage, RunnerReply } from "../protocol.ts";
import { analyze } from "./analyze.ts";
import { invoke } from "./invoke.ts";

async function handle(msg: RunnerMessage): Promise<unknown> {
  switch (msg.type) {
    case "analyze":
      return analyze(msg);
    case "invoke":
      return invoke(msg);
    default:
      throw new AppError("internal", `unknown runner request "${String((msg as { type?: unknown }).type)}"`);
  }
}

function reply(message: RunnerReply): void {
  // The host may have gone (or killed us) meanwhile; a failed send is not worth crashing for.
  if (process.connected) process.send?.(message, undefined, {}, () => {});
}

process.on("message", (raw: unknown) => {
  const msg = raw as RunnerMessage;
  if (typeof msg?.id !== "number") return;
  handle(msg).then(
    (result) => reply({ id: msg.id, ok: true, result }),
    (e: unknown) => {
      const err = e instanceof AppError ? e : new AppError("internal", `runner: ${e instanceof Error ? e.message : String(e)}`);
      reply({ id: msg.id, ok: false, code: err.code, message: err.message });
    },
  );
});

// Every entry into an isolate is awaited (sandbox/instance.ts), but a rejection that still slips
// out must not take down every other source on this runner.
process.on("unhandledRejection", (e) => {
  process.stderr.write(`runner: unhandled rejection: ${e instanceof Error ? e.message : String(e)}\n`);
});

// The host owns our lifetime: when its end of the channel closes, there is nobody to answer.
process.on("disconnect", () => process.exit(0));
