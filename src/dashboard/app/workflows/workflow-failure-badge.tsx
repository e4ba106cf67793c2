import type { ErrorSummary } from "../hooks/use-error-summaries.ts";
import { href } from "../router.ts";
import { FailureBadge } from "../ui/failure-badge.tsx";
import { useNewestErrorRun } from "./newest-error-run.ts";

/** A workflow's error count in the list, opening the run of its newest error (its $errors tab until that is known). */
export function WorkflowFailureBadge({ workflowId, summary }: { workflowId: string; summary: ErrorSummary | undefined }) {
  const runId = useNewestErrorRun(workflowId, summary?.last_error.at_ms);
  return <FailureBadge summary={summary} errorsHref={runId ? href("runs", runId) : href("workflows", workflowId, "errors")} />;
}
