import { useState, type FormEvent } from "react";
import { Button, Group, TextInput } from "@mantine/core";
import { ErrorAlert } from "../ui/error-alert.tsx";
import { noProblems, problemsOf, type Problems } from "../field-problems.ts";
import { STORE_FIELDS } from "./data-store.ts";

type Call = (name: string) => Promise<{ data?: unknown; error?: unknown }>;

/** A store's name and a button: the create form and the rename modal are both this. */
export function StoreNameForm({ initial = "", submit, label, onDone, onCancel }: { initial?: string; submit: Call; label: string; onDone: (name: string) => Promise<void>; onCancel?: () => void }) {
  const [name, setName] = useState(initial);
  const [problems, setProblems] = useState<Problems>(noProblems);
  const [busy, setBusy] = useState(false);

  const send = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const wanted = name.trim();
      const res = await submit(wanted);
      if (!res.data) return setProblems(problemsOf(res.error, STORE_FIELDS));
      setProblems(noProblems);
      setName(initial);
      await onDone(wanted);
    } catch (err) {
      setProblems(problemsOf(err, STORE_FIELDS));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={send} data-testid="store-name-form">
      <Group align="flex-start" wrap="wrap" gap="sm">
        <TextInput
          aria-label="Data store name"
          placeholder="orders"
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={problems.fields.name}
          required
          data-autofocus
          style={{ flex: "1 1 220px" }}
          maw={420}
        />
        {onCancel && (
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
        )}
        <Button type="submit" loading={busy}>
          {label}
        </Button>
      </Group>
      <ErrorAlert error={problems.form} title={`${label} failed`} />
    </form>
  );
}
