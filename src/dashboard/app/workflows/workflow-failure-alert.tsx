import { useState } from "react";
import { Alert, Anchor, Group, Text } from "@mantine/core";
import type { ErrorSummary } from "../hooks/use-error-summaries.ts";
import { href } from "../router.ts";
import { ago } from "../time-format.ts";
import { lastText } from "../ui/failure-badge.tsx";
import { useNewestErrorRun, useSucceededSince } from "./newest-error-run.ts";

// A workflow's newest error above its tabs, linking to the run that failed (where it is fixed).
// It goes away once a run started after the error succeeded (the fix worked), or when dismissed:
// a dismissal is remembered per workflow, in this browser, until a newer error comes.

const dismissedKey = (workflowId: string) => `tributary:errors-dismissed:${workflowId}`;

function dismissedUpTo(workflowId: string): number {
  try {
    return Number(localStorage.getItem(dismissedKey(workflowId)) ?? 0) || 0;
  } catch {
    return 0; // storage refused (a private window's policy): nothing was dismissed
  }
}

export function WorkflowFailureAlert({ workflowId, summary }: { workflowId: string; summary: ErrorSummary | undefined }) {
  const atMs = summary?.last_error.at_ms;
  const runId = useNewestErrorRun(workflowId, atMs);
  const fixed = useSucceededSince(workflowId, atMs);
  const [dismissed, setDismissed] = useState(() => dismissedUpTo(workflowId));
  if (!summary || atMs === undefined || fixed || atMs <= dismissed) return null;

  const dismiss = () => {
    try {
      localStorage.setItem(dismissedKey(workflowId), String(atMs));
    } catch {
      // not remembered: it is dismissed for this page only
    }
    setDismissed(atMs);
  };
  const n = summary.count;
  return (
    <Alert
      color="red"
      variant="light"
      mb="md"
      withCloseButton
      closeButtonLabel="Dismiss"
      onClose={dismiss}
      title={`${n} ${n === 1 ? "error" : "errors"} on $errors; the newest ${ago(atMs)}`}
      data-testid="failure-alert"
    >
      <Text size="sm" style={{ overflowWrap: "anywhere" }}>
        {lastText(summary)}
      </Text>
      <Group gap="md" mt={4}>
        {runId && (
          <Anchor href={href("runs", runId)} size="sm" fw={600} data-testid="failure-run-link">
            Open the failed run
          </Anchor>
        )}
        <Anchor href={href("workflows", workflowId, "errors")} size="sm">
          See the errors
        </Anchor>
      </Group>
    </Alert>
  );
}
