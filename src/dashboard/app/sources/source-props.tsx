import { useState, type FormEvent } from "react";
import { Button, Group, Paper, Skeleton, Stack } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useSession } from "../session-context.ts";
import { useQuery } from "../use-query.ts";
import { dataOf, messageOf, propErrors } from "../api-error.ts";
import { toastFailed } from "../toasts.ts";
import { ErrorAlert } from "../error-alert.tsx";
import { PropsForm } from "../deploy/props-form.tsx";
import { collect, initialValues, SERVER_FILLED, type FormValue, type PropDef } from "../deploy/prop-types.ts";

interface Source {
  id: string;
  component_id: string;
  configured_props: Record<string, unknown>;
}

/** Edits the configured props (PUT /v1/sources/{id}); secrets left empty keep their value. */
export function SourceProps({ source, onSaved }: { source: Source; onSaved: () => Promise<void> }) {
  const { api } = useSession();
  const component = useQuery(
    async () => dataOf(await api.GET("/v1/components/{keyOrId}", { params: { path: { keyOrId: source.component_id } } })).data.configurable_props as PropDef[],
    [api, source.component_id],
  );
  if (component.error) return <ErrorAlert error={component.error} title="Could not read the component" />;
  if (!component.data) return <Skeleton h={160} />;
  return <PropsEditor key={source.id} source={source} props={component.data} onSaved={onSaved} />;
}

function PropsEditor({ source, props, onSaved }: { source: Source; props: PropDef[]; onSaved: () => Promise<void> }) {
  const { api } = useSession();
  const [values, setValues] = useState<Record<string, FormValue>>(() => initialValues(props, source.configured_props));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const { configured, errors: local } = collect(props, values);
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    // a secret left empty is sent as it is stored (masked), which keeps it
    for (const p of props) if (p.secret && configured[p.name] === undefined && source.configured_props[p.name] !== undefined) configured[p.name] = source.configured_props[p.name];
    setBusy(true);
    const res = await api.PUT("/v1/sources/{id}", { params: { path: { id: source.id } }, body: { configured_props: configured } });
    setBusy(false);
    setError(res.data ? undefined : messageOf(res.error));
    if (!res.data) toastFailed("Save props", messageOf(res.error));
    setErrors(res.data ? {} : propErrors(res.error));
    if (res.data) {
      notifications.show({ color: "green", message: "Props saved" });
      await onSaved();
    }
  };

  return (
    <Paper withBorder p="lg" maw={720}>
      <Stack component="form" onSubmit={submit}>
        <PropsForm props={props} values={values} onChange={(n, v) => setValues((old) => ({ ...old, [n]: v }))} errors={errors} />
        <ErrorAlert error={error} title="Not saved" />
        {props.some((p) => !SERVER_FILLED.has(p.type)) && (
          <Group>
            <Button type="submit" loading={busy}>
              Save props
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
