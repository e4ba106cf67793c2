import type { ComponentMeta, PropDefinition } from "../runtime/types.ts";

// The props additionalProps() added for a source's or step's configuration (docs/writing-components.md, "Dynamic props") are
// kept with its values, under `$added` (a name no prop can have): what a run, GET and the next
// update need to treat each value by its type (a secret sealed, an app's account opened, a data
// store's id checked) without running the component's code again.

export const ADDED = "$added";

/** `props` (stored values) with the added props of `union` over the component's own `meta`. */
export function keepAdded(props: Record<string, unknown>, union: ComponentMeta, meta: ComponentMeta): Record<string, unknown> {
  const own = new Set(meta.props.map((p) => p.name));
  const added = union.props.filter((p) => !own.has(p.name));
  if (added.length > 0) props[ADDED] = added;
  else delete props[ADDED];
  return props;
}

/** The added props kept with stored values (none for most). */
export function addedOf(stored: Record<string, unknown> | null | undefined): PropDefinition[] {
  const added = stored?.[ADDED];
  return Array.isArray(added) ? (added as PropDefinition[]) : [];
}

/** The component's props with those added for these stored values. */
export function withAdded(meta: ComponentMeta, stored: Record<string, unknown> | null | undefined): ComponentMeta {
  const added = addedOf(stored);
  return added.length > 0 ? { ...meta, props: [...meta.props, ...added] } : meta;
}
