import { Alert, Anchor, Badge, Text, Tooltip } from "@mantine/core";
import type { ErrorSummary } from "../hooks/use-error-summaries.ts";
import { ago, formatWhen } from "../time-format.ts";

// A source's or workflow's failures where it is listed or shown: a red count with the newest
// error's message, linking to where the errors are read.

export const lastText = (s: ErrorSummary) => `${s.last_error.step ? `step ${s.last_error.step}: ` : ""}${s.last_error.name}: ${s.last_error.message}`;

/** In a list row: "3 errors", the newest message under it (one line). */
export function FailureBadge({ summary, errorsHref }: { summary: ErrorSummary | undefined; errorsHref: string }) {
  if (!summary) return null;
  return (
    <Tooltip label={`${lastText(summary)} (${formatWhen(summary.last_error.at_ms)})`} multiline w={360} withinPortal>
      <Anchor href={errorsHref} underline="never" display="block" data-testid="failure-badge">
        <Badge color="red" variant="light" style={{ cursor: "pointer" }}>
          {summary.count} {summary.count === 1 ? "error" : "errors"}
        </Badge>
        <Text size="xs" c="red.8" lineClamp={1} maw={260}>
          {ago(summary.last_error.at_ms)}: {summary.last_error.message || summary.last_error.name}
        </Text>
      </Anchor>
    </Tooltip>
  );
}

/** On a detail page: the newest error, in full, above the tabs. */
export function FailureAlert({ summary, errorsHref }: { summary: ErrorSummary | undefined; errorsHref: string }) {
  if (!summary) return null;
  return (
    <Alert color="red" variant="light" mb="md" title={`${summary.count} ${summary.count === 1 ? "error" : "errors"} on $errors; the newest ${ago(summary.last_error.at_ms)}`} data-testid="failure-alert">
      <Text size="sm" style={{ overflowWrap: "anywhere" }}>
        {lastText(summary)}
      </Text>
      <Anchor href={errorsHref} size="sm">
        See the errors
      </Anchor>
    </Alert>
  );
}
