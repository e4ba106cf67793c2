import { useMemo } from "react";
import { Alert, Code, Text } from "@mantine/core";
import { PropsForm } from "../deploy/props-form.tsx";
import { initialValues, type FormValue, type PropDef } from "../deploy/prop-types.ts";
import { useReloadedProps } from "../deploy/use-reloaded-props.ts";
import { ErrorAlert } from "../ui/error-alert.tsx";
import type { StepErrors } from "./draft-errors.ts";
import type { StepUpdate } from "./step-card.tsx";
import type { ActionStep } from "./workflow-draft.ts";

interface Props {
  step: ActionStep;
  index: number;
  error?: StepErrors;
  onUpdate: StepUpdate;
}

const isSecretShown = (v: unknown) => typeof v === "object" && v !== null && (v as { secret?: unknown }).secret === true;

/**
 * An action step: the component it runs, and its props form (values may be {{ expressions }} of
 * earlier steps). Its options are asked of the component it runs (a registry one or a saved one:
 * its id); a reloadProps prop's change reloads its props into the draft, the ones added starting
 * from the step's saved values.
 */
export function ActionStepBody({ step, index, error, onUpdate }: Props) {
  const c = step.component;
  const kept = useMemo(() => new Set(Object.entries(step.saved).filter(([, v]) => isSecretShown(v)).map(([n]) => n)), [step.saved]);
  const where = "key" in step.ref ? <>the registry&apos;s <Code>{step.ref.key}</Code></> : <Code>{step.ref.component_id}</Code>;
  const propErrors = Object.fromEntries(Object.entries(error?.props ?? {}).filter(([n]) => n !== ""));
  const change = (name: string, v: FormValue) => onUpdate(index, (s) => (s.kind === "action" ? { ...s, values: { ...s.values, [name]: v } } : s));
  const reloaded = (props: PropDef[]) =>
    onUpdate(index, (s) =>
      s.kind === "action" && s.component ? { ...s, component: { ...s.component, configurable_props: props }, values: { ...initialValues(props, s.saved, true), ...s.values } } : s,
    );
  const reloadError = useReloadedProps(c?.id, c?.configurable_props ?? [], step.values, reloaded);
  return (
    <>
      <Text size="sm" c="dimmed">
        Runs {c ? <b>{c.name}</b> : "the component"} {c?.version && `v${c.version}`} ({where}); what its run() returns is this step&apos;s $return_value.
      </Text>
      {error?.code && (
        <Text size="sm" c="red" style={{ whiteSpace: "pre-wrap" }} data-testid="step-error">
          {error.code}
        </Text>
      )}
      {error?.props?.[""] && (
        <Text size="sm" c="red">
          {error.props[""]}
        </Text>
      )}
      {c ? (
        <>
          <PropsForm props={c.configurable_props} values={step.values} onChange={change} errors={propErrors} expressions keptSecrets={kept} componentId={c.id} />
          <ErrorAlert error={reloadError} title="The props could not be reloaded" />
        </>
      ) : (
        <Alert color="yellow" variant="light">
          Its component could not be read, so its props can&apos;t be edited here: they are saved as they are.
        </Alert>
      )}
    </>
  );
}
