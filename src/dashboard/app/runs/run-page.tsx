import { EmptyState } from "../empty-state.tsx";

export function RunPage({ id }: { id: string }) {
  return <EmptyState title="Run" text="Not built yet." />;
}
