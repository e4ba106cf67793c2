import { Paper, Progress, SimpleGrid, Skeleton, Stack, Text, Title } from "@mantine/core";
import { useSession } from "./session-context.ts";
import { useQuery } from "./hooks/use-query.ts";
import { dataOf } from "./api-error.ts";
import { PageHeader } from "./ui/page-header.tsx";
import { ErrorAlert } from "./ui/error-alert.tsx";

// Today's usage against the daily quotas (GET /v1/users/me: daily_*_used and daily_*_quota;
// a quota of 0 is unlimited).

function Meter({ title, used, quota, unit }: { title: string; used: number; quota: number; unit: string }) {
  const pct = quota > 0 ? Math.min(100, (used / quota) * 100) : 0;
  const color = pct >= 90 ? "red" : pct >= 70 ? "orange" : "indigo";
  return (
    <Paper withBorder p="lg" data-testid="usage-meter">
      <Stack gap="xs">
        <Title order={5}>{title}</Title>
        <Text size="xl" fw={700}>
          {used.toLocaleString()} {unit}
        </Text>
        {quota > 0 ? (
          <>
            <Progress value={pct} color={color} size="lg" aria-label={title} />
            <Text size="sm" c="dimmed">
              {pct.toFixed(pct < 10 ? 1 : 0)}% of {quota.toLocaleString()} {unit} today
            </Text>
          </>
        ) : (
          <Text size="sm" c="dimmed">
            No daily quota: unlimited.
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

export function UsagePage() {
  const { api } = useSession();
  const me = useQuery(async () => dataOf(await api.GET("/v1/users/me")).data, [api]);
  return (
    <>
      <PageHeader title="Usage" description="Today's invocations and compute time (UTC day) against your daily quotas. A run past a quota is refused until the next day." />
      <ErrorAlert error={me.error} />
      {!me.data && !me.error && <Skeleton h={140} />}
      {me.data && (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <Meter title="Invocations" used={me.data.daily_invocations_used} quota={me.data.daily_invocations_quota} unit="runs" />
          <Meter title="Compute time" used={me.data.daily_compute_time_used} quota={me.data.daily_compute_time_quota} unit="ms" />
        </SimpleGrid>
      )}
    </>
  );
}
