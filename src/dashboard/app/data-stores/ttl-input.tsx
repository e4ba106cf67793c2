import { NumberInput, SegmentedControl, Stack, Text } from "@mantine/core";
import { Expiry } from "./record-expiry.tsx";

// The API's `ttl`: seconds from now, `null` for never, absent to keep what the record has (a new
// key gets "never" then), at most ten years.

export type TtlMode = "keep" | "never" | "after";
export interface TtlChoice {
  mode: TtlMode;
  seconds: number | string;
}

export const MAX_TTL_SECONDS = 315_360_000;

/** The body's `ttl` for a choice; a choice of "after" with no seconds yet is for the form to refuse. */
export const ttlOf = (c: TtlChoice): number | null | undefined => (c.mode === "keep" ? undefined : c.mode === "never" ? null : Number(c.seconds));

interface Props {
  value: TtlChoice;
  onChange: (c: TtlChoice) => void;
  /** the record's expiry when editing one; undefined for a new record */
  current?: number | null;
  error?: string;
}

export function TtlInput({ value, onChange, current, error }: Props) {
  const editing = current !== undefined;
  const data = [...(editing ? [{ label: "Keep as is", value: "keep" }] : []), { label: "Never expires", value: "never" }, { label: "Expires after", value: "after" }];
  return (
    <Stack gap={6}>
      <Text size="sm" fw={500} id="ttl-mode-label">
        Expiry
      </Text>
      <SegmentedControl aria-labelledby="ttl-mode-label" data={data} value={value.mode} onChange={(mode) => onChange({ ...value, mode: mode as TtlMode })} fullWidth data-testid="ttl-mode" />
      {value.mode === "keep" && current !== undefined && (
        <Text size="xs" c="dimmed">
          It expires as it does now: <Expiry at={current} inline />
        </Text>
      )}
      {value.mode === "after" && (
        <NumberInput
          label="TTL (seconds)"
          description="Counted from when you save; at most ten years"
          placeholder="3600"
          min={1}
          max={MAX_TTL_SECONDS}
          allowDecimal={false}
          allowNegative={false}
          value={value.seconds}
          onChange={(seconds) => onChange({ ...value, seconds })}
          error={error}
          required
        />
      )}
      {value.mode !== "after" && error && (
        <Text size="xs" c="red">
          {error}
        </Text>
      )}
    </Stack>
  );
}
