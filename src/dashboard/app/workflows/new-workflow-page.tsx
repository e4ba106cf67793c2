import { useState } from "react";
import { notifications } from "@mantine/notifications";
import { useSession } from "../session-context.ts";
import { href, navigate } from "../router.ts";
import { PageHeader } from "../ui/page-header.tsx";
import { WorkflowForm } from "./workflow-form.tsx";
import { newDraft } from "./workflow-draft.ts";

/** POST /v1/workflows from the form; then its page, where its runs show live. */
export function NewWorkflowPage() {
  const { api } = useSession();
  const [initial] = useState(newDraft);
  const create = async (body: Record<string, unknown>) => {
    const res = await api.POST("/v1/workflows", { body });
    if (!res.data) return res.error ?? {};
    notifications.show({ message: `${res.data.data.name} created` });
    navigate("workflows", res.data.data.id);
    return undefined;
  };
  return (
    <>
      <PageHeader title="New workflow" description="A trigger, then steps run in order: your code, or components from the registry. Every step is checked before anything is saved." />
      <WorkflowForm initial={initial} submitLabel="Create workflow" cancelHref={href("workflows")} onSubmit={create} />
    </>
  );
}
