// The ComponentAnalyzer core uses: one runner process, started on first use, describing each
// component in a fresh isolate.
import { AppError } from "../lib/errors.ts";
import { RunnerProcess } from "./runner-process.ts";
import type { ComponentAnalyzer, ComponentMeta } from "./types.ts";

export interface AnalyzerOptions {
  /** time budget for a component's top level plus its description (default 5000) */
  timeoutMs?: number;
  /** isolate memory limit (default 128, a run's memory limit: docs/writing-components.md, "Limits") */
  memoryMb?: number;
  /** host-side allowance on top of timeoutMs before the runner counts as stuck (default 20 s) */
  hostGraceMs?: number;
  /** the runner's entry file; tests substitute a fake runner */
  entry?: string;
  /** an analyzer runner with no save to check for this long is stopped (default 30 s) */
  idleMs?: number;
}

export interface Analyzer extends ComponentAnalyzer {
  /** runner processes started so far (a stuck one is replaced, an idle one stopped) */
  readonly runnersStarted: number;
  /** whether its runner process is up now */
  readonly running: boolean;
}

// On top of the in-isolate budget: runner start-up, isolate creation and compiling. The host
// deadline only fires when the runner itself is stuck, so it is generous: on a loaded machine
// (a test suite, a busy host) starting the runner alone has taken over 5 s.
const HOST_GRACE_MS = 20_000;
const IDLE_MS = 30_000;

export function createAnalyzer(opts: AnalyzerOptions = {}): Analyzer {
  const timeoutMs = opts.timeoutMs ?? 5000;
  const memoryMb = opts.memoryMb ?? 128;
  // Saves come now and then; a runner kept between them would hold ~90 MiB for nothing. Starting
  // one again costs a save ~0.1-0.2 s.
  const runner = new RunnerProcess({ entry: opts.entry, idleMs: opts.idleMs ?? IDLE_MS });
  return {
    get runnersStarted() {
      return runner.started;
    },
    get running() {
      return runner.running;
    },
    analyze(code: string): Promise<ComponentMeta> {
      return runner.request<ComponentMeta>(
        { type: "analyze", code, timeoutMs, memoryMb },
        {
          deadlineMs: timeoutMs + (opts.hostGraceMs ?? HOST_GRACE_MS),
          onTimeout: () => new AppError("invalid_component", `component evaluation timed out (limit ${timeoutMs} ms)`),
          onCrash: () => new AppError("invalid_component", "component crashed the sandbox while evaluating"),
          // Seen here: about one young runner in 300 blocks for good inside isolated-vm's Isolate
          // constructor, before any component code; a fresh runner then answers at once.
          retryUnstarted: true,
        },
      );
    },
    close: () => runner.close(),
  };
}
