import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { afterRunnerLoss, atDeadline, type CrashHistory, type CrashVerdict, type OverrunFacts, type OverrunVerdict, type RunnerLoss } from "./crash-policy.ts";

const fresh: CrashHistory = { retried: false, crashes: 0 };
const retried: CrashHistory = { retried: true, crashes: 0 };
const crashedOnce: CrashHistory = { retried: false, crashes: 1 };
const both: CrashHistory = { retried: true, crashes: 1 };
const fail: CrashVerdict = { action: "fail" };
const resend = (history: CrashHistory): CrashVerdict => ({ action: "resend", history });

describe("afterRunnerLoss", () => {
  const table: Array<[RunnerLoss, boolean, CrashHistory, CrashVerdict, string]> = [
    ["closing", false, fresh, fail, "closing fails everything"],
    ["closing", true, fresh, fail, "closing fails durable work too"],
    ["killed-by-host", false, fresh, resend(retried), "an innocent of the host's kill goes to a fresh runner"],
    ["killed-by-host", true, fresh, resend(retried), "durable or not"],
    ["killed-by-host", false, retried, fail, "innocent once only"],
    ["killed-by-host", true, crashedOnce, resend(both), "a crash before doesn't count against an innocent"],
    ["killed-by-host", true, both, fail, "a second kill fails it"],
    ["died", false, fresh, fail, "a crash fails what isn't durable"],
    ["died", true, fresh, resend(crashedOnce), "durable work runs once more"],
    ["died", true, retried, resend(both), "an earlier kill of the host's doesn't count as a crash"],
    ["died", true, crashedOnce, fail, "dying twice fails it (poison)"],
    ["died", false, retried, fail, "not durable, not innocent"],
  ];
  for (const [loss, durable, history, verdict, why] of table) {
    it(`${loss}, ${durable ? "durable" : "not durable"}, ${JSON.stringify(history)}: ${why}`, () => {
      assert.deepEqual(afterRunnerLoss(loss, durable, history), verdict);
    });
  }

  it("leaves the history it was given alone", () => {
    const history = { ...fresh };
    afterRunnerLoss("died", true, history);
    afterRunnerLoss("killed-by-host", true, history);
    assert.deepEqual(history, fresh);
  });
});

describe("atDeadline", () => {
  const facts = (over: Partial<OverrunFacts>): OverrunFacts => ({ retryUnstarted: true, started: false, retried: false, sent: true, ...over });
  const table: Array<[OverrunFacts, OverrunVerdict, string]> = [
    [facts({}), "replace-runner", "stuck before the component's code: the runner goes, the request is tried again"],
    [facts({ started: true }), "time-out", "stuck in the component's code"],
    [facts({ retried: true }), "time-out", "a fresh runner got stuck too"],
    [facts({ sent: false }), "time-out", "held back, never sent: no runner to blame"],
    [facts({ retryUnstarted: false }), "time-out", "a request that doesn't say when it starts"],
    [facts({ retryUnstarted: false, started: true, retried: true }), "time-out", "nothing to retry"],
  ];
  for (const [given, verdict, why] of table) {
    it(`${JSON.stringify(given)}: ${why}`, () => {
      assert.equal(atDeadline(given), verdict);
    });
  }
});
