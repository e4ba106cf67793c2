import { EmptyState } from "../empty-state.tsx";

export function DataStorePage({ id }: { id: string }) {
  return <EmptyState title="Data store" text="Not built yet." />;
}
