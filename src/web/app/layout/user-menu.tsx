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
  type Icon,
  IconBook,
  IconChevronDown,
  IconLayoutDashboard,
  IconLogout,
  IconNews,
  IconUser,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { CurrentUser } from '#shared/api/current-user.schema.ts';
import { APP_VERSION } from '#shared/product.ts';
import { paths } from '../../lib/paths.ts';

const ACCOUNT_LINKS: { to: string; label: string; icon: Icon; rightSection?: ReactNode }[] = [
  { to: paths.dashboard, label: 'Dashboard', icon: IconLayoutDashboard },
  { to: paths.profile, label: 'Your Profile', icon: IconUser },
  { to: paths.documentation, label: 'Documentation', icon: IconBook },
  { to: paths.changelog, label: 'See changelog', icon: IconNews, rightSection: <VersionBadge /> },
];

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
          {ACCOUNT_LINKS.map(({ to, label, icon: LinkIcon, rightSection }) => (
            <NavLink
              key={to}
              component={Link}
              to={to}
              label={label}
              leftSection={<LinkIcon size={16} />}
              rightSection={rightSection}
              onClick={close}
            />
          ))}
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
