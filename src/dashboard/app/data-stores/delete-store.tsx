import { useSession } from "../session-context.ts";
import { useAction } from "../hooks/use-action.ts";
import { toastDone } from "../ui/toasts.ts";
import { ConfirmButton } from "../ui/confirm-button.tsx";
import { ErrorAlert } from "../ui/error-alert.tsx";
import type { DataStore } from "./data-store.ts";

const records = (n: number) => (n === 1 ? "its 1 record" : `its ${n.toLocaleString()} records`);

/** Delete, after a confirmation that says the records go too. */
export function DeleteStore({ store, onDeleted, size = "xs" }: { store: DataStore; onDeleted: () => Promise<void> | void; size?: "xs" | "sm" }) {
  const { api } = useSession();
  const { error, act } = useAction();
  const remove = () =>
    act(`Delete ${store.name}`, () => api.DELETE("/v1/data_stores/{id}", { params: { path: { id: store.id } } }), async () => {
      toastDone(`${store.name} deleted`);
      await onDeleted();
    });
  return (
    <>
      <ConfirmButton
        size={size}
        label="Delete"
        title={`Delete ${store.name}?`}
        text={`The data store and ${records(store.keys)} are deleted. Sources and steps that use it can no longer read or write it. This can't be undone.`}
        onConfirm={remove}
      />
      {error && <ErrorAlert error={error} />}
    </>
  );
}
