import { Badge, Code, Group, Paper, Table, Text, useMatches } from "@mantine/core";
import { useSession } from "../session-context.ts";
import { useAction } from "../hooks/use-action.ts";
import { toastDone } from "../ui/toasts.ts";
import { ConfirmButton } from "../ui/confirm-button.tsx";
import { ErrorAlert } from "../ui/error-alert.tsx";
import { formatSeconds } from "../time-format.ts";
import { CopyValue } from "../ui/copy-value.tsx";
import { EditEnvVar } from "./edit-env-var.tsx";
import type { EnvVar } from "./env-var.ts";

function ValueCell({ envVar: v }: { envVar: EnvVar }) {
  // a secret has no value here at all: the API leaves it out of every answer
  if (v.secret || v.value === undefined)
    return (
      <Badge variant="light" color="grape" data-testid="secret">
        secret
      </Badge>
    );
  if (v.value === "")
    return (
      <Text size="sm" c="dimmed" fs="italic">
        empty
      </Text>
    );
  return (
    <Group gap={4} wrap="nowrap" align="flex-start">
      <Code style={{ overflowWrap: "anywhere", whiteSpace: "pre-wrap", maxHeight: 120, overflow: "auto" }} data-testid="env-value">
        {v.value}
      </Code>
      <CopyValue value={v.value} label={`Copy the value of ${v.name}`} />
    </Group>
  );
}

interface RowProps {
  envVar: EnvVar;
  wide: boolean;
  onChanged: () => Promise<void>;
  onDelete: (name: string) => Promise<void>;
}

function EnvVarRow({ envVar: v, wide, onChanged, onDelete }: RowProps) {
  const updated = (
    <Text size="xs" c="dimmed" style={{ whiteSpace: "nowrap" }}>
      {formatSeconds(v.updated_at)}
    </Text>
  );
  const actions = (
    <Group gap="xs" justify={wide ? "flex-end" : "flex-start"} wrap="nowrap" mt={wide ? 0 : 6}>
      <EditEnvVar envVar={v} onSaved={onChanged} />
      <ConfirmButton label="Delete" title={`Delete ${v.name}?`} text={`Runs that start after this no longer have process.env.${v.name}. This can't be undone.`} onConfirm={() => onDelete(v.name)} />
    </Group>
  );
  return (
    <Table.Tr data-testid="env-var" data-name={v.name}>
      <Table.Td style={{ verticalAlign: "top" }}>
        <Text size="sm" fw={500} ff="monospace" style={{ overflowWrap: "anywhere" }}>
          {v.name}
        </Text>
        {!wide && updated}
        {!wide && actions}
      </Table.Td>
      <Table.Td maw={420} style={{ verticalAlign: "top" }}>
        <ValueCell envVar={v} />
      </Table.Td>
      {wide && <Table.Td>{updated}</Table.Td>}
      {wide && <Table.Td>{actions}</Table.Td>}
    </Table.Tr>
  );
}

/** The caller's variables: name, the value (or "secret"), when it last changed, edit and delete. */
export function EnvVarsTable({ vars, onChanged }: { vars: EnvVar[]; onChanged: () => Promise<void> }) {
  const { api } = useSession();
  const { error, act } = useAction();
  // on a phone the time and the buttons go under the name: the value keeps the width
  const wide = useMatches({ base: false, sm: true }, { getInitialValueInEffect: false });
  const remove = (name: string) =>
    act(`Delete ${name}`, () => api.DELETE("/v1/users/me/env/{name}", { params: { path: { name } } }), async () => {
      toastDone(`${name} deleted`);
      await onChanged();
    });

  return (
    <>
      {error && <ErrorAlert error={error} />}
      <Paper withBorder>
        <Table.ScrollContainer minWidth={320}>
          <Table verticalSpacing="sm" data-testid="env-vars">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Value</Table.Th>
                {wide && <Table.Th>Updated</Table.Th>}
                {wide && <Table.Th />}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {vars.map((v) => (
                <EnvVarRow key={v.name} envVar={v} wide={wide} onChanged={onChanged} onDelete={remove} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
    </>
  );
}
