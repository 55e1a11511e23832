import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconAlertTriangleFilled } from '@tabler/icons-react';
import type { CalendarSettings } from '#shared/api/current-user.schema.ts';
import { mainCalendarSentence } from '../main-calendar-warning.ts';

type Props = {
  provider: CalendarSettings['provider'];
  /** The calendar the warning is about (null: not known). */
  calendar: { name: string; primary: boolean } | null;
  opened: boolean;
  onClose: () => void;
};

/**
 * Per docs/product-rules.md §4: the default colour or no category is strongly discouraged for a main
 * calendar.
 */
export function MainCalendarWarningModal({ provider, calendar, opened, onClose }: Props) {
  const google = provider !== 'Microsoft';
  const what = google ? 'the default calendar colour' : 'no category';
  const mark = google ? 'event colour' : 'category';
  return (
    <Modal opened={opened} onClose={onClose} title="Strongly discouraged for your main calendar" centered>
      <Stack>
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <IconAlertTriangleFilled
            size={28}
            color="var(--mantine-color-yellow-7)"
            aria-hidden
            style={{ flexShrink: 0 }}
          />
          <Text>
            With {what}, Timeboxer cannot tell its events apart from your own.{' '}
            {mainCalendarSentence(calendar)}
          </Text>
        </Group>
        <Text>
          Choose a separate {mark} for Timeboxer, or a calendar that holds only your timeboxed tasks.
        </Text>
        <Group justify="flex-end">
          <Button onClick={onClose} data-autofocus>
            Ok, I understand
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
