import { Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { CurrentUser } from '#shared/api/current-user.schema.ts';
import { SectionCard } from '../../../components/section-card.tsx';
import { StatusIcon } from '../../../components/status-icon.tsx';
import { connectionSummary } from '../connection-summary.ts';
import { SyncSwitch } from './sync-switch.tsx';
import { TimeZoneNote } from './time-zone-note.tsx';

/** Where things stand: the subscription's banner (given by the page), each connection, and the sync switch. */
export function StatusRow({ user, banner }: { user: CurrentUser; banner: ReactNode }) {
  return (
    <SectionCard title="Status">
      {banner}
      <Stack component="ul" gap="xs" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Connections">
        {connectionSummary(user).map((line) => (
          <Group component="li" key={line.name} gap="xs" wrap="nowrap" align="flex-start">
            <StatusIcon status={line.status} />
            <Text>{line.text}</Text>
          </Group>
        ))}
      </Stack>
      <SyncSwitch user={user} />
      <TimeZoneNote user={user} />
    </SectionCard>
  );
}
