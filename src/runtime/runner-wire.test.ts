import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { fork } from "node:child_process";
import { once } from "node:events";
import type { HostToRunner, RunnerEnvelope, RunnerToHost } from "./ipc.ts";
import { runnerEntry } from "./runner-entry.ts";
import { RUNNER_EXEC_ARGV } from "./runner-permissions.ts";

// The real runner's side of the channel, spoken to directly: every message it sends is tagged,
// and one it doesn't know is dropped without a crash.
describe("the runner's channel", () => {
  const child = fork(runnerEntry(), [], { execArgv: RUNNER_EXEC_ARGV, env: {}, stdio: ["ignore", "inherit", "pipe", "ipc"], serialization: "json" });
  let stderr = "";
  child.stderr!.on("data", (chunk) => (stderr += String(chunk)));
  const received: RunnerToHost[] = [];
  child.on("message", (message) => received.push(message as RunnerToHost));
  after(() => child.kill("SIGKILL"));

  const send = (message: HostToRunner | { t: string }) => child.send(message);
  const replyTo = async (id: number): Promise<RunnerEnvelope> => {
    for (;;) {
      const found = received.find((m): m is RunnerEnvelope => m.t === "replies" && m.replies.some((reply) => reply.id === id));
      if (found) return found;
      await once(child, "message");
    }
  };

  it("drops a message of an unknown tag (and says so), then answers a request with a tagged reply in a tagged envelope", async () => {
    send({ t: "gossip" });
    send({ t: "requests", requests: [{ type: "analyze", id: 1, code: "export default { name: 'wire' }", timeoutMs: 5000, memoryMb: 64 }] });
    const envelope = await replyTo(1);
    assert.equal(typeof envelope.rss, "number");
    const reply = envelope.replies.find((r) => r.id === 1)!;
    assert.equal(reply.t, "reply");
    assert.ok(reply.ok, JSON.stringify(reply));
    assert.equal((reply.result as { name: string }).name, "wire");
    assert.ok(received.some((m) => m.t === "started" && m.id === 1), "it said when it started on the component");
    assert.ok(received.every((m) => m.t === "replies" || m.t === "started"), JSON.stringify(received.map((m) => m.t)));
    assert.match(stderr, /runner: dropped a message tagged "gossip"/);
  });
});
