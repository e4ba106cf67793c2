import { PasswordInput, Textarea } from "@mantine/core";

interface Props {
  secret: boolean;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  label?: string;
  description?: string;
  placeholder?: string;
}

const monospace = { input: { fontFamily: "var(--mantine-font-family-monospace)" } };

/**
 * A variable's value. A secret is typed masked, so it isn't on screen for whoever looks over a
 * shoulder; a plain one may span lines (a certificate) and shows as it is.
 */
export function ValueInput({ secret, value, onChange, error, label = "Value", description, placeholder }: Props) {
  if (secret)
    return (
      <PasswordInput label={label} description={description} placeholder={placeholder} value={value} onChange={(e) => onChange(e.currentTarget.value)} error={error} autoComplete="new-password" styles={monospace} data-testid="value-input" />
    );
  return (
    <Textarea label={label} description={description} placeholder={placeholder} value={value} onChange={(e) => onChange(e.currentTarget.value)} error={error} autosize minRows={1} maxRows={8} spellCheck={false} styles={monospace} data-testid="value-input" />
  );
}
