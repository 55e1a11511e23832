import { Alert, Anchor } from '@mantine/core';
import { IconAlertTriangle, IconCircleX } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { CurrentUser } from '#shared/api/current-user.schema.ts';
import { subscriptionBanner } from '#shared/billing/subscription-status.ts';
import { paths } from '../../lib/paths.ts';

/** The dashboard's trial / subscription banner (docs/product-rules.md §4), with its 'Upgrade now' link. */
export function SubscriptionBanner({ user, now = new Date() }: { user: CurrentUser; now?: Date }) {
  const banner = subscriptionBanner(user.payment, now);
  if (!banner) return null;
  const error = banner.severity === 'error';
  return (
    <Alert
      color={error ? 'red' : 'yellow'}
      icon={error ? <IconCircleX /> : <IconAlertTriangle />}
      title={banner.message}
      role={error ? 'alert' : 'status'}
    >
      <Anchor component={Link} to={paths.profile} fw={600} underline="always" c="inherit">
        Upgrade now
      </Anchor>
    </Alert>
  );
}
