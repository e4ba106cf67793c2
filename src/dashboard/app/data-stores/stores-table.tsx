import type { MouseEvent } from "react";
import { Anchor, Group, Paper, Table, Text, useMatches } from "@mantine/core";
import { href, navigate } from "../router.ts";
import { CopyValue } from "../ui/copy-value.tsx";
import { formatSeconds } from "../time-format.ts";
import type { DataStore } from "./data-store.ts";
import { RenameStore } from "./rename-store.tsx";
import { DeleteStore } from "./delete-store.tsx";

/** A click anywhere on a row opens the store, except on its own buttons and links. */
const openRow = (id: string) => (e: MouseEvent<HTMLTableRowElement>) => {
  const target = e.target as Element;
  // a modal of the row (rename, delete) is in a portal: its clicks bubble here through React only
  if (!e.currentTarget.contains(target) || target.closest("button, a, input")) return;
  navigate("data-stores", id);
};

function StoreRow({ store: s, wide, onChanged }: { store: DataStore; wide: boolean; onChanged: () => Promise<void> }) {
  const created = (
    <Text size="xs" c="dimmed" style={{ whiteSpace: "nowrap" }}>
      {wide ? "" : "created "}
      {formatSeconds(s.created_at)}
    </Text>
  );
  const actions = (
    <Group gap="xs" justify={wide ? "flex-end" : "flex-start"} wrap="nowrap" mt={wide ? 0 : 6}>
      <RenameStore store={s} onRenamed={onChanged} />
      <DeleteStore store={s} onDeleted={onChanged} />
    </Group>
  );
  return (
    <Table.Tr onClick={openRow(s.id)} style={{ cursor: "pointer" }} data-testid="data-store" data-id={s.id}>
      <Table.Td>
        <Anchor href={href("data-stores", s.id)} fw={500} style={{ overflowWrap: "anywhere" }}>
          {s.name}
        </Anchor>
        <Group gap={4} wrap="nowrap">
          <Text size="xs" c="dimmed" ff="monospace">
            {s.id}
          </Text>
          <CopyValue value={s.id} label={`Copy the id of ${s.name}`} />
        </Group>
        {!wide && created}
        {!wide && actions}
      </Table.Td>
      <Table.Td data-testid="record-count" style={{ verticalAlign: wide ? undefined : "top" }}>
        {s.keys.toLocaleString()}
      </Table.Td>
      {wide && <Table.Td>{created}</Table.Td>}
      {wide && <Table.Td>{actions}</Table.Td>}
    </Table.Tr>
  );
}

export function StoresTable({ stores, onChanged }: { stores: DataStore[]; onChanged: () => Promise<void> }) {
  // on a phone the date and the buttons go under the name
  const wide = useMatches({ base: false, sm: true }, { getInitialValueInEffect: false });
  return (
    <Paper withBorder>
      <Table.ScrollContainer minWidth={320}>
        <Table verticalSpacing="sm" highlightOnHover data-testid="data-stores">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Records</Table.Th>
              {wide && <Table.Th>Created</Table.Th>}
              {wide && <Table.Th />}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {stores.map((s) => (
              <StoreRow key={s.id} store={s} wide={wide} onChanged={onChanged} />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
