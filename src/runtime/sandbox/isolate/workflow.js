// Runs INSIDE the isolate: the component object of a workflow (docs/writing-workflows.md, Steps). Its run takes the
// trigger event and runs the steps in order, each as `step.run({ steps, $ })` with `this` the
// step's own object. invoke.js runs it like any component, so emits, logs, limits and the outcome
// follow the sources' paths. Builtins are captured here, before any step code can replace them.
import { call, tell } from "./host.js";
import { propsThis, respond } from "./this.js";
import { evaluateProps } from "./expressions.js";

const { apply, defineProperty } = Reflect;
const { hasOwn, freeze, keys, create } = Object;
const { stringify, parse } = JSON;
const { floor } = Math;

const setOwn = (obj, key, value) => defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });

/** What a step threw, with the step's cellId; invoke.js reports both, and the error's code. */
export class StepFailure {
  constructor(cellId, error) {
    this.cellId = cellId;
    this.error = error;
  }
}

// $.flow.exit() throws one so the step stops at once. A step that catches it still ends the run:
// exit() also sets the run's flag, which the loop checks after every step whatever it did.
class FlowExit extends Error {}

function flowExit(reason) {
  const e = new FlowExit("$.flow.exit() ended the workflow run");
  e.name = "FlowExit";
  e.reason = reason;
  return e;
}

// $.respond() (docs/writing-workflows.md, Answering the request): the reply the HTTP trigger holds for the run (custom_response); the
// first call wins, as this.http.respond()'s does. It goes out when the step has committed, with
// or without `immediate` (replying before the step has committed is not available yet).
function respondOnce(r) {
  if (typeof r !== "object" || r === null) throw new TypeError("$.respond() takes { status?, headers?, body?, immediate? }");
  let body = r.body;
  if (body instanceof Uint8Array) body = new globalThis.TextDecoder().decode(body);
  respond({ status: r.status ?? 200, headers: r.headers, body }, r.immediate === true);
}

function noResponse() {
  throw new Error('$.respond() needs the workflow\'s HTTP trigger to have "custom_response": true; without it the trigger answers 200 {"success": true} when the request is accepted');
}

// JSON text of a step's value for its run record; what JSON can't hold (a cycle, a BigInt) is
// recorded as a note rather than failing a step that succeeded.
function json(value) {
  if (value === undefined) return undefined;
  try {
    return stringify(value);
  } catch (e) {
    return stringify({ $unserializable: e instanceof Error ? e.message : "not JSON" });
  }
}

/** Tells the runner how the step that started last ended (its run record: the "stepEnd" op, sandbox/invocation-ops.ts). */
function report(status, value, exports, $, flow) {
  const summary = typeof $.summary === "string" ? $.summary : undefined;
  tell("stepEnd", status, json(value), keys(exports).length > 0 ? json(exports) : undefined, summary, flow === undefined ? undefined : stringify(flow));
}

const DAY_MS = 24 * 60 * 60 * 1000;
const MAX_WAIT_MS = 365 * DAY_MS;

function waitMs(what, ms, fallback) {
  if (ms === undefined && fallback !== undefined) return fallback;
  if (typeof ms !== "number" || !Number.isFinite(ms) || ms < 0 || ms > MAX_WAIT_MS) {
    throw new RangeError(`${what} takes a number of milliseconds from 0 to ${MAX_WAIT_MS} (365 days)`);
  }
  return floor(ms);
}

/**
 * $.flow of one step (docs/writing-workflows.md, Waiting). delay, suspend and rerun don't stop the step: it ends as it
 * would, and the run then waits (the last call wins); each returns the URLs that end the wait
 * early or cancel the run, which the host signed for this step's execution.
 */
function makeFlow(run, state) {
  const urls = () => freeze({ resume_url: run.urls?.resume_url, cancel_url: run.urls?.cancel_url });
  return freeze({
    exit(reason) {
      state.exited = true;
      throw flowExit(reason);
    },
    delay(ms) {
      state.flow = { kind: "delay", ms: waitMs("$.flow.delay(ms)", ms) };
      return urls();
    },
    suspend(timeoutMs) {
      state.flow = { kind: "suspend", ms: waitMs("$.flow.suspend(timeoutMs)", timeoutMs, DAY_MS) };
      return urls();
    },
    rerun(delayMs, context, maxReruns = 10) {
      const max = typeof maxReruns === "number" && Number.isInteger(maxReruns) && maxReruns >= 0 ? maxReruns : 10;
      const runs = typeof run.runs === "number" ? run.runs : 1;
      if (runs > max) throw new Error(`$.flow.rerun(): this step has run again ${runs - 1} times already (maxReruns ${max})`);
      const flow = { kind: "rerun", ms: waitMs("$.flow.rerun(delayMs)", delayMs), max };
      if (context !== undefined) {
        const text = stringify(context);
        if (text === undefined) throw new TypeError("$.flow.rerun(): context must be JSON");
        flow.context = text;
      }
      state.flow = flow;
      return urls();
    },
  });
}

