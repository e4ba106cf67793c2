// Runs INSIDE the isolate: builds `this` from the component's own prop definitions and runs one
// hook or `run`. The outcome goes back to the runner through the "done" call, never as a return
// value, so the runner alone decides when an invocation is over (see sandbox/instance.ts).
import { call, entered, tell } from "./host.js";
import { inspect } from "./inspect.js";
import { resetInvocation } from "./runtime.js";
import { StepFailure } from "./workflow.js";
import { propsThis } from "./this.js";
import { propsQuestion } from "./dynamic-props.js";

const { parse, stringify } = JSON;
const then = Promise.prototype.then;
const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);

function describeError(e) {
  try {
    if (e instanceof StepFailure) {
      const d = describeError(e.error);
      return { ...d, cellId: e.cellId, code: errorCode(e.error, d.name) };
    }
    if (e instanceof Error) return { name: String(e.name), message: String(e.message), stack: String(e.stack ?? "") };
    return { name: "Error", message: typeof e === "string" ? e : `non-Error thrown: ${inspect(e)}`, stack: "" };
  } catch {
    return { name: "Error", message: "the thrown value could not be described", stack: "" };
  }
}

// A failed step's error code (in its run record) is the thrown value's `code`, as Node's own errors
// carry one (ECONNREFUSED), else its name.
function errorCode(e, name) {
  try {
    const code = typeof e === "object" && e !== null ? e.code : undefined;
    return typeof code === "string" && code !== "" ? code : name;
  } catch {
    return name;
  }
}

function utf8Length(s) {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) i++;
    else if (c >= 0x800) n += 2;
    else if (c >= 0x80) n += 1;
  }
  return n;
}

function emitError(message) {
  call("emitError", message, new Error(message).stack ?? "");
}

// Emits wait here and go to the runner with the outcome ("done"), or sooner once many wait: each
// call out of the isolate is a round trip between two threads of the runner (a futex wait and a
// wake on each side), and with one $emit per run the counting call, the emit and "done" were
// three of them. Hand-offs were 36% of a runner's CPU in the fan-out bench. A run that fails keeps
// none of its emits, so holding them until its end loses nothing. The runner checks every emit
// again when it arrives (sizes, depth, the output bound); the count is kept here, where the
// component's $emit call can fail as it should.
const OUTBOX_EMITS = 64;
const OUTBOX_BYTES = 1024 * 1024;

function makeOutbox(limits) {
  let queued = [];
  let bytes = 0;
  let calls = 0;
  let closed = false;
  const flush = () => {
    if (queued.length === 0) return;
    const batch = queued;
    queued = [];
    bytes = 0;
    call("emits", batch);
  };
  return {
    count() {
      if (closed) throw new Error("$emit is only available while the component is invoked");
      if (++calls > limits.maxEmits) throw new RangeError(`more than ${limits.maxEmits} $emit calls in one invocation`);
    },
    push(json, id, name, summary, ts) {
      queued.push(json, id, name, summary, ts);
      bytes += json.length;
      if (queued.length >= OUTBOX_EMITS * 5 || bytes >= OUTBOX_BYTES) flush();
    },
    /** the emits still waiting; nothing more gets in */
    close() {
      closed = true;
      const batch = queued;
      queued = [];
      return batch;
    },
  };
}

function makeEmit(limits, outbox) {
  return function $emit(event, meta) {
    outbox.count();
    let json;
    try {
      json = stringify(event);
    } catch (e) {
      return emitError(`event is not JSON-serializable: ${describeError(e).message}`);
    }
    if (json === undefined) return emitError(`event is not JSON-serializable (${typeof event})`);
    // A string longer than the limit in UTF-16 units is longer in bytes too: no need to count.
    const bytes = json.length > limits.maxEventBytes ? json.length : json.length * 3 <= limits.maxEventBytes ? 0 : utf8Length(json);
    if (bytes > limits.maxEventBytes) {
      return emitError(`event is ${bytes} bytes of JSON, over the limit of ${limits.maxEventBytes}`);
    }
    const m = isObject(meta) ? meta : {};
    const id = typeof m.id === "string" || (typeof m.id === "number" && Number.isFinite(m.id)) ? m.id : undefined;
    const name = typeof m.name === "string" ? m.name : undefined;
    const summary = typeof m.summary === "string" ? m.summary : undefined;
    const ts = typeof m.ts === "number" && Number.isFinite(m.ts) ? m.ts : undefined;
    outbox.push(json, id, name, summary, ts);
  };
}

function buildThis(component, props, limits, outbox) {
  const self = propsThis(component, props);
  self.$emit = makeEmit(limits, outbox);
  return self;
}

async function start(component, kind, event, props, limits, outbox) {
  const self = buildThis(component, props, limits, outbox);
  // a props form's question (dynamic-props.js): the event is its arguments
  if (kind === "options" || kind === "reload" || kind === "eventNames") return propsQuestion(component, kind, event, self);
  if (kind === "run") {
    // a workflow builds each step's `this` from its own props (workflow.js)
    if (component.type === "workflow") await component.run.call(self, event, props);
    else if (typeof component.run === "function") await component.run.call(self, event);
    else self.$emit(event);
    return;
  }
  const hooks = isObject(component.hooks) ? component.hooks : {};
  if (typeof hooks[kind] === "function") await hooks[kind].call(self);
}

/** The invocation entry for one component: returns at once; "done" reports the outcome and the emits. */
export function bind(component) {
  return (kind, eventJson, propsJson, limitsJson, envVersion, envJson, sync) => {
    entered(sync);
    resetInvocation(envVersion, envJson);
    const event = eventJson === undefined ? undefined : parse(eventJson);
    const limits = parse(limitsJson);
    const outbox = makeOutbox(limits);
    const running = start(component, kind, event, parse(propsJson), limits, outbox);
    then.call(
      running,
      () => tell("done", null, outbox.close()),
      (e) => tell("done", describeError(e), outbox.close()),
    );
  };
}
