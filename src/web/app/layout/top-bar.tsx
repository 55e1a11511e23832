import { Burger, Button, Group } from '@mantine/core';
import { IconFlask } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { CurrentUser } from '#shared/api/current-user.schema.ts';
import { trackConversion } from '../../lib/analytics.ts';
import { paths } from '../../lib/paths.ts';
import { usePublicConfig } from '../../lib/public-config.ts';
import { Logo } from './logo.tsx';
import { UserMenu } from './user-menu.tsx';

type Props = { user: CurrentUser | false; drawerOpened: boolean; onToggleDrawer: () => void };

export function TopBar({ user, drawerOpened, onToggleDrawer }: Props) {
  const sandbox = usePublicConfig().data?.sandbox === true;
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap" component="nav" aria-label="Main">
      <Group gap="lg" wrap="nowrap">
        <Logo />
        {!user && (
          <Group gap={4} visibleFrom="sm">
            <Button component={Link} to={paths.howItWorks} variant="subtle" color="gray">
              How it works
            </Button>
            <Button component={Link} to={paths.pricing} variant="subtle" color="gray">
              Pricing
            </Button>
          </Group>
        )}
      </Group>
      <Group visibleFrom="sm" gap="xs" wrap="nowrap">
        {sandbox && (
          <Button component={Link} to={paths.sandbox} variant="light" leftSection={<IconFlask size={16} />}>
            Sandbox
          </Button>
        )}
        {user ? (
          <UserMenu user={user} />
        ) : (
          <>
            <Button component={Link} to={paths.login} variant="default">
              Log in
            </Button>
            <Button
              component={Link}
              to={paths.signup}
              onClick={() => trackConversion('sign_up_click', { placement: 'top-bar' })}
            >
              Sign up
            </Button>
          </>
        )}
      </Group>
      <Burger
        hiddenFrom="sm"
        opened={drawerOpened}
        onClick={onToggleDrawer}
        aria-label={drawerOpened ? 'Close menu' : 'Open menu'}
      />
    </Group>
  );
}