// the results of the steps before this one, as the host read them (JSON text)
function priorResults(run) {
  if (typeof run.results !== "string") return {};
  const parsed = parse(run.results);
  const out = {};
  if (typeof parsed === "object" && parsed !== null) for (const k of keys(parsed)) setOwn(out, k, parsed[k]);
  return out;
}

/**
 * The workflow component. `steps` is [{cellId, name}] and `components` the steps' default exports,
 * in the same order (the runner has checked that each is an object with a run function).
 */
export function makeWorkflow(steps, ...components) {
  const list = steps.map((s, i) => ({ cellId: String(s.cellId), name: String(s.name), component: components[i] }));
  return {
    type: "workflow",
    async run(event, props) {
      const emit = this.$emit;
      // what the host says of this run (core/workflows/run-record.ts runContext)
      const run = typeof props?.$run === "object" && props.$run !== null ? props.$run : {};
      // Pipedream's $.send.emit({ raw_event }, stream?) emits the raw_event; anything else is
      // emitted as is, on the stream named (the default one when none); the host wraps each in
      // {raw_event}.
      // $.send.http and $.send.email queue a request on the step; the service sends it once the
      // step has committed (the runner checks it: queued-send.ts)
      const send = freeze({
        emit(x, stream) {
          const raw = typeof x === "object" && x !== null && hasOwn(x, "raw_event") ? x.raw_event : x;
          emit(raw, typeof stream === "string" && stream !== "" ? { name: stream } : undefined);
        },
        http(config) {
          call("send", "http", stringify(config));
        },
        email(config) {
          if (run.email !== true) throw new Error("$.send.email(): this service can't send email (its operator has not set TRIBUTARY_SMTP_URL)");
          call("send", "email", stringify(config));
        },
      });
      const respondTo = run.customResponse === true ? respondOnce : noResponse;
      const results = { trigger: run.context === undefined ? { event } : { event, context: run.context } };
      const prior = priorResults(run);
      for (const k of keys(prior)) if (k !== "trigger") setOwn(results, k, prior[k]);
      const runInfo = { runs: typeof run.runs === "number" ? run.runs : 1 };
      if (hasOwn(run, "rerunContext")) runInfo.context = run.rerunContext;
      if (hasOwn(run, "callbackRequest")) runInfo.callback_request = run.callbackRequest;
      const context = freeze({ ...run.context, run: freeze(runInfo) });
      // the host runs one step per invocation (`run.step`) and commits it before the next; without
      // it, every step runs (the runner's own tests)
      const from = typeof run.step === "number" ? run.step : 0;
      const to = typeof run.step === "number" ? run.step + 1 : list.length;
      for (const step of list.slice(from, to)) {
        // Lets the runner put the step on a timeout or out-of-memory error it reports itself. Told,
        // not called: nothing waits for the answer, and it reaches the runner before any later call.
        tell("step", step.cellId);
        const exports = {};
        const state = { exited: false, flow: undefined };
        const $ = { send, flow: makeFlow(run, state), context, respond: respondTo, export: (name, value) => void setOwn(exports, String(name), value) };
        // Older Pipedream steps emit through the global $send.
        globalThis.$send = send;
        let value;
        try {
          // `this`: the step's props (expressions evaluated now, with the results so far) and
          // methods; what else its export holds stays reachable through the prototype
          const values = evaluateProps(props?.[step.cellId], results, step.component.props);
          const self = propsThis(step.component, values, create(step.component));
          value = await apply(step.component.run, self, [{ steps: results, $ }]);
        } catch (e) {
          report(state.exited ? "exited" : "failed", undefined, exports, $);
          if (state.exited) return;
          throw new StepFailure(step.cellId, e);
        }
        report(state.exited ? "exited" : "succeeded", value, exports, $, state.exited ? undefined : state.flow);
        if (state.exited || state.flow) return;
        // defineProperty: a step named "__proto__" must be a key like any other.
        setOwn(results, step.name, { ...exports, $return_value: value });
      }
    },
  };
}
