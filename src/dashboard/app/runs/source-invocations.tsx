import { EmptyState } from "../empty-state.tsx";

export function SourceInvocations({ sourceId }: { sourceId: string }) {
  return <EmptyState title="Invocations" text="Not built yet." />;
}
