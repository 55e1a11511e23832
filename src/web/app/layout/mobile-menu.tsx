import { Button, Divider, Drawer, Group, NavLink, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { CurrentUser } from '#shared/api/current-user.schema.ts';
import { trackConversion } from '../../lib/analytics.ts';
import { paths } from '../../lib/paths.ts';
import { usePublicConfig } from '../../lib/public-config.ts';
import { VersionBadge } from './user-menu.tsx';

type Props = { user: CurrentUser | false; opened: boolean; onClose: () => void };

/** The side drawer that replaces the top bar's links under 768 px. */
export function MobileMenu({ user, opened, onClose }: Props) {
  const sandbox = usePublicConfig().data?.sandbox === true;
  return (
    <Drawer opened={opened} onClose={onClose} title="Menu" hiddenFrom="sm" size="80%" position="left">
      {sandbox && <NavLink component={Link} to={paths.sandbox} label="Sandbox console" onClick={onClose} />}
      {user ? (
        <Stack gap={4}>
          <Text fw={700}>{user.name.firstName}</Text>
          <Text size="sm">{user.name.displayName}</Text>
          <Text size="sm" c="dimmed">
            {user.email}
          </Text>
          <Divider my="sm" />
          <NavLink component={Link} to={paths.dashboard} label="Dashboard" onClick={onClose} />
          <NavLink component={Link} to={paths.profile} label="Your Profile" onClick={onClose} />
          <NavLink component={Link} to={paths.documentation} label="Documentation" onClick={onClose} />
          <NavLink
            component={Link}
            to={paths.changelog}
            label="See changelog"
            rightSection={<VersionBadge />}
            onClick={onClose}
          />
          <Divider my="sm" />
          <NavLink component="a" href={paths.logout} label="Log out" />
        </Stack>
      ) : (
        <Stack gap={4}>
          <NavLink component={Link} to={paths.howItWorks} label="How it works" onClick={onClose} />
          <NavLink component={Link} to={paths.pricing} label="Pricing" onClick={onClose} />
          <Divider my="sm" />
          <Group grow>
            <Button component={Link} to={paths.login} variant="default" onClick={onClose}>
              Log in
            </Button>
            <Button
              component={Link}
              to={paths.signup}
              onClick={() => {
                trackConversion('sign_up_click', { placement: 'drawer' });
                onClose();
              }}
            >
              Sign up
            </Button>
          </Group>
        </Stack>
      )}
    </Drawer>
  );
}
