// Messages between the host (RunnerProcess) and the runner process (sandbox/runner-main.ts).
// Plain JSON over the fork IPC channel.

export interface AnalyzeRequest {
  type: "analyze";
  code: string;
  /** budget for the component's own code (top level + describe), enforced inside the isolate */
  timeoutMs: number;
  memoryMb: number;
}

export type RunnerRequest = AnalyzeRequest;

export type RunnerReply =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; code: string; message: string };

export type RunnerMessage = RunnerRequest & { id: number };
