import { Alert, Text } from '@mantine/core';
import { IconClockHour4 } from '@tabler/icons-react';
import type { SyncActivity } from '#shared/api/sync.schema.ts';
import { formatFullTime } from '../../../lib/sync-activity-format.ts';
import { useDisplayZone } from '../../../lib/time-zone.ts';
import { providerBusyText } from '../provider-busy.ts';

type ProviderBusy = NonNullable<SyncActivity['providerBusy']>;

/** The calendar provider's limit for all users holds the sync back; gone by itself once it has passed. */
export function ProviderBusyNote({ busy }: { busy: ProviderBusy }) {
  const { timeZone } = useDisplayZone();
  const text = providerBusyText(busy, timeZone);
  return (
    <Alert
      variant="light"
      color="yellow"
      title={text.title}
      icon={<IconClockHour4 aria-hidden />}
      role="status"
    >
      <Text size="sm" title={formatFullTime(busy.until, timeZone)}>
        {text.message}
      </Text>
    </Alert>
  );
}
