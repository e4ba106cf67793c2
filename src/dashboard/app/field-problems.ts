import { messageOf } from "./api-error.ts";

// The API's 400 names every problem as {field, message} (one answer for all of them): each goes
// under the input of that field, and the form's own line says what no input shows (a 409, a
// field this form has no input for, the network).

interface Envelope {
  error?: { details?: { field: string; message: string }[] };
}

export interface Problems {
  /** by the API's field name */
  fields: Record<string, string>;
  form?: string;
}

export const noProblems: Problems = { fields: {} };

/** The problems of a failed call: `error` is openapi-fetch's parsed body, or what was thrown. */
export function problemsOf(error: unknown, inputs: readonly string[]): Problems {
  const fields: Record<string, string> = {};
  let unplaced = false;
  const details = error instanceof Error ? [] : ((error as Envelope | undefined)?.error?.details ?? []);
  for (const d of details) {
    if (inputs.includes(d.field)) fields[d.field] ??= d.message;
    else unplaced = true;
  }
  const placed = Object.keys(fields).length > 0;
  return { fields, form: placed && !unplaced ? undefined : messageOf(error) };
}
