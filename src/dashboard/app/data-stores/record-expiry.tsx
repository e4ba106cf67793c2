import { Badge, Text } from "@mantine/core";
import { formatWhen } from "../time-format.ts";
import { timeUntil, useNow } from "./record-time.ts";

function Countdown({ at, inline }: { at: number; inline: boolean }) {
  const now = useNow();
  const left = timeUntil(at, now);
  // the API no longer returns it (a reload drops the row), but the row on screen says so now
  if (!left)
    return (
      <Badge variant="light" color="gray" data-testid="expiry" data-expires-at={at}>
        expired
      </Badge>
    );
  if (inline)
    return (
      <span data-testid="expiry" data-expires-at={at}>
        {left} ({formatWhen(at)})
      </span>
    );
  return (
    <div data-testid="expiry" data-expires-at={at}>
      <Text size="sm" style={{ whiteSpace: "nowrap" }}>
        {left}
      </Text>
      <Text size="xs" c="dimmed" style={{ whiteSpace: "nowrap" }}>
        {formatWhen(at)}
      </Text>
    </div>
  );
}

/** When a record expires: counting down, or "never"; `inline` for within a sentence. */
export function Expiry({ at, inline = false }: { at: number | null; inline?: boolean }) {
  if (at === null)
    return inline ? (
      <span data-testid="expiry">never</span>
    ) : (
      <Text size="sm" c="dimmed" data-testid="expiry">
        never
      </Text>
    );
  return <Countdown at={at} inline={inline} />;
}
