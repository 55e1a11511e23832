import { Button, type ButtonProps } from '@mantine/core';
import { IconPlugConnected } from '@tabler/icons-react';
import { CONNECT_PATHS, INTEGRATION_KEY_OF, type IntegrationName } from '#shared/api/auth.schema.ts';
import { INTEGRATION_DISPLAY_NAMES } from '../lib/integration-names.ts';

/** A plain link: the server sends the browser on to the provider's consent page. */
export function ConnectButton({
  provider,
  again = false,
  variant,
}: {
  provider: IntegrationName;
  again?: boolean;
  variant?: ButtonProps['variant'];
}) {
  return (
    <Button
      component="a"
      href={CONNECT_PATHS[INTEGRATION_KEY_OF[provider]]}
      variant={variant}
      leftSection={<IconPlugConnected size={16} aria-hidden />}
    >
      Connect {INTEGRATION_DISPLAY_NAMES[provider]}
      {again ? ' again' : ''}
    </Button>
  );
}
