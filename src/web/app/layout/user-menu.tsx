import {
  Avatar,
  Badge,
  Divider,
  Group,
  NavLink,
  Popover,
  Text,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
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

/**
 * The signed-in user's dropdown: who is signed in, then the account links. A popover of plain links
 * rather than an ARIA menu, since it mixes text with navigation.
 */
export function UserMenu({ user }: { user: CurrentUser }) {
  const [opened, { toggle, close }] = useDisclosure(false);
  return (
    <Popover
      opened={opened}
      onChange={(open) => !open && close()}
      position="bottom-end"
      width={260}
      withArrow
    >
      <Popover.Target>
        <UnstyledButton onClick={toggle} aria-expanded={opened} aria-haspopup="dialog">
          <Group gap={8} wrap="nowrap">
            <Avatar radius="xl" size={32} color="blue" aria-hidden>
              {user.name.firstName.charAt(0).toUpperCase()}
            </Avatar>
            <Text fw={600}>
              {user.name.firstName}
              <VisuallyHidden> account menu</VisuallyHidden>
            </Text>
            <IconChevronDown size={16} aria-hidden />
          </Group>
        </UnstyledButton>
      </Popover.Target>
      <Popover.Dropdown p={6} aria-label="Account" role="dialog">
        <div style={{ padding: '6px 10px' }}>
          <Text size="sm" fw={600}>
            {user.name.displayName}
          </Text>
          <Text size="xs" c="dimmed" truncate>
            {user.email}
          </Text>
        </div>
        <Divider my={4} />
        <nav aria-label="Account">
          <NavLink
            component={Link}
            to={paths.dashboard}
            label="Dashboard"
            leftSection={<IconLayoutDashboard size={16} />}
            onClick={close}
          />
          <NavLink
            component={Link}
            to={paths.profile}
            label="Your Profile"
            leftSection={<IconUser size={16} />}
            onClick={close}
          />
          <NavLink
            component={Link}
            to={paths.documentation}
            label="Documentation"
            leftSection={<IconBook size={16} />}
            onClick={close}
          />
          <NavLink
            component={Link}
            to={paths.changelog}
            label="See changelog"
            leftSection={<IconNews size={16} />}
            rightSection={<VersionBadge />}
            onClick={close}
          />
          <Divider my={4} />
          <NavLink component="a" href={paths.logout} label="Log out" leftSection={<IconLogout size={16} />} />
        </nav>
      </Popover.Dropdown>
    </Popover>
  );
}

export function VersionBadge() {
  return (
    <Badge size="sm" variant="light">
      {APP_VERSION}
    </Badge>
  );
}
