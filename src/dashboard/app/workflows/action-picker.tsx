import { useState } from "react";
import { Button, Modal, Text } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import { RegistryPicker } from "../deploy/registry-picker.tsx";
import type { ActionComponent } from "./workflow-draft.ts";

/** "Add an action step": the registry's components in a dialog; picking one adds a step that runs it. */
export function ActionPicker({ onPick, disabled }: { onPick: (c: ActionComponent) => void; disabled?: boolean }) {
  const [open, setOpen] = useState(false);
  const narrow = useMediaQuery("(max-width: 36em)");
  return (
    <>
      <Button variant="light" onClick={() => setOpen(true)} disabled={disabled}>
        Add an action step
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title="Add an action step" size="xl" fullScreen={narrow}>
        <Text size="sm" c="dimmed" mb="md">
          A component run as a step, with props you set next: values, or expressions of what earlier steps returned.
        </Text>
        {/* mounted only while open: the list is read when it is wanted */}
        {open && (
          <RegistryPicker
            onPick={(c) => {
              setOpen(false);
              onPick(c);
            }}
          />
        )}
      </Modal>
    </>
  );
}
