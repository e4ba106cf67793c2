import { EmptyState } from "../empty-state.tsx";

export function WorkflowRuns({ workflowId }: { workflowId: string }) {
  return <EmptyState title="Runs" text="Not built yet." />;
}
