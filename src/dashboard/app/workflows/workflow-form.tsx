import { useCallback, useState, type FormEvent } from "react";
import { Button, Code, Group, Paper, Stack, Text, TextInput, Title } from "@mantine/core";
import { ErrorAlert } from "../ui/error-alert.tsx";
import { StepCard, type StepUpdate } from "./step-card.tsx";
import { TriggerInput } from "./trigger-input.tsx";
import { SettingsInput } from "./settings-input.tsx";
import { ActionPicker } from "./action-picker.tsx";
import { draftErrors, noErrors, type DraftErrors } from "./draft-errors.ts";
import { draftBody } from "./workflow-body.ts";
import { actionStep, codeStep, freshName, NEXT_STEP, type ActionComponent, type Draft, type StepDraft } from "./workflow-draft.ts";

const MAX_STEPS = 50;

interface Props {
  initial: Draft;
  submitLabel: string;
  cancelHref: string;
  /** POST or PUT the body; answers the API's error body, or undefined when saved */
  onSubmit: (body: Record<string, unknown>) => Promise<unknown>;
}

/** A workflow's name, trigger, ordered steps (code or actions: add, rename, remove, reorder) and settings. */
export function WorkflowForm({ initial, submitLabel, cancelHref, onSubmit }: Props) {
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<DraftErrors>(noErrors);
  const [busy, setBusy] = useState(false);

  // a change that moves steps: problems are kept by index, so they would land on another step
  const reshape = useCallback((f: (s: StepDraft[]) => StepDraft[]) => {
    setDraft((d) => ({ ...d, steps: f(d.steps) }));
    setErrors((e) => ({ ...e, step: {}, steps: undefined, form: undefined }));
  }, []);
  const update: StepUpdate = useCallback((i, change) => {
    setDraft((d) => ({ ...d, steps: d.steps.map((s, j) => (j === i ? change(s) : s)) }));
    // the step being fixed loses its marks; the others keep theirs until saved again
    setErrors((e) => {
      if (!e.step[i]) return e;
      const step = { ...e.step };
      delete step[i];
      return { ...e, step };
    });
  }, []);
  const remove = useCallback((i: number) => reshape((s) => s.filter((_, j) => j !== i)), [reshape]);
  const move = useCallback(
    (i: number, by: -1 | 1) =>
      reshape((s) => {
        const next = [...s];
        [next[i], next[i + by]] = [next[i + by], next[i]];
        return next;
      }),
    [reshape],
  );
  const addCode = () => reshape((s) => [...s, codeStep(freshName(`step_${s.length + 1}`, s), NEXT_STEP(s.at(-1)?.name.trim() || undefined))]);
  const addAction = (c: ActionComponent) => reshape((s) => [...s, actionStep(freshName(c.name, s), { component_id: c.id }, c)]);

  const setTrigger = (trigger: Draft["trigger"]) => setDraft((d) => ({ ...d, trigger }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const { body, errors: local } = draftBody(draft);
    if (local) return setErrors(local);
    setBusy(true);
    const error = await onSubmit(body);
    setBusy(false);
    setErrors(error === undefined ? noErrors() : draftErrors(error, draft.steps));
  };

  return (
    <Stack component="form" onSubmit={submit} gap="lg" maw={900} data-testid="workflow-form">
      <Paper withBorder p="lg">
        <Stack gap="md">
          <TextInput label="Name" placeholder="Greeter" value={draft.name} onChange={(e) => {
              const name = e.currentTarget.value;
              setDraft((d) => ({ ...d, name }));
            }} error={errors.name} required maw={420} />
          <TriggerInput value={draft.trigger} onChange={setTrigger} error={errors.trigger} />
        </Stack>
      </Paper>
      <Stack gap="sm">
        <div>
          <Title order={4}>Steps</Title>
          <Text size="sm" c="dimmed">
            Run in order, in one sandbox. A code step is a module: <Code>{"export default { async run({ steps, $ }) { … } }"}</Code>; an action step runs a
            component with props.
          </Text>
        </div>
        {errors.steps && (
          <Text size="sm" c="red">
            {errors.steps}
          </Text>
        )}
        {draft.steps.map((s, i) => (
          <StepCard key={s.key} step={s} index={i} count={draft.steps.length} error={errors.step[i]} onUpdate={update} onMove={move} onRemove={remove} />
        ))}
        <Group gap="sm">
          <Button variant="light" onClick={addCode} disabled={draft.steps.length >= MAX_STEPS}>
            Add a code step
          </Button>
          <ActionPicker onPick={addAction} disabled={draft.steps.length >= MAX_STEPS} />
        </Group>
      </Stack>
      <SettingsInput
        trigger={draft.trigger}
        onTrigger={setTrigger}
        value={draft.settings}
        onChange={(settings) => setDraft((d) => ({ ...d, settings }))}
        errors={errors.settings}
      />
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
