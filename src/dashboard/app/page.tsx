import { SourcesPage } from "./sources/sources-page.tsx";
import { SourcePage } from "./sources/source-page.tsx";
import { DeployPage } from "./deploy/deploy-page.tsx";
import { WorkflowsPage } from "./workflows/workflows-page.tsx";
import { WorkflowPage } from "./workflows/workflow-page.tsx";
import { NewWorkflowPage } from "./workflows/new-workflow-page.tsx";
import { EditWorkflowPage } from "./workflows/edit-workflow-page.tsx";
import { SubscriptionsPage } from "./subscriptions/subscriptions-page.tsx";
import { WebhooksPage } from "./webhooks/webhooks-page.tsx";
import { WebhookPage } from "./webhooks/webhook-page.tsx";
import { AccountsPage } from "./accounts/accounts-page.tsx";
import { UsagePage } from "./usage-page.tsx";
import { UsersPage } from "./users-page.tsx";
import { EmptyState } from "./ui/empty-state.tsx";
import { RunPage } from "./runs/run-page.tsx";
import { EnvVarsPage } from "./env/env-vars-page.tsx";
import { DataStoresPage } from "./data-stores/data-stores-page.tsx";
import { DataStorePage } from "./data-stores/data-store-page.tsx";

/** The page for a hash route; `key` remounts a page when its id changes. */
export function Page({ route }: { route: string[] }) {
  const [section = "sources", id, tab, ...rest] = route;
  switch (section) {
    case "sources":
      return id ? <SourcePage key={id} id={id} tab={tab ?? "events"} /> : <SourcesPage />;
    case "deploy":
      return <DeployPage initialKey={id} />;
    case "workflows":
      if (id === "new") return <NewWorkflowPage />;
      // #/workflows/p_…/edit/<step>/<r_…>: opened at a step, testing against the run it came from
      if (id && tab === "edit") return <EditWorkflowPage key={id} id={id} step={rest[0]} fromRun={rest[1]} />;
      return id ? <WorkflowPage key={id} id={id} tab={tab ?? "runs"} /> : <WorkflowsPage />;
    case "runs":
      return id ? <RunPage key={id} id={id} /> : <EmptyState title="No run named" text="Open a run from its workflow's Runs tab." action={{ label: "Go to workflows", href: "#/workflows" }} />;
    case "env":
      return <EnvVarsPage />;
    case "data-stores":
      return id ? <DataStorePage key={id} id={id} /> : <DataStoresPage />;
    case "subscriptions":
      return <SubscriptionsPage />;
    case "webhooks":
      return id ? <WebhookPage key={id} id={id} /> : <WebhooksPage />;
    case "accounts":
      return <AccountsPage />;
    case "usage":
      return <UsagePage />;
    case "users":
      return <UsersPage />;
    default:
      return <EmptyState title="No such page" text="This address is not a page of the dashboard." action={{ label: "Go to sources", href: "#/sources" }} />;
  }
}
