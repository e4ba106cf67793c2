import { Skeleton } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useSession } from "../session-context.ts";
import { useQuery } from "../hooks/use-query.ts";
import { ApiError, dataOf, isNotFound } from "../api-error.ts";
import { href, navigate } from "../router.ts";
import { PageHeader } from "../ui/page-header.tsx";
import { ErrorAlert } from "../ui/error-alert.tsx";
import { EmptyState } from "../ui/empty-state.tsx";
import { WorkflowForm } from "./workflow-form.tsx";
import { loadDraft } from "./load-draft.ts";

/** PUT /v1/workflows/{id}: the saved name, trigger, steps (their code and props) and settings, edited; `active` is kept. */
export function EditWorkflowPage({ id }: { id: string }) {
  const { api } = useSession();
  const wf = useQuery(async () => {
    const w = dataOf(await api.GET("/v1/workflows/{id}", { params: { path: { id } } })).data;
    return { w, draft: await loadDraft(api, w) };
  }, [api, id]);

  if (wf.error) {
    if (wf.error instanceof ApiError && isNotFound(wf.error.body))
      return <EmptyState title="Workflow not found" text={`There is no workflow ${id} among yours.`} action={{ label: "Back to workflows", href: href("workflows") }} />;
    return <ErrorAlert error={wf.error} title="Could not read the workflow" />;
  }
  if (!wf.data) return <Skeleton h={200} />;
  const { w, draft } = wf.data;

  const save = async (body: Record<string, unknown>) => {
    // PUT reads an omitted `active` as true: send the current one
    const res = await api.PUT("/v1/workflows/{id}", { params: { path: { id } }, body: { ...body, active: w.active } });
    if (!res.data) return res.error ?? {};
    notifications.show({ message: `${res.data.data.name} saved` });
    navigate("workflows", id);
    return undefined;
  };
  return (
    <>
      <PageHeader title={`Edit ${w.name}`} description={<span style={{ fontFamily: "var(--mantine-font-family-monospace)" }}>{w.id}</span>} />
      <WorkflowForm initial={draft} submitLabel="Save changes" cancelHref={href("workflows", id)} onSubmit={save} />
    </>
  );
}
