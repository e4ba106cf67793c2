import { Alert, NativeSelect, PasswordInput, Stack, Switch, Text, TextInput, Textarea } from "@mantine/core";
import { SERVER_FILLED, askable, isNote, takesExpression, type FormValue, type PropDef } from "./prop-types.ts";
import { AccountSelect, DataStoreSelect } from "./ref-selects.tsx";
import { RemoteSelect } from "./remote-select.tsx";
import { TimerInput } from "./timer-input.tsx";
import { ExpressionOr } from "./expression-or.tsx";

// Inputs for a component's configurable props, one per prop by its type. `errors` are the API's
// field problems (configured_props.<name>), shown under their input. A workflow step's props
// (`expressions`) also take `{{ steps.<name>.$return_value }}`: those inputs are free text, or
// for a prop with options, the options' select with a switch to type an expression instead.

interface Props {
  props: PropDef[];
  values: Record<string, FormValue>;
  onChange: (name: string, value: FormValue) => void;
  errors: Record<string, string>;
  expressions?: boolean;
  /** secrets already stored (a workflow step's): left empty, they keep their value */
  keptSecrets?: Set<string>;
  /** the component's id: props with options() load them from the API (else they are typed in) */
  componentId?: string;
}

/** What a prop's options are asked with: the form's values as the API takes them, and what they wait for. */
interface Remote {
  componentId: string;
  configured: Record<string, unknown>;
  waiting?: string;
}

const EXPRESSION_HINT = "Text, or {{ steps.<step>.$return_value }} (steps.trigger.event is what started the run)";

export function PropsForm({ props, values, onChange, errors, expressions, keptSecrets, componentId }: Props) {
  // a hidden prop (additionalProps() may hide or show one) is left out of the form, as Pipedream's does
  const shown = props.filter((p) => !SERVER_FILLED.has(p.type) && !p.hidden);
  const filled = props.filter((p) => SERVER_FILLED.has(p.type));
  // options usually come from the app's API: asked once its account is chosen
  const unchosen = props.find((p) => p.type === "app" && !p.optional && !values[p.name]);
  const remote: Remote | undefined = componentId
    ? { componentId, configured: askable(props, values), ...(unchosen ? { waiting: `Choose the ${unchosen.label ?? unchosen.name} account first.` } : {}) }
    : undefined;
  return (
    <Stack gap="sm" data-testid="props-form">
      {shown.length === 0 && <Text size="sm" c="dimmed">This component has nothing to configure.</Text>}
      {shown.map((p) => (
        <PropInput
          key={p.name}
          prop={p}
          value={values[p.name] ?? ""}
          onChange={(v) => onChange(p.name, v)}
          error={errors[p.name]}
          expressions={expressions === true && takesExpression(p)}
          kept={keptSecrets?.has(p.name) === true}
          remote={remote}
        />
      ))}
      {filled.length > 0 && (
        <Text size="xs" c="dimmed">
          Set up by the service: {filled.map((p) => `${p.name} (${p.type === "$.interface.http" ? "an HTTP endpoint" : p.type === "$.service.db" ? "a key-value store" : p.type})`).join(", ")}.
        </Text>
      )}
    </Stack>
  );
}

interface InputProps {
  prop: PropDef;
  value: FormValue;
  onChange: (v: FormValue) => void;
  error?: string;
  expressions: boolean;
  kept: boolean;
  remote?: Remote;
}

const ALERT_COLORS: Record<string, string> = { info: "blue", neutral: "gray", warning: "yellow", error: "red" };

function PropInput({ prop: p, value, onChange, error, expressions, kept, remote }: InputProps) {
  if (isNote(p))
    return (
      <Alert color={ALERT_COLORS[p.alertType ?? "info"] ?? "blue"} variant="light" data-prop={p.name} style={{ whiteSpace: "pre-wrap" }}>
        {p.content ?? p.description ?? ""}
      </Alert>
    );
  const common = {
    label: p.label ?? p.name,
    // the prop's own name is the API's business (configured_props.<name>): the hint is the author's
    description: p.description ?? "",
    // an app prop may be left unconnected (the API doesn't require it), so it isn't marked required
    required: !p.optional && p.default === undefined && p.type !== "boolean" && p.type !== "app" && !kept,
    error,
    "data-prop": p.name,
  };
  const text = typeof value === "string" ? value : "";
  if (p.type === "boolean") return <Switch {...common} checked={value === true} onChange={(e) => onChange(e.currentTarget.checked)} />;
  if (p.type === "app") return <AccountSelect {...common} app={p.app ?? ""} value={text} onChange={onChange} />;
  if (p.type === "data_store") return <DataStoreSelect {...common} value={text} onChange={onChange} />;
  if (p.type === "$.interface.timer") return <TimerInput {...common} value={text} onChange={onChange} />;
  const mono = { input: { fontFamily: "var(--mantine-font-family-monospace)" } };
  const typed = () => {
    const hint = p.type === "integer" ? `A whole number, or ${EXPRESSION_HINT}` : EXPRESSION_HINT;
    return <TextInput {...common} description={[common.description, hint].filter(Boolean).join(" · ")} styles={mono} value={text} onChange={(e) => onChange(e.currentTarget.value)} />;
  };
  const select = optionsSelect(p, common, text, onChange, remote);
  if (select && !expressions) return select;
  if (select)
    return (
      <ExpressionOr name={p.name} value={text} onChange={onChange} text={typed()}>
        {select}
      </ExpressionOr>
    );
  if (p.type === "string" && p.secret)
    return (
      <PasswordInput
        {...common}
        value={text}
        onChange={(e) => onChange(e.currentTarget.value)}
        placeholder={kept ? "stored: leave empty to keep it" : "secret: stored encrypted, never shown again"}
      />
    );
  if (expressions && (p.type === "string" || p.type === "integer")) return typed();
  if (p.type === "string") return <TextInput {...common} value={text} onChange={(e) => onChange(e.currentTarget.value)} />;
  if (p.type === "integer")
    return <TextInput {...common} type="number" min={p.min} max={p.max} value={text} onChange={(e) => onChange(e.currentTarget.value)} />;
  const hint = [p.type.endsWith("[]") ? "one per line" : "JSON", expressions ? "or one {{ expression }}" : ""].filter(Boolean).join(", ");
  return <Textarea {...common} description={[common.description, hint].filter(Boolean).join(" · ")} autosize minRows={2} styles={mono} value={text} onChange={(e) => onChange(e.currentTarget.value)} />;
}

type Common = { label: string; description: string; required: boolean; error?: string; "data-prop": string };

/** The select of a prop with options: its own (static), or loaded from options() (when the form knows its component). */
function optionsSelect(p: PropDef, common: Common, text: string, onChange: (v: FormValue) => void, remote?: Remote) {
  if (p.remoteOptions && remote) {
    const { [p.name]: _self, ...others } = remote.configured;
    return <RemoteSelect {...common} componentId={remote.componentId} prop={p} configured={others} waiting={remote.waiting} value={text} onChange={onChange} />;
  }
  if (!Array.isArray(p.options) || p.options.length === 0) return undefined;
  const data = p.options.map((o) => {
    const opt = o as { label?: string; value?: unknown };
    return typeof o === "object" && o !== null ? { label: String(opt.label ?? opt.value), value: String(opt.value) } : { label: String(o), value: String(o) };
  });
  return <NativeSelect {...common} data={[{ label: "—", value: "" }, ...data]} value={text} onChange={(e) => onChange(e.currentTarget.value)} />;
}
