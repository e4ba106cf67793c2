import { useState } from "react";
import { Button, Modal } from "@mantine/core";
import type { StoreRecord } from "./data-store.ts";
import { RecordForm } from "./record-form.tsx";

/** "Add a record", or a row's "Edit", and the form in a modal. */
export function RecordModal({ storeId, record, onSaved }: { storeId: string; record?: StoreRecord; onSaved: () => Promise<void> }) {
  const [open, setOpen] = useState(false);
  const saved = async () => {
    setOpen(false);
    await onSaved();
  };
  return (
    <>
      {record ? (
        <Button size="xs" variant="light" onClick={() => setOpen(true)}>
          Edit
        </Button>
      ) : (
        <Button onClick={() => setOpen(true)}>Add a record</Button>
      )}
      <Modal opened={open} onClose={() => setOpen(false)} title={record ? "Edit a record" : "Add a record"} size="lg" centered>
        {/* mounted per opening: the form starts from the record as it is listed now */}
        {open && <RecordForm storeId={storeId} record={record} onSaved={saved} onCancel={() => setOpen(false)} />}
      </Modal>
    </>
  );
}
