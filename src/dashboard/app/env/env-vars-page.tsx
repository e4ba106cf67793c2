import { Code, Skeleton, Stack } from "@mantine/core";
import { useSession } from "../session-context.ts";
import { useQuery } from "../hooks/use-query.ts";
import { dataOf } from "../api-error.ts";
import { PageHeader } from "../ui/page-header.tsx";
import { ErrorAlert } from "../ui/error-alert.tsx";
import { EmptyState } from "../ui/empty-state.tsx";
import { AddEnvVar } from "./add-env-var.tsx";
import { EnvVarsTable } from "./env-vars-table.tsx";

// The caller's environment variables: the API lists them all at once (at most 500), by name.

export function EnvVarsPage() {
  const { api } = useSession();
  const list = useQuery(async () => dataOf(await api.GET("/v1/users/me/env")).data, [api]);
  const names = list.data?.map((v) => v.name) ?? [];

  return (
    <>
      <PageHeader
        title="Environment variables"
        description={
          <>
            Your sources and workflow steps read these as <Code>process.env.NAME</Code>, fresh for each run: a change is seen by the next run. Values are encrypted at
            rest; a secret's value is never shown again.
          </>
        }
      />
      <Stack gap="lg">
        <AddEnvVar existing={names} onAdded={list.reload} />
        <ErrorAlert error={list.error} title="Could not read your variables" />
        {list.loading && !list.data && <Skeleton h={120} />}
        {list.data?.length === 0 && <EmptyState title="No variables yet" text="Add one above: every run of your sources and workflow steps then finds it in process.env." />}
        {list.data && list.data.length > 0 && <EnvVarsTable vars={list.data} onChanged={list.reload} />}
      </Stack>
    </>
  );
}
