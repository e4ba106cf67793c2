import { useCallback, useState, type FormEvent } from "react";
import { Alert, Button, Code, Group, Paper, Stack, Switch, Text, TextInput, Title } from "@mantine/core";
import { ErrorAlert } from "../error-alert.tsx";
import { StepInput } from "./step-input.tsx";
import { TriggerInput } from "./trigger-input.tsx";
import { draftErrors, NEXT_STEP, stepDraft, triggerBody, type Draft, type DraftErrors, type StepDraft } from "./workflow-draft.ts";

interface Props {
  initial: Draft;
  submitLabel: string;
  cancelHref: string;
  /** editing: the current steps' names. The API never returns step code, so they are kept unless replaced. */
  current?: string[];
  /** POST or PUT the body; answers the API's error body, or undefined when saved */
  onSubmit: (body: Record<string, unknown>) => Promise<unknown>;
}

/** A workflow's name, trigger and ordered steps: add, remove, move up and down. */
export function WorkflowForm({ initial, submitLabel, cancelHref, current, onSubmit }: Props) {
  const [draft, setDraft] = useState(initial);
  const [replace, setReplace] = useState(!current);
  const [errors, setErrors] = useState<DraftErrors>({ step: {} });
  const [busy, setBusy] = useState(false);

  const setSteps = useCallback((f: (s: StepDraft[]) => StepDraft[]) => {
    setDraft((d) => ({ ...d, steps: f(d.steps) }));
    // indexes move: a step's problem would land on another step
    setErrors((e) => ({ ...e, step: {}, steps: undefined, form: undefined }));
  }, []);
  const change = useCallback((i: number, step: StepDraft) => setSteps((s) => s.map((x, j) => (j === i ? step : x))), [setSteps]);
  const remove = useCallback((i: number) => setSteps((s) => s.filter((_, j) => j !== i)), [setSteps]);
  const move = useCallback(
    (i: number, by: -1 | 1) =>
      setSteps((s) => {
        const next = [...s];
        [next[i], next[i + by]] = [next[i + by], next[i]];
        return next;
      }),
    [setSteps],
  );
  const add = () => setSteps((s) => [...s, stepDraft(`step_${s.length + 1}`, NEXT_STEP(s.at(-1)?.name.trim() || undefined))]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const body: Record<string, unknown> = { name: draft.name.trim(), trigger: triggerBody(draft.trigger) };
    if (replace) body.steps = draft.steps.map((s) => ({ name: s.name.trim(), code: s.code }));
    const error = await onSubmit(body);
    setBusy(false);
    setErrors(error === undefined ? { step: {} } : draftErrors(error, replace ? draft.steps : undefined));
  };

  return (
    <Stack component="form" onSubmit={submit} gap="lg" maw={900} data-testid="workflow-form">
      <Paper withBorder p="lg">
        <Stack gap="md">
          <TextInput label="Name" placeholder="Greeter" value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.currentTarget.value })} error={errors.name} required maw={420} />
          <TriggerInput value={draft.trigger} onChange={(trigger) => setDraft({ ...draft, trigger })} error={errors.trigger} />
        </Stack>
      </Paper>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-end">
          <div>
            <Title order={4}>Steps</Title>
            <Text size="sm" c="dimmed">
              Run in order, in one sandbox. Each is a module: <Code>{"export default { async run({ steps, $ }) { … } }"}</Code>
            </Text>
          </div>
          {current && <Switch label="Replace the steps" checked={replace} onChange={(e) => setReplace(e.currentTarget.checked)} />}
        </Group>
        {!replace && current && (
          <Alert variant="light" color="gray" data-testid="kept-steps">
            <Text size="sm">
              Kept as they are: <b>{current.join(" → ")}</b>. The API doesn't return step code, so to change a step, replace the steps with new code.
            </Text>
          </Alert>
        )}
        {replace && (
          <>
            {current && (
              <Alert variant="light" color="yellow" data-testid="replace-steps">
                <Text size="sm">Saving replaces every step with the code below (new step ids); the current code is not shown by the API.</Text>
              </Alert>
            )}
            {errors.steps && (
              <Text size="sm" c="red">
                {errors.steps}
              </Text>
            )}
            {draft.steps.map((s, i) => (
              <StepInput key={s.key} step={s} index={i} count={draft.steps.length} error={errors.step[i]} onChange={change} onMove={move} onRemove={remove} />
            ))}
            <Group>
              <Button variant="light" onClick={add} disabled={draft.steps.length >= 50}>
                Add a step
              </Button>
            </Group>
          </>
        )}
      </Stack>
      <ErrorAlert error={errors.form} title="Not saved" />
      <Group>
        <Button type="submit" loading={busy}>
          {submitLabel}
        </Button>
        <Button variant="default" component="a" href={cancelHref}>
          Cancel
        </Button>
      </Group>
    </Stack>
  );
}
