import type { PropDef } from "./prop-types.ts";

// The props form's questions to the API (POST /v1/components/{id}/props/...): a prop's options,
// page by page, and the props as configured so far. Plain fetches of the session's origin, the
// answer read as the API documents it.

export interface Option {
  label: string;
  value: unknown;
}

export interface OptionsPage {
  options: Option[];
  context?: Record<string, unknown>;
}

async function post<T>(fetchFn: typeof fetch, path: string, body: unknown): Promise<T> {
  const res = await fetchFn(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const json = (await res.json().catch(() => undefined)) as { data?: T; error?: { message?: string } } | undefined;
  if (!res.ok || json?.data === undefined) throw new Error(json?.error?.message ?? `the API answered ${res.status}`);
  return json.data;
}

export function loadOptions(
  fetchFn: typeof fetch,
  componentId: string,
  prop: string,
  body: { configured_props: Record<string, unknown>; query?: string; prev_context?: Record<string, unknown>; source_id?: string },
): Promise<OptionsPage> {
  return post(fetchFn, `/v1/components/${encodeURIComponent(componentId)}/props/${encodeURIComponent(prop)}/options`, body);
}

export async function reloadProps(fetchFn: typeof fetch, componentId: string, configured: Record<string, unknown>, sourceId?: string): Promise<PropDef[]> {
  const body = { configured_props: configured, ...(sourceId ? { source_id: sourceId } : {}) };
  const data = await post<{ configurable_props: PropDef[] }>(fetchFn, `/v1/components/${encodeURIComponent(componentId)}/props/reload`, body);
  return data.configurable_props;
}

/** What the form holds for an option's value: text, as every input of the form does (prop-types.ts). */
export const optionText = (value: unknown): string => (typeof value === "string" ? value : JSON.stringify(value));
