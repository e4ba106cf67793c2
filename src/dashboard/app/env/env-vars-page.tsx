import { EmptyState } from "../empty-state.tsx";

export function EnvVarsPage() {
  return <EmptyState title="Environment variables" text="Not built yet." />;
}
