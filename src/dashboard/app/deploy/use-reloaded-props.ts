import { useEffect, useRef, useState } from "react";
import { useSession } from "../session-context.ts";
import { reloadProps } from "./props-api.ts";
import { askable, initialValues, type FormValue, type PropDef } from "./prop-types.ts";
import { usePropsSource } from "./props-source.ts";

// A component with `reloadProps` props has the props additionalProps() gives for the values of
// those: asked of the API at first, and each time one of them changes. The props shown are the
// caller's (a form's state, a workflow draft's step): `onReloaded` gets the new list.

export function useReloadedProps(componentId: string | undefined, props: PropDef[], values: Record<string, FormValue>, onReloaded: (props: PropDef[]) => void): string | undefined {
  const { fetch } = useSession();
  const sourceId = usePropsSource();
  const [error, setError] = useState<string>();
  const latest = useRef(onReloaded);
  useEffect(() => {
    latest.current = onReloaded;
  });
  const reloading = props.filter((p) => p.reloadProps);
  const key = JSON.stringify(reloading.map((p) => [p.name, values[p.name] ?? null]));
  useEffect(() => {
    if (!componentId || reloading.length === 0) return;
    let current = true;
    reloadProps(fetch, componentId, askable(props, values), sourceId).then(
      (next) => {
        if (!current) return;
        setError(undefined);
        latest.current(next);
      },
      (e: unknown) => current && setError((e as Error).message),
    );
    return () => {
      current = false;
    };
  }, [componentId, key]);
  return error;
}

/**
 * A props form's state: its values (from `configured`, a source's current props, else the
 * defaults) and its props, reloaded as above. A prop the reload adds starts from `configured`
 * too (a source's added props are in it), or its default.
 */
export function usePropsState(componentId: string, declared: PropDef[], configured?: Record<string, unknown>) {
  const [values, setValues] = useState<Record<string, FormValue>>(() => initialValues(declared, configured));
  const [props, setProps] = useState(declared);
  const reloadError = useReloadedProps(componentId, props, values, (next) => {
    setProps(next);
    setValues((old) => ({ ...initialValues(next, configured), ...old }));
  });
  const setValue = (name: string, v: FormValue) => setValues((old) => ({ ...old, [name]: v }));
  return { props, values, setValue, reloadError };
}
