import { useState } from "react";
import { Button, Group, Stack } from "@mantine/core";
import { useSession } from "../session-context.ts";
import { messageOf } from "../api-error.ts";
import { ErrorAlert } from "../ui/error-alert.tsx";
import { CodeEditor } from "../code-editor/code-editor.tsx";
import { readable } from "../code-editor/code-editor-location.ts";
import type { Picked } from "./deploy-form.tsx";

const EXAMPLE = `export default {
  name: "My source",
  version: "0.1.0",
  props: {
    timer: { type: "$.interface.timer", default: { intervalSeconds: 60 } },
  },
  async run() {
    this.$emit({ hello: "world" });
  },
};`;

/** Code pasted here is saved as a component of yours (POST /v1/components), then configured. */
export function CodeInput({ onRead }: { onRead: (c: Picked) => void }) {
  const { api } = useSession();
  const [code, setCode] = useState("");
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const read = async () => {
    setBusy(true);
    const { data, error } = await api.POST("/v1/components", { body: { component_code: code } });
    setBusy(false);
    setError(data ? undefined : messageOf(error));
    if (data) onRead(data.data);
  };

  return (
    <Stack gap="xs">
      <CodeEditor
        ariaLabel="Component code"
        description="An ES module whose default export is a component (props, run, optional hooks)."
        placeholder={EXAMPLE}
        value={code}
        onChange={setCode}
        // the alert below shows the message: the editor marks its line
        error={error}
        markOnly
        minLines={12}
        data-testid="component-code"
      />
      <ErrorAlert error={error && readable(error)} title="The code was not accepted" />
      <Group>
        <Button onClick={read} loading={busy} disabled={!code.trim()}>
          Continue
        </Button>
      </Group>
    </Stack>
  );
}
