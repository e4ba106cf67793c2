// Entry point of the runner process (forked by RunnerProcess with Node's permission flags).
// Every request gets exactly one reply; errors in component code never end this process.
import { AppError } from "../../lib/errors.ts";
import { batchesOf, droppedMessage, tagOf, type HostToRunner, type RequestMessage, type RunnerEnvelope, type RunnerQuestion, type RunnerReply, type RunnerSettings, type RunnerStarted, type RunnerTell } from "../ipc.ts";
import { analyze } from "./analyze/analyze.ts";
import { invoke, setWarmMemoryMb, setWarmSources } from "./invoke.ts";
import { entryModes } from "./instance.ts";
import { useRuntimeBundle } from "./load/runtime-modules.ts";
import { connectHost, takeAnswer } from "./host-asks.ts";

const settings = JSON.parse(process.argv[2] ?? "{}") as Partial<RunnerSettings>;
if (typeof settings.warmMemoryMb === "number" && settings.warmMemoryMb > 0) setWarmMemoryMb(settings.warmMemoryMb);
if (typeof settings.warmSources === "number" && settings.warmSources > 0) setWarmSources(settings.warmSources);
if (typeof settings.runtimeBundle === "string") useRuntimeBundle(settings.runtimeBundle);
if (settings.syncEntries === false || settings.syncEntries === "always") entryModes.set(settings.syncEntries);

async function handle(msg: RequestMessage): Promise<unknown> {
  switch (msg.type) {
    case "analyze":
      // said at once, alone: should the component's code then block this process, the host
      // knows the runner got as far as the component (runner-process.ts, retryUnstarted)
      return analyze(msg, () => {
        const started: RunnerStarted = { t: "started", id: msg.id };
        process.send?.(started);
      });
    case "invoke":
      return invoke(msg);
    default:
      throw new AppError("internal", `unknown runner request "${String((msg as { type?: unknown }).type)}"`);
  }
}

// Replies finished in one tick go back as one message, as the host batches its requests; each
// message carries this process's RSS, so the host can retire a runner that grew too large.
let outbox: RunnerReply[] | null = null;
let asks: RunnerQuestion[] = [];
let tells: RunnerTell[] = [];

function reply(message: RunnerReply): void {
  if (!outbox) {
    outbox = [];
    setImmediate(flush);
  }
  outbox.push(message);
}

function queued(): void {
  if (!outbox) {
    outbox = [];
    setImmediate(flush);
  }
}

connectHost({
  ask(ask) {
    queued();
    asks.push(ask);
  },
  tell(news) {
    queued();
    tells.push(news);
  },
});

function flush(): void {
  const replies = outbox!;
  const asked = asks;
  const told = tells;
  outbox = null;
  asks = [];
  tells = [];
  // The host may have gone (or killed us) meanwhile; then there is nobody to answer.
  if (!process.connected) return;
  const rss = currentRss();
  const batches = batchesOf(replies, replyBytes);
  if (batches.length === 0) batches.push([]);
  // the questions and news ride with the last batch of replies: after every result finished before them
  const extra = { ...(asked.length > 0 ? { asks: asked } : {}), ...(told.length > 0 ? { tells: told } : {}) };
  batches.forEach((batch, i) => send({ t: "replies", rss, replies: batch, ...(i === batches.length - 1 ? extra : {}) }));
}

// Read at most every RSS_EVERY_MS: reading it is a read of /proc, and under load replies go out
// hundreds of times a second; the host only compares it with a bound measured in hundreds of MB.
const RSS_EVERY_MS = 100;
let rssRead = { at: -Infinity, bytes: 0 };
function currentRss(): number {
  const now = performance.now();
  if (now - rssRead.at >= RSS_EVERY_MS) rssRead = { at: now, bytes: process.memoryUsage.rss() };
  return rssRead.bytes;
}

// Serialising happens inside process.send and throws synchronously (a value too deep or too
// large for JSON). That must never escape: the batch is split, and a reply that can't be sent
// alone becomes its invocation's own failure.
function send(envelope: RunnerEnvelope): void {
  try {
    process.send?.(envelope, undefined, {}, () => {});
  } catch (e) {
    if (envelope.replies.length > 1) {
      const last = envelope.replies.length - 1;
      const rest = { asks: envelope.asks, tells: envelope.tells };
      envelope.replies.forEach((one, i) => send({ t: "replies", rss: envelope.rss, replies: [one], ...(i === last ? rest : {}) }));
      return;
    }
    if ((envelope.asks || envelope.tells) && envelope.replies.length === 1) {
      // the reply alone first (it may fail and be replaced), then the rest
      send({ t: "replies", rss: envelope.rss, replies: envelope.replies });
      send({ t: "replies", rss: envelope.rss, replies: [], asks: envelope.asks, tells: envelope.tells });
      return;
    }
    const only = envelope.replies[0];
    if (!only || (!only.ok && only.code === "internal")) return;
    const message = `the sandbox could not hand back this result: ${e instanceof Error ? e.message : String(e)}`;
    send({ t: "replies", rss: envelope.rss, replies: [{ t: "reply", id: only.id, ok: false, code: "internal", message: `ResultError: ${message}` }] });
  }
}

// A reply's size is dominated by the emitted events it carries (JSON text); the rest is small.
function replyBytes(r: RunnerReply): number {
  const result = r.ok ? (r.result as { emits?: Array<{ json: string }> } | null) : null;
  let bytes = 1024;
  if (result && Array.isArray(result.emits)) for (const e of result.emits) bytes += e.json.length;
  return bytes;
}

function receive(msg: RequestMessage): void {
  if (typeof msg?.id !== "number") return;
  handle(msg).then(
    (result) => reply({ t: "reply", id: msg.id, ok: true, result }),
    (e: unknown) => {
      const err = e instanceof AppError ? e : new AppError("internal", `runner: ${e instanceof Error ? e.message : String(e)}`);
      reply({ t: "reply", id: msg.id, ok: false, code: err.code, message: err.message });
    },
  );
}

const drop = (message: unknown) => process.stderr.write(droppedMessage("runner", message));

process.on("message", (raw: unknown) => {
  if (tagOf(raw) === undefined) return void drop(raw);
  const msg = raw as HostToRunner;
  switch (msg.t) {
    case "requests":
      if (Array.isArray(msg.requests)) for (const request of msg.requests) receive(request);
      return;
    case "answer":
      return takeAnswer(msg);
    default:
      drop(msg);
  }
});

// Every entry into an isolate is awaited (sandbox/instance.ts), but a rejection that still slips
// out must not take down every other source on this runner.
process.on("unhandledRejection", (e) => {
  process.stderr.write(`runner: unhandled rejection: ${e instanceof Error ? e.message : String(e)}\n`);
});

// The host owns our lifetime: when its end of the channel closes, there is nobody to answer.
// The runner keeps nothing worth cleaning up, and an orderly exit can wait on isolates still
// running, so it ends at once.
const die = () => process.kill(process.pid, "SIGKILL");
process.on("disconnect", die);
// ...and if it closed while this process was still starting, the event has already been missed.
if (!process.connected) die();
// A host killed with SIGKILL does not always close the channel in a way this process notices
// (seen once in six kill -9 runs: a runner outlived its host). Being re-parented says it too.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) die();
}, 1000).unref();
