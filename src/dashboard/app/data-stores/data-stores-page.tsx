import { EmptyState } from "../empty-state.tsx";

export function DataStoresPage() {
  return <EmptyState title="Data stores" text="Not built yet." />;
}
