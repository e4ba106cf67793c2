import { useMemo, useState, type FormEvent } from "react";
import { Button, Group, Paper, Skeleton, Stack } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useSession } from "../session-context.ts";
import { useQuery } from "../hooks/use-query.ts";
import { dataOf, messageOf, propErrors } from "../api-error.ts";
import { toastFailed } from "../ui/toasts.ts";
import { ErrorAlert } from "../ui/error-alert.tsx";
import { PropsForm } from "../deploy/props-form.tsx";
import { collect, SERVER_FILLED, type PropDef } from "../deploy/prop-types.ts";
import { usePropsState } from "../deploy/use-reloaded-props.ts";
import { PropsSource } from "../deploy/props-source.ts";

interface Source {
  id: string;
  component_id: string;
  configured_props: Record<string, unknown>;
}

/** a secret as GET shows a stored one */
const MASK = "********";

/**
 * Edits the configured props (PUT /v1/sources/{id}), starting from the current ones: the same
 * form as the deploy form's (options loaded from options(), props reloaded with reloadProps).
 * Secrets show empty, and left empty keep their value.
 */
export function SourceProps({ source, onSaved }: { source: Source; onSaved: () => Promise<void> }) {
  const { api } = useSession();
  const component = useQuery(
    async () => dataOf(await api.GET("/v1/components/{keyOrId}", { params: { path: { keyOrId: source.component_id } } })).data.configurable_props as PropDef[],
    [api, source.component_id],
  );
  if (component.error) return <ErrorAlert error={component.error} title="Could not read the component" />;
  if (!component.data) return <Skeleton h={160} />;
  // its options and reloads are asked with its stored values (secrets the form never holds)
  return (
    <PropsSource.Provider value={source.id}>
      <PropsEditor key={source.id} source={source} declared={component.data} onSaved={onSaved} />
    </PropsSource.Provider>
  );
}

function PropsEditor({ source, declared, onSaved }: { source: Source; declared: PropDef[]; onSaved: () => Promise<void> }) {
  const { api } = useSession();
  const { props, values, setValue, reloadError } = usePropsState(source.component_id, declared, source.configured_props);
  const kept = useMemo(() => new Set(Object.entries(source.configured_props).filter(([, v]) => v === MASK).map(([n]) => n)), [source.configured_props]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const { configured, errors: local } = collect(props, values);
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    // a secret left empty is sent as it is stored (masked), which keeps it
    for (const p of props) if (p.secret && configured[p.name] === undefined && kept.has(p.name)) configured[p.name] = MASK;
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
      <Stack component="form" onSubmit={submit} data-testid="source-props-form">
        <PropsForm props={props} values={values} onChange={setValue} errors={errors} keptSecrets={kept} componentId={source.component_id} />
        <ErrorAlert error={reloadError} title="The props could not be reloaded" />
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
