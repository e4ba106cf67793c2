import { NativeSelect } from "@mantine/core";
import { useSession } from "../session-context.ts";
import { useQuery } from "../hooks/use-query.ts";
import type { FormValue } from "./prop-types.ts";

// Props that name something of the user's: an `app` prop one of their connected accounts, a
// `data_store` prop one of their data stores. Picked from a list, so an id is never typed in.

interface Common {
  value: string;
  onChange: (v: FormValue) => void;
  label: string;
  description: string;
  error?: string;
  required: boolean;
}

export function AccountSelect({ app, value, onChange, ...common }: Common & { app: string }) {
  const { api } = useSession();
  const accounts = useQuery(async () => (await api.GET("/v1/users/me/accounts", { params: { query: { limit: 100 } } })).data?.data ?? [], [api]);
  const mine = (accounts.data ?? []).filter((a) => !app || a.app === app);
  const description = mine.length === 0 && !accounts.loading ? `No ${app} account connected yet: add one under Accounts.` : common.description;
  return (
    <NativeSelect
      {...common}
      description={description}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      data={[{ label: "— choose an account —", value: "" }, ...mine.map((a) => ({ label: `${a.name} (${a.id})`, value: a.id }))]}
    />
  );
}

export function DataStoreSelect({ value, onChange, ...common }: Common) {
  const { api } = useSession();
  const stores = useQuery(async () => (await api.GET("/v1/users/me/data_stores", { params: { query: { limit: 100 } } })).data?.data ?? [], [api]);
  const list = stores.data ?? [];
  const description = list.length === 0 && !stores.loading ? "No data store yet: create one under Data stores." : common.description;
  // a store the list doesn't show (past the first 100) stays selectable under its id
  const known = value === "" || list.some((s) => s.id === value);
  return (
    <NativeSelect
      {...common}
      description={description}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      data={[
        { label: "— choose a data store —", value: "" },
        ...list.map((s) => ({ label: `${s.name} (${s.id})`, value: s.id })),
        ...(known ? [] : [{ label: value, value }]),
      ]}
    />
  );
}
