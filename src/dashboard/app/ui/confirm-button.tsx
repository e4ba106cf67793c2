import { useState, type ReactNode } from "react";
import { Button, Group, Modal, Text } from "@mantine/core";

/** A delete button that asks first: destructive actions are never one click. */
export function ConfirmButton({ label, title, text, onConfirm, size = "xs" }: { label: string; title: string; text: ReactNode; onConfirm: () => Promise<void>; size?: "xs" | "sm" }) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    await onConfirm();
    setBusy(false);
    setOpen(false);
  };
  return (
    <>
      <Button size={size} color="red" variant="subtle" onClick={() => setOpen(true)}>
        {label}
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={title} centered>
        <Text size="sm">{text}</Text>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => setOpen(false)}>
            Cancel
          </Button>
          <Button color="red" onClick={confirm} loading={busy}>
            {label}
          </Button>
        </Group>
      </Modal>
    </>
  );
}
