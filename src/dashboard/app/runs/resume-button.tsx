import { useState } from "react";
import { Button, Group, Popover, Text, Textarea } from "@mantine/core";

/**
 * Resume, with optional JSON the waiting step's successor reads as steps.<name>.$resume_data.body.
 * The JSON is checked here: a typo should not resume the run with a string.
 */
export function ResumeButton({ onResume, busy }: { onResume: (data: unknown) => Promise<void>; busy: boolean }) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState("");
  const [invalid, setInvalid] = useState<string>();

  const submit = async () => {
    let data: unknown;
    if (text.trim() !== "") {
      try {
        data = JSON.parse(text);
      } catch (e) {
        setInvalid(`not JSON: ${e instanceof Error ? e.message : String(e)}`);
        return;
      }
    }
    setInvalid(undefined);
    await onResume(data);
    setOpen(false);
  };

  return (
    <Popover opened={open} onChange={setOpen} width={320} position="bottom-end" withArrow trapFocus shadow="md">
      <Popover.Target>
        <Button color="yellow" variant="light" onClick={() => setOpen(!open)}>
          Resume
        </Button>
      </Popover.Target>
      <Popover.Dropdown data-testid="resume-form">
        <Textarea
          label="Resume data (JSON, optional)"
          placeholder='{"approved": true}'
          autosize
          minRows={3}
          maxRows={10}
          value={text}
          onChange={(e) => {
            setText(e.currentTarget.value);
            setInvalid(undefined);
          }}
          error={invalid}
          styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
        />
        <Text size="xs" c="dimmed" mt={4}>
          The next step reads it as steps.&lt;name&gt;.$resume_data.body.
        </Text>
        <Group justify="flex-end" mt="sm">
          <Button variant="default" size="xs" onClick={() => setOpen(false)}>
            Close
          </Button>
          <Button size="xs" onClick={submit} loading={busy}>
            Resume run
          </Button>
        </Group>
      </Popover.Dropdown>
    </Popover>
  );
}
