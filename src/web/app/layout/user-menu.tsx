import { Avatar, Badge, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import {
  IconBook,
  IconChevronDown,
  IconLayoutDashboard,
  IconLogout,
  IconNews,
  IconUser,
} from '@tabler/icons-react';
import { Link } from 'react-router';
import type { CurrentUser } from '#shared/api/current-user.schema.ts';
import { APP_VERSION } from '#shared/product.ts';
import { paths } from '../../lib/paths.ts';

export function UserMenu({ user }: { user: CurrentUser }) {
  return (
    <Menu position="bottom-end" width={260} withArrow>
      <Menu.Target>
        <UnstyledButton aria-label="Account menu">
          <Group gap={8} wrap="nowrap">
            <Avatar radius="xl" size={32} color="blue">
              {user.name.firstName.charAt(0).toUpperCase()}
            </Avatar>
            <Text fw={600}>{user.name.firstName}</Text>
            <IconChevronDown size={16} aria-hidden />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          <Text size="sm" fw={600} c="var(--mantine-color-text)">
            {user.name.displayName}
          </Text>
          <Text size="xs" c="dimmed" truncate>
            {user.email}
          </Text>
        </Menu.Label>
        <Menu.Divider />
        <Menu.Item component={Link} to={paths.dashboard} leftSection={<IconLayoutDashboard size={16} />}>
          Dashboard
        </Menu.Item>
        <Menu.Item component={Link} to={paths.profile} leftSection={<IconUser size={16} />}>
          Your Profile
        </Menu.Item>
        <Menu.Item component={Link} to={paths.documentation} leftSection={<IconBook size={16} />}>
          Documentation
        </Menu.Item>
        <Menu.Item
          component={Link}
          to={paths.changelog}
          leftSection={<IconNews size={16} />}
          rightSection={<VersionBadge />}
        >
          See changelog
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item component="a" href={paths.logout} leftSection={<IconLogout size={16} />}>
          Log out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

export function VersionBadge() {
  return (
    <Badge size="sm" variant="light">
      {APP_VERSION}
    </Badge>
  );
}
