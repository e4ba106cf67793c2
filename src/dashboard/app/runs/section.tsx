import { useState, type ReactNode } from "react";
import { Box, Group, Text, UnstyledButton } from "@mantine/core";

/**
 * A part of a step (or the trigger event) that opens and closes; what it holds mounts only open.
 * The hint sums it up while closed (open, the content says it).
 */
export function Section({ title, hint, defaultOpen = false, children, testid }: { title: string; hint?: ReactNode; defaultOpen?: boolean; children: ReactNode; testid?: string }) {
  const [open, setOpen] = useState(defaultOpen);
  return (
    <Box mt={6} data-testid={testid} data-open={open}>
      <UnstyledButton onClick={() => setOpen(!open)} aria-expanded={open} w="100%">
        <Group gap={6} wrap="nowrap">
          <Text size="xs" c="dimmed" w={10}>
            {open ? "▾" : "▸"}
          </Text>
          <Text size="sm" fw={500} style={{ whiteSpace: "nowrap" }}>
            {title}
          </Text>
          {hint !== undefined && !open && (
            <Text size="xs" c="dimmed" truncate="end" style={{ minWidth: 0 }}>
              {hint}
            </Text>
          )}
        </Group>
      </UnstyledButton>
      {open && (
        <Box pl={16} pt={4} pb={2}>
          {children}
        </Box>
      )}
    </Box>
  );
}
