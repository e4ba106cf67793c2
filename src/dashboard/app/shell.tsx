import { AppShell, Badge, Burger, Button, Group, NavLink, Text, Title } from "@mantine/core";
import { useEffect } from "react";
import { useDisclosure } from "@mantine/hooks";
import { href, useRoute } from "./router.ts";
import { useSession } from "./session-context.ts";
import { Page } from "./page.tsx";

const SECTIONS: { path: string; label: string; admin?: boolean }[] = [
  { path: "sources", label: "Sources" },
  { path: "deploy", label: "Deploy a component" },
  { path: "workflows", label: "Workflows" },
  { path: "subscriptions", label: "Subscriptions" },
  { path: "webhooks", label: "Webhooks" },
  { path: "accounts", label: "Accounts" },
  { path: "env", label: "Environment variables" },
  { path: "data-stores", label: "Data stores" },
  { path: "usage", label: "Usage" },
  { path: "users", label: "Users", admin: true },
];

export function Shell() {
  const { me, signOut } = useSession();
  const route = useRoute();
  const [opened, { toggle, close }] = useDisclosure();
  const current = route[0] ?? "sources";
  // a new page starts at its top (a hash route keeps the last page's scroll, which would leave
  // the new page's title under the header); a tab of the same page keeps its place. (Braces: newer
  // browsers return a promise from scrollTo, which React would take for a cleanup function.)
  const where = route.slice(0, 2).join("/");
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [where]);

  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 230, breakpoint: "sm", collapsed: { mobile: !opened } }} padding="lg">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" />
            <Title order={4} className="brand">
              Tributary
            </Title>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <Text size="sm" data-testid="whoami">
              {me.username}
            </Text>
            {me.admin && (
              <Badge variant="light" size="sm">
                admin
              </Badge>
            )}
            <Button variant="default" size="xs" onClick={signOut}>
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs">
        {SECTIONS.filter((s) => !s.admin || me.admin).map((s) => (
          <NavLink key={s.path} href={href(s.path)} label={s.label} active={current === s.path} onClick={close} />
        ))}
      </AppShell.Navbar>
      <AppShell.Main bg="gray.0">
        <Page route={route} />
      </AppShell.Main>
    </AppShell>
  );
}
