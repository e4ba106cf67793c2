import { useState, type FormEvent } from "react";
import { Button, Group, Stack, Text, TextInput, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useSession } from "../session-context.ts";
import { messageOf, propErrors } from "../api-error.ts";
import { navigate } from "../router.ts";
import { ErrorAlert } from "../ui/error-alert.tsx";
import { PropsForm } from "./props-form.tsx";
import { collect, type PropDef } from "./prop-types.ts";
import { usePropsState } from "./use-reloaded-props.ts";

export interface Picked {
  id: string;
  name: string;
  version: string;
  configurable_props: PropDef[];
}

/** The props form of the picked component and the deploy button (POST /v1/sources/). */
export function DeployForm({ component }: { component: Picked }) {
  const { api } = useSession();
  const [name, setName] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  // a component with reloadProps props: its props as its configuration so far makes them
  const { props, values, setValue, reloadError } = usePropsState(component.id, component.configurable_props);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const { configured, errors: local } = collect(props, values);
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    setBusy(true);
    const res = await api.POST("/v1/sources/", { body: { component_id: component.id, configured_props: configured, ...(name.trim() ? { name: name.trim() } : {}) } });
    setBusy(false);
    if (!res.data) {
      setError(messageOf(res.error));
      setErrors(propErrors(res.error));
      return;
    }
    notifications.show({ color: "green", message: `Deployed ${res.data.data.name}` });
    navigate("sources", res.data.data.id);
  };

  return (
    <Stack component="form" onSubmit={submit} gap="md" data-testid="deploy-form">
      <div>
        <Title order={4}>{component.name}</Title>
        <Text size="sm" c="dimmed">
          version {component.version}
        </Text>
      </div>
      <TextInput label="Source name" description="Optional: defaults to the component's name." value={name} onChange={(e) => setName(e.currentTarget.value)} data-prop="name" />
      <PropsForm props={props} values={values} onChange={setValue} errors={errors} componentId={component.id} />
      <ErrorAlert error={reloadError} title="The props could not be reloaded" />
      <ErrorAlert error={error} title="Not deployed" />
      <Group>
        <Button type="submit" loading={busy}>
          Deploy source
        </Button>
      </Group>
    </Stack>
  );
}
