import { Group, NativeSelect, PasswordInput, SegmentedControl, Stack, Switch, Text, TextInput, Textarea } from "@mantine/core";
import { useSession } from "../session-context.ts";
import { useQuery } from "../use-query.ts";
import { SERVER_FILLED, type FormValue, type PropDef, type TimerValue } from "./prop-types.ts";

// Inputs for a component's configurable props, one per prop by its type. `errors` are the API's
// field problems (configured_props.<name>), shown under their input.

interface Props {
  props: PropDef[];
  values: Record<string, FormValue>;
  onChange: (name: string, value: FormValue) => void;
  errors: Record<string, string>;
}

export function PropsForm({ props, values, onChange, errors }: Props) {
  const shown = props.filter((p) => !SERVER_FILLED.has(p.type));
  const filled = props.filter((p) => SERVER_FILLED.has(p.type));
  return (
    <Stack gap="sm" data-testid="props-form">
      {shown.length === 0 && <Text size="sm" c="dimmed">This component has nothing to configure.</Text>}
      {shown.map((p) => (
        <PropInput key={p.name} prop={p} value={values[p.name] ?? ""} onChange={(v) => onChange(p.name, v)} error={errors[p.name]} />
      ))}
      {filled.length > 0 && (
        <Text size="xs" c="dimmed">
          Set up by the service: {filled.map((p) => `${p.name} (${p.type === "$.interface.http" ? "an HTTP endpoint" : p.type === "$.service.db" ? "a key-value store" : p.type})`).join(", ")}.
        </Text>
      )}
    </Stack>
  );
}

function PropInput({ prop: p, value, onChange, error }: { prop: PropDef; value: FormValue; onChange: (v: FormValue) => void; error?: string }) {
  const common = {
    label: p.label ?? p.name,
    description: [p.description, p.label && p.label !== p.name ? `(${p.name})` : ""].filter(Boolean).join(" "),
    required: !p.optional && p.default === undefined && p.type !== "boolean",
    error,
    "data-prop": p.name,
  };
  const text = typeof value === "string" ? value : "";
  if (p.type === "boolean") return <Switch {...common} checked={value === true} onChange={(e) => onChange(e.currentTarget.checked)} />;
  if (p.type === "app") return <AccountSelect {...common} app={p.app ?? ""} value={text} onChange={onChange} />;
  if (p.type === "$.interface.timer") return <TimerInput {...common} value={text} onChange={onChange} />;
  if (Array.isArray(p.options) && p.options.length > 0) {
    const data = p.options.map((o) => {
      const opt = o as { label?: string; value?: unknown };
      return typeof o === "object" && o !== null ? { label: String(opt.label ?? opt.value), value: String(opt.value) } : { label: String(o), value: String(o) };
    });
    return <NativeSelect {...common} data={[{ label: "—", value: "" }, ...data]} value={text} onChange={(e) => onChange(e.currentTarget.value)} />;
  }
  if (p.type === "string" && p.secret)
    return <PasswordInput {...common} value={text} onChange={(e) => onChange(e.currentTarget.value)} placeholder="secret: stored encrypted, never shown again" />;
  if (p.type === "string") return <TextInput {...common} value={text} onChange={(e) => onChange(e.currentTarget.value)} />;
  if (p.type === "integer")
    return <TextInput {...common} type="number" min={p.min} max={p.max} value={text} onChange={(e) => onChange(e.currentTarget.value)} />;
  const hint = p.type.endsWith("[]") ? "one per line" : "JSON";
  return <Textarea {...common} description={[common.description, hint].filter(Boolean).join(" · ")} autosize minRows={2} ff="monospace" value={text} onChange={(e) => onChange(e.currentTarget.value)} />;
}

function TimerInput({ value, onChange, ...common }: { value: string; onChange: (v: FormValue) => void; label: string; description: string; error?: string }) {
  const t: TimerValue = value ? (JSON.parse(value) as TimerValue) : { mode: "interval", seconds: "60", cron: "" };
  const set = (patch: Partial<TimerValue>) => onChange(JSON.stringify({ ...t, ...patch }));
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        {common.label}
      </Text>
      {common.description && <Text size="xs" c="dimmed">{common.description}</Text>}
      <Group gap="sm" align="flex-start">
        <SegmentedControl size="xs" value={t.mode} onChange={(m) => set({ mode: m as TimerValue["mode"] })} data={[{ label: "Every N seconds", value: "interval" }, { label: "Cron (UTC)", value: "cron" }]} />
        {t.mode === "interval" ? (
          <TextInput size="xs" type="number" min={1} value={t.seconds} onChange={(e) => set({ seconds: e.currentTarget.value })} aria-label="seconds" rightSection={<Text size="xs">s</Text>} w={140} />
        ) : (
          <TextInput size="xs" value={t.cron} onChange={(e) => set({ cron: e.currentTarget.value })} placeholder="*/5 * * * *" aria-label="cron" w={180} ff="monospace" />
        )}
      </Group>
      {common.error && <Text size="xs" c="red">{common.error}</Text>}
    </Stack>
  );
}

function AccountSelect({ app, value, onChange, ...common }: { app: string; value: string; onChange: (v: FormValue) => void; label: string; description: string; error?: string; required: boolean }) {
  const { api } = useSession();
  const accounts = useQuery(async () => (await api.GET("/v1/users/me/accounts", { params: { query: { limit: 100 } } })).data?.data ?? [], [api]);
  const mine = (accounts.data ?? []).filter((a) => !app || a.app === app);
  const description = mine.length === 0 && !accounts.loading ? `No ${app} account connected yet: add one under Accounts.` : common.description;
  return (
    <NativeSelect
      {...common}
      description={description}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      data={[{ label: "— choose an account —", value: "" }, ...mine.map((a) => ({ label: `${a.name} (${a.id})`, value: a.id }))]}
    />
  );
}
