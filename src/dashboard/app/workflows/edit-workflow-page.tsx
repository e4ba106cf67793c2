import { Skeleton } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useSession } from "../session-context.ts";
import { useQuery } from "../use-query.ts";
import { ApiError, dataOf, isNotFound } from "../api-error.ts";
import { href, navigate } from "../router.ts";
import { PageHeader } from "../page-header.tsx";
import { ErrorAlert } from "../error-alert.tsx";
import { EmptyState } from "../empty-state.tsx";
import { WorkflowForm } from "./workflow-form.tsx";
import { stepDraft, triggerDraft, NEXT_STEP } from "./workflow-draft.ts";

/** PUT /v1/workflows/{id}: name and trigger, and the steps when they are replaced; `active` is kept. */
export function EditWorkflowPage({ id }: { id: string }) {
  const { api } = useSession();
  const wf = useQuery(async () => dataOf(await api.GET("/v1/workflows/{id}", { params: { path: { id } } })).data, [api, id]);

  if (wf.error) {
    if (wf.error instanceof ApiError && isNotFound(wf.error.body))
      return <EmptyState title="Workflow not found" text={`There is no workflow ${id} among yours.`} action={{ label: "Back to workflows", href: href("workflows") }} />;
    return <ErrorAlert error={wf.error} title="Could not read the workflow" />;
  }
  const w = wf.data;
  if (!w) return <Skeleton h={200} />;

  const save = async (body: Record<string, unknown>) => {
    // PUT reads an omitted `active` as true: send the current one
    const res = await api.PUT("/v1/workflows/{id}", { params: { path: { id } }, body: { ...body, active: w.active } });
    if (!res.data) return res.error ?? {};
    notifications.show({ message: `${res.data.data.name} saved` });
    navigate("workflows", id);
    return undefined;
  };
  const initial = {
    name: w.name,
    trigger: triggerDraft(w.trigger),
    steps: w.steps.map((s, i) => stepDraft(s.name, NEXT_STEP(w.steps[i - 1]?.name))),
  };
  return (
    <>
      <PageHeader title={`Edit ${w.name}`} description={<span style={{ fontFamily: "var(--mantine-font-family-monospace)" }}>{w.id}</span>} />
      <WorkflowForm initial={initial} current={w.steps.map((s) => s.name)} submitLabel="Save changes" cancelHref={href("workflows", id)} onSubmit={save} />
    </>
  );
}
