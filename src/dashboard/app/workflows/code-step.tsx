import { useState } from "react";
import { Anchor, Textarea } from "@mantine/core";
import { CodeEditor } from "../code-editor/code-editor.tsx";
import type { StepErrors } from "./draft-errors.ts";
import type { StepUpdate } from "./step-card.tsx";
import type { CodeStep } from "./workflow-draft.ts";

interface Props {
  step: CodeStep;
  /** the step's name, or its place when it has none yet */
  label: string;
  index: number;
  error?: StepErrors;
  onUpdate: StepUpdate;
}

const propsMessage = (props: Record<string, string> | undefined) =>
  props && Object.keys(props).length > 0
    ? Object.entries(props)
        .map(([name, m]) => (name ? `${name}: ${m}` : m))
        .join("\n")
    : undefined;

/** A step's own module, and the values of the props it declares (JSON: the form can't know them before the code is saved). */
export function CodeStepBody({ step, label, index, error, onUpdate }: Props) {
  const [propsOpen, setPropsOpen] = useState(step.props.trim() !== "");
  const propsError = propsMessage(error?.props);
  const set = (patch: Partial<Pick<CodeStep, "code" | "props">>) => onUpdate(index, (s) => (s.kind === "code" ? { ...s, ...patch } : s));
  return (
    <>
      <CodeEditor
        label="Code"
        ariaLabel={`Code of ${label}`}
        description="Tab indents; Esc then Tab leaves the editor."
        value={step.code}
        onChange={(code) => set({ code })}
        error={error?.code}
        placeholder="export default { async run({ steps, $ }) { … } }"
        minLines={6}
        data-testid="step-code"
      />
      {propsOpen || propsError ? (
        <Textarea
          label="Props (JSON)"
          aria-label={`Props of ${label}`}
          description='Values for the props the code declares; strings may hold {{ expressions }}, e.g. {"qty": "{{ steps.order.$return_value.qty }}"}'
          value={step.props}
          onChange={(e) => set({ props: e.currentTarget.value })}
          error={propsError}
          autosize
          minRows={2}
          maxRows={12}
          spellCheck={false}
          styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)", fontSize: 13 }, error: { whiteSpace: "pre-wrap" } }}
        />
      ) : (
        <Anchor component="button" type="button" size="xs" onClick={() => setPropsOpen(true)} w="fit-content">
          Give its props values…
        </Anchor>
      )}
    </>
  );
}
