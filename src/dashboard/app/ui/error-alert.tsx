import { Alert } from "@mantine/core";

/** An API error's message, shown where the action that failed is. */
export function ErrorAlert({ error, title = "Something went wrong" }: { error: string | Error | undefined; title?: string }) {
  if (!error) return null;
  return (
    <Alert color="red" variant="light" title={title} role="alert" data-testid="error">
      {typeof error === "string" ? error : error.message}
    </Alert>
  );
}
