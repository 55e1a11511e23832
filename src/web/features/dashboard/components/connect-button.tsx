import { Button } from '@mantine/core';
import { IconPlugConnected } from '@tabler/icons-react';
import { CONNECT_PATHS, INTEGRATION_KEY_OF } from '#shared/api/auth.schema.ts';
import type { IntegrationProvider } from '../dashboard-api.ts';

const DISPLAY_NAMES: Record<IntegrationProvider, string> = {
  Todoist: 'Todoist',
  'Google Calendar': 'Google Calendar',
  Microsoft: 'Microsoft 365',
};

/** A plain link: the server sends the browser on to the provider's consent page. */
export function ConnectButton({
  provider,
  again = false,
}: {
  provider: IntegrationProvider;
  again?: boolean;
}) {
  return (
    <Button
      component="a"
      href={CONNECT_PATHS[INTEGRATION_KEY_OF[provider]]}
      leftSection={<IconPlugConnected size={16} aria-hidden />}
    >
      Connect {DISPLAY_NAMES[provider]}
      {again ? ' again' : ''}
    </Button>
  );
}
