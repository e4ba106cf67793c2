import { useState, type FormEvent } from "react";
import { Button, Group, Stack, TextInput, Textarea } from "@mantine/core";
import { useSession } from "../session-context.ts";
import { toastDone } from "../ui/toasts.ts";
import { isNotFound } from "../api-error.ts";
import { ErrorAlert } from "../ui/error-alert.tsx";
import { noProblems, problemsOf, type Problems } from "../field-problems.ts";
import { RECORD_FIELDS, type StoreRecord } from "./data-store.ts";
import { TtlInput, ttlOf, type TtlChoice } from "./ttl-input.tsx";

interface Props {
  storeId: string;
  /** the record to edit; a new one when undefined */
  record?: StoreRecord;
  onSaved: () => Promise<void>;
  onCancel: () => void;
}

const monospace = { input: { fontFamily: "var(--mantine-font-family-monospace)" } };

/** Why a value can't be sent, checked here: the API only ever gets JSON it can store. */
function jsonProblem(text: string): string | undefined {
  if (text.trim() === "") return 'required: any JSON, such as {"total": 12.5}, "text", 42 or null';
  try {
    JSON.parse(text);
    return undefined;
  } catch (err) {
    return `not valid JSON: ${err instanceof Error ? err.message : String(err)}`;
  }
}

/** A record's key, JSON value and expiry: adds one (a key already there is refused) or edits one. */
export function RecordForm({ storeId, record, onSaved, onCancel }: Props) {
  const { api } = useSession();
  const [key, setKey] = useState(record?.key ?? "");
  const [text, setText] = useState(record ? JSON.stringify(record.value, null, 2) : "");
  const [ttl, setTtl] = useState<TtlChoice>({ mode: record ? "keep" : "never", seconds: "" });
  const [problems, setProblems] = useState<Problems>(noProblems);
  const [busy, setBusy] = useState(false);
  const path = { params: { path: { id: storeId, key } } };

  const save = async (e: FormEvent) => {
    e.preventDefault();
    const bad = { value: jsonProblem(text), ttl: ttl.mode === "after" && ttl.seconds === "" ? "how many seconds until it expires?" : undefined };
    if (bad.value || bad.ttl) return setProblems({ fields: Object.fromEntries(Object.entries(bad).filter(([, m]) => m)) as Record<string, string> });
    setBusy(true);
    try {
      if (!record) {
        // a PUT would replace a record of that key without a word: adding never does
        const there = await api.GET("/v1/data_stores/{id}/records/{key}", path);
        if (there.data) return setProblems({ fields: { key: "a record with this key exists: edit it in the list instead" } });
        if (!isNotFound(there.error)) return setProblems(problemsOf(there.error, RECORD_FIELDS));
      }
      const t = ttlOf(ttl);
      const res = await api.PUT("/v1/data_stores/{id}/records/{key}", { ...path, body: { value: JSON.parse(text), ...(t === undefined ? {} : { ttl: t }) } });
      if (!res.data) return setProblems(problemsOf(res.error, RECORD_FIELDS));
      toastDone(`${key} saved`);
      await onSaved();
    } catch (err) {
      setProblems(problemsOf(err, RECORD_FIELDS));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="sm" component="form" onSubmit={save} data-testid="record-form">
      <TextInput
        label="Key"
        placeholder="order/42"
        value={key}
        onChange={(e) => setKey(e.currentTarget.value)}
        error={problems.fields.key}
        disabled={!!record}
        required
        spellCheck={false}
        autoComplete="off"
        styles={monospace}
      />
      {/* checked on submit, not on blur: an error line appearing on blur moves the buttons
          from under the pointer, and the click that blurred is lost */}
      <Textarea
        label="Value (JSON)"
        placeholder='{"total": 12.5}'
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        error={problems.fields.value}
        autosize
        minRows={4}
        maxRows={16}
        required
        spellCheck={false}
        styles={monospace}
      />
      <TtlInput value={ttl} onChange={setTtl} current={record?.expires_at_ms} error={problems.fields.ttl} />
      <ErrorAlert error={problems.form} title="Not saved" />
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" loading={busy}>
          {record ? "Save" : "Add record"}
        </Button>
      </Group>
    </Stack>
  );
}
