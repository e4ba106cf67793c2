import { Alert, Button, Code, CopyButton, Group, Text } from "@mantine/core";

// A webhook's signing secret is in the create answer only (the service keeps it sealed and never
// shows it again), so it is shown here until dismissed, with how to check a delivery with it.

export function NewSecret({ name, secret, onDone }: { name: string; secret: string; onDone: () => void }) {
  return (
    <Alert color="yellow" variant="light" title={`${name}: its signing secret, shown this once`} data-testid="webhook-secret" withCloseButton onClose={onDone} closeButtonLabel="Dismiss">
      <Group gap="xs" wrap="nowrap" mb="xs">
        <Code style={{ overflowWrap: "anywhere" }}>{secret}</Code>
        <CopyButton value={secret}>
          {({ copied, copy }) => (
            <Button size="compact-xs" variant="light" onClick={copy}>
              {copied ? "Copied" : "Copy"}
            </Button>
          )}
        </CopyButton>
      </Group>
      <Text size="sm">
        Every delivery carries <Code>X-Tributary-Signature: sha256=&lt;hex&gt;</Code>, the HMAC-SHA256 of the raw body keyed with this secret.
        Keep it where your receiver can check it: it can't be shown again.
      </Text>
    </Alert>
  );
}
