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

// Replies finished in one tick go back as one message, as the host batches its requests.
let outbox: RunnerReply[] | null = null;

function reply(message: RunnerReply): void {
  if (!outbox) {
    outbox = [];
    setImmediate(() => {
      const batch = outbox!;
      outbox = null;
      // The host may have gone (or killed us) meanwhile; a failed send is not worth crashing for.
      if (process.connected) process.send?.(batch, undefined, {}, () => {});
    });
  }
  outbox.push(message);
}

function receive(msg: RunnerMessage): void {
  if (typeof msg?.id !== "number") return;
  handle(msg).then(
    (result) => reply({ id: msg.id, ok: true, result }),
    (e: unknown) => {
      const err = e instanceof AppError ? e : new AppError("internal", `runner: ${e instanceof Error ? e.message : String(e)}`);
      reply({ id: msg.id, ok: false, code: err.code, message: err.message });
    },
  );
}

process.on("message", (raw: unknown) => {
  if (Array.isArray(raw)) for (const m of raw) receive(m as RunnerMessage);
  else receive(raw as RunnerMessage);
});

// Every entry into an isolate is awaited (sandbox/instance.ts), but a rejection that still slips
// out must not take down every other source on this runner.
process.on("unhandledRejection", (e) => {
  process.stderr.write(`runner: unhandled rejection: ${e instanceof Error ? e.message : String(e)}\n`);
});

// The host owns our lifetime: when its end of the channel closes, there is nobody to answer.
process.on("disconnect", () => process.exit(0));
// ...and if it closed while this process was still starting, the event has already been missed.
if (!process.connected) process.exit(0);
