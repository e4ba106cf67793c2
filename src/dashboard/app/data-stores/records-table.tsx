import { Box, Group, Paper, Table, Text, useMatches } from "@mantine/core";
import { useSession } from "../session-context.ts";
import { useAction } from "../hooks/use-action.ts";
import { toastDone } from "../ui/toasts.ts";
import { JsonView } from "../ui/json-view.tsx";
import { ConfirmButton } from "../ui/confirm-button.tsx";
import { ErrorAlert } from "../ui/error-alert.tsx";
import type { StoreRecord } from "./data-store.ts";
import { Expiry } from "./record-expiry.tsx";
import { RecordModal } from "./record-modal.tsx";

interface RowProps {
  storeId: string;
  record: StoreRecord;
  wide: boolean;
  onChanged: () => Promise<void>;
  onDelete: (key: string) => Promise<void>;
}

const top = { verticalAlign: "top" } as const;

function RecordRow({ storeId, record: r, wide, onChanged, onDelete }: RowProps) {
  const actions = (
    <Group gap="xs" justify={wide ? "flex-end" : "flex-start"} wrap="nowrap" mt={wide ? 0 : 6}>
      <RecordModal storeId={storeId} record={r} onSaved={onChanged} />
      <ConfirmButton label="Delete" title="Delete this record?" text={`The key ${r.key} and its value are deleted. This can't be undone.`} onConfirm={() => onDelete(r.key)} />
    </Group>
  );
  return (
    <Table.Tr data-testid="record" data-key={r.key}>
      <Table.Td maw={260} miw={wide ? undefined : 170} style={top}>
        <Text size="sm" fw={500} ff="monospace" style={{ overflowWrap: "anywhere" }}>
          {r.key}
        </Text>
        {!wide && (
          <Box mt={4}>
            <Expiry at={r.expires_at_ms} />
          </Box>
        )}
        {!wide && actions}
      </Table.Td>
      <Table.Td style={top}>
        {/* a big value scrolls in its cell rather than stretching the list */}
        <Box mah={280} style={{ overflow: "auto" }} data-testid="record-value">
          <JsonView value={r.value} openDepth={1} />
        </Box>
      </Table.Td>
      {wide && (
        <Table.Td style={top}>
          <Expiry at={r.expires_at_ms} />
        </Table.Td>
      )}
      {wide && <Table.Td style={top}>{actions}</Table.Td>}
    </Table.Tr>
  );
}

/** A store's records: key, the value as collapsible JSON, when it expires, edit and delete. */
export function RecordsTable({ storeId, records, onChanged }: { storeId: string; records: StoreRecord[]; onChanged: () => Promise<void> }) {
  const { api } = useSession();
  const { error, act } = useAction();
  // on a phone the expiry and the buttons go under the key: the value keeps the width
  const wide = useMatches({ base: false, sm: true }, { getInitialValueInEffect: false });
  const remove = (key: string) =>
    act(`Delete ${key}`, () => api.DELETE("/v1/data_stores/{id}/records/{key}", { params: { path: { id: storeId, key } } }), async () => {
      toastDone(`${key} deleted`);
      await onChanged();
    });

  return (
    <>
      {error && <ErrorAlert error={error} />}
      <Paper withBorder>
        <Table.ScrollContainer minWidth={320}>
          <Table verticalSpacing="sm" data-testid="records">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Key</Table.Th>
                <Table.Th>Value</Table.Th>
                {wide && <Table.Th>Expires</Table.Th>}
                {wide && <Table.Th />}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {records.map((r) => (
                <RecordRow key={r.key} storeId={storeId} record={r} wide={wide} onChanged={onChanged} onDelete={remove} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
    </>
  );
}
