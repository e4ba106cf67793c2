import { useEffect, useState } from "react";
import { useSession } from "../session-context.ts";
import { reloadProps } from "./props-api.ts";
import { collect, type FormValue, type PropDef } from "./prop-types.ts";

// A component with `reloadProps` props has the props additionalProps() gives for the values of
// those: asked of the API at first, and each time one of them changes.

export function useReloadedProps(componentId: string, declared: PropDef[], values: Record<string, FormValue>): { props: PropDef[]; error?: string } {
  const { fetch } = useSession();
  const [props, setProps] = useState(declared);
  const [error, setError] = useState<string>();
  const reloading = declared.filter((p) => p.reloadProps);
  const key = JSON.stringify(reloading.map((p) => values[p.name] ?? null));
  useEffect(() => {
    if (reloading.length === 0) return;
    let current = true;
    const { configured } = collect(props, values);
    reloadProps(fetch, componentId, configured).then(
      (next) => {
        if (!current) return;
        setProps(next);
        setError(undefined);
      },
      (e: unknown) => current && setError((e as Error).message),
    );
    return () => {
      current = false;
    };
  }, [componentId, key]);
  return { props, ...(error ? { error } : {}) };
}
