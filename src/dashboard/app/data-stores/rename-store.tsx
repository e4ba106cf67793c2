import { useState } from "react";
import { Button, Modal } from "@mantine/core";
import { useSession } from "../session-context.ts";
import { toastDone } from "../ui/toasts.ts";
import type { DataStore } from "./data-store.ts";
import { StoreNameForm } from "./store-name-form.tsx";

/** "Rename" and its modal. Sources and steps go by the store's id: a new name changes nothing for them. */
export function RenameStore({ store, onRenamed, size = "xs" }: { store: DataStore; onRenamed: () => Promise<void>; size?: "xs" | "sm" }) {
  const { api } = useSession();
  const [open, setOpen] = useState(false);
  const rename = (name: string) => api.PUT("/v1/data_stores/{id}", { params: { path: { id: store.id } }, body: { name } });
  const done = async (name: string) => {
    setOpen(false);
    toastDone(`${store.name} renamed to ${name}`);
    await onRenamed();
  };
  return (
    <>
      <Button size={size} variant="default" onClick={() => setOpen(true)}>
        Rename
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={`Rename ${store.name}`} centered>
        {/* mounted per opening, so it starts from the current name */}
        {open && <StoreNameForm initial={store.name} submit={rename} label="Rename" onDone={done} onCancel={() => setOpen(false)} />}
      </Modal>
    </>
  );
}
