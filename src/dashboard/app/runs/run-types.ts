import type { paths } from "../../../client/index.ts";

// The run shapes the API answers (from the generated client), and readers for the parts it types
// as `unknown`: a step's logs and error, and values the API truncated.

export type Run = paths["/v1/runs/{run_id}"]["get"]["responses"][200]["content"]["application/json"]["data"];
/** what a live run waits for ($.flow.delay / suspend / rerun, a retry, room to start), until when */
export type Waiting = NonNullable<Run["waiting"]>;
export type RunStatus = Run["status"];
export type RunStep = NonNullable<Run["steps"]>[number];
export type StepStatus = RunStep["status"];
export type RunSend = RunStep["sends"][number];

export const RUN_STATUSES: readonly RunStatus[] = ["running", "suspended", "succeeded", "failed", "exited", "cancelled"];

export const isLive = (status: RunStatus): boolean => status === "running" || status === "suspended";

/** A value over the API's preview bound, unless asked for with `expand`. */
export interface Truncated {
  $truncated: true;
  bytes: number;
  preview: string;
}

export const isTruncated = (v: unknown): v is Truncated => typeof v === "object" && v !== null && (v as { $truncated?: unknown }).$truncated === true;

export interface LogLine {
  level: string;
  msg: string;
  ts: number | null;
}

/** Console lines, as steps and `$logs` events carry them; anything malformed is shown as text. */
export function logLines(raw: unknown): LogLine[] {
  if (!Array.isArray(raw)) return [];
  return raw.map((l: unknown) => {
    const o = (typeof l === "object" && l !== null ? l : {}) as { level?: unknown; msg?: unknown; ts?: unknown };
    return {
      level: typeof o.level === "string" ? o.level : "log",
      msg: typeof o.msg === "string" ? o.msg : JSON.stringify(l),
      ts: typeof o.ts === "number" ? o.ts : null,
    };
  });
}

export interface ErrorInfo {
  name: string;
  message: string;
  stack: string | null;
}

export function errorInfo(raw: unknown): ErrorInfo | undefined {
  if (typeof raw !== "object" || raw === null) return undefined;
  const o = raw as { name?: unknown; message?: unknown; stack?: unknown };
  return {
    name: typeof o.name === "string" ? o.name : "Error",
    message: typeof o.message === "string" ? o.message : JSON.stringify(raw),
    stack: typeof o.stack === "string" ? o.stack : null,
  };
}
