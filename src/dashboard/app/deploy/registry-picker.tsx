import { useEffect } from "react";
import { Badge, Card, Group, SimpleGrid, Skeleton, Text } from "@mantine/core";
import { useSession } from "../session-context.ts";
import { usePaged, type PageOf } from "../hooks/use-paged.ts";
import { LoadMore } from "../ui/load-more.tsx";
import { dataOf } from "../api-error.ts";
import { ErrorAlert } from "../ui/error-alert.tsx";
import { EmptyState } from "../ui/empty-state.tsx";
import type { Picked } from "./deploy-form.tsx";
import type { PropDef } from "./prop-types.ts";

interface RegistryItem {
  id: string;
  key?: string;
  name: string;
  version: string;
  description?: string;
  configurable_props: PropDef[];
}

/** What deploying it involves, from its props: "Gets an HTTP endpoint · configure Schedule". */
function propsSummary(props: PropDef[]): string {
  const parts: string[] = [];
  if (props.some((p) => p.type === "$.interface.http")) parts.push("Gets an HTTP endpoint");
  if (props.some((p) => p.type === "$.interface.timer")) parts.push("Runs on a schedule");
  const asked = props.filter((p) => !p.type.startsWith("$."));
  if (asked.length > 0) parts.push(`asks for ${asked.map((p) => p.label ?? p.name).join(", ")}`);
  return parts.join(" · ") || "Nothing to configure";
}

export function RegistryPicker({ picked, initialKey, onPick }: { picked?: string; initialKey?: string; onPick: (c: Picked) => void }) {
  const { api } = useSession();
  const list = usePaged(async (query) => dataOf(await api.GET("/v1/components/registry", { params: { query } })) as PageOf<RegistryItem>, [api]);

  useEffect(() => {
    // no key asked for: nothing is picked for the user (the list's items may have no key either)
    if (!initialKey) return;
    const first = list.data?.find((c) => c.key === initialKey || c.id === initialKey);
    if (first && !picked) onPick(first);
  }, [list.data, initialKey, picked, onPick]);

  if (list.error) return <ErrorAlert error={list.error} title="Could not read the registry" />;
  if (!list.data) return <Skeleton h={120} />;
  if (list.data.length === 0) return <EmptyState title="The registry is empty" text="Paste your own component's code instead." />;
  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2 }} data-testid="registry">
        {list.data.map((c) => (
          <Card
            key={c.id}
            withBorder
            padding="md"
            role="button"
            tabIndex={0}
            style={{ cursor: "pointer", borderColor: picked === c.id ? "var(--mantine-color-indigo-5)" : undefined }}
            onClick={() => onPick(c)}
            onKeyDown={(e) => e.key === "Enter" && onPick(c)}
            data-testid="registry-item"
            data-key={c.key ?? c.id}
          >
            <Group justify="space-between" wrap="nowrap">
              <Text fw={600}>{c.name}</Text>
              <Badge variant="light" size="sm">
                v{c.version}
              </Badge>
            </Group>
            <Text size="sm" c="dimmed" mt={4} lineClamp={2}>
              {c.description ?? propsSummary(c.configurable_props)}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
      <LoadMore list={list} noun="components" />
    </>
  );
}
