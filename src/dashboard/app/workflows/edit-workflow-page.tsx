import { useEffect, useState } from "react";
import { Box, Skeleton } from "@mantine/core";
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
import { TestRunPicker } from "./test-run-picker.tsx";
import { StepTestContext } from "./step-test-context.ts";

const HEADER_PX = 56;

/** Brings the named step into view once the form shows it (the run page's "Edit step"). */
function useScrollToStep(step: string | undefined) {
  useEffect(() => {
    if (!step) return;
    const card = document.querySelector(`[data-testid="step"][data-step-name="${CSS.escape(step)}"]`);
    // below the app's fixed header, which would cover the step's name
    if (card) window.scrollTo({ top: card.getBoundingClientRect().top + window.scrollY - HEADER_PX - 16 });
  }, [step]);
}

/** PUT /v1/workflows/{id}: the saved name, trigger, steps (their code and props) and settings, edited; `active` is kept. */
export function EditWorkflowPage({ id, step, fromRun }: { id: string; step?: string; fromRun?: string }) {
  const { api } = useSession();
  const [testRun, setTestRun] = useState(fromRun);
  const wf = useQuery(async () => {
    const w = dataOf(await api.GET("/v1/workflows/{id}", { params: { path: { id } } })).data;
    return { w, draft: await loadDraft(api, w) };
  }, [api, id]);
  useScrollToStep(wf.data ? step : undefined);

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
      <Box mb="md">
        <TestRunPicker workflowId={id} value={testRun} onChange={setTestRun} />
      </Box>
      <StepTestContext value={{ workflowId: id, runId: testRun }}>
        <WorkflowForm initial={draft} submitLabel="Save changes" cancelHref={href("workflows", id)} onSubmit={save} />
      </StepTestContext>
    </>
  );
}
