import { Alert, Stack, Text } from '@mantine/core';
import { IconAlertTriangleFilled } from '@tabler/icons-react';
import type { SyncActivity } from '#shared/api/sync.schema.ts';
import { localDateIn } from '#shared/settings/autoplan-text.ts';
import { autoplanUnplacedLines } from '../autoplan-unplaced.ts';

type Props = { days: SyncActivity['autoplanUnplaced']; timeZone: string | null };

/** The days on which "Plan my day" found no free time for some tasks; shown while it is so. */
export function AutoplanUnplacedNote({ days, timeZone }: Props) {
  const lines = autoplanUnplacedLines(days, localDateIn(timeZone));
  if (lines.length === 0) return null;
  return (
    <Alert
      variant="light"
      color="yellow"
      icon={<IconAlertTriangleFilled aria-hidden />}
      role="status"
      aria-label="Plan my day"
      // Yellow text on its light tint falls short of WCAG AA; the icon carries the colour.
      styles={{ message: { color: 'var(--mantine-color-text)' } }}
    >
      <Stack gap={4} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
        {lines.map((line) => (
          <Text key={line} size="sm" component="li">
            {line}
          </Text>
        ))}
      </Stack>
    </Alert>
  );
}
