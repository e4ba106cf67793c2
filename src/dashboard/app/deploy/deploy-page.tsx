import { useState } from "react";
import { Paper, SegmentedControl, Stack } from "@mantine/core";
import { PageHeader } from "../ui/page-header.tsx";
import { RegistryPicker } from "./registry-picker.tsx";
import { CodeInput } from "./code-input.tsx";
import { DeployForm, type Picked } from "./deploy-form.tsx";

// Deploying a source: pick a registry component or paste code (saved as a component of yours),
// then fill the props form built from its configurable_props.

export function DeployPage({ initialKey }: { initialKey?: string }) {
  const [mode, setMode] = useState<"registry" | "code">("registry");
  const [picked, setPicked] = useState<Picked>();

  return (
    <>
      <PageHeader title="Deploy a component" description="A source runs a component with the props you give it, and emits events." />
      <Stack maw={900}>
        <SegmentedControl
          value={mode}
          onChange={(m) => {
            setMode(m as typeof mode);
            setPicked(undefined);
          }}
          data={[
            { label: "From the registry", value: "registry" },
            { label: "Paste code", value: "code" },
          ]}
          w="fit-content"
        />
        {mode === "registry" ? <RegistryPicker picked={picked?.id} initialKey={initialKey} onPick={setPicked} /> : <CodeInput onRead={setPicked} />}
        {picked && (
          <Paper withBorder p="lg">
            <DeployForm key={picked.id} component={picked} />
          </Paper>
        )}
      </Stack>
    </>
  );
}
