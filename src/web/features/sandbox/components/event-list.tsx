import { Group, Text } from '@mantine/core';
import { IconRepeat } from '@tabler/icons-react';
import type { SandboxEvent } from '#shared/api/sandbox.schema.ts';
import { dayIn, formatDay, formatInstant } from '../../../lib/date-time-format.ts';
import { useDisplayZone } from '../../../lib/time-zone.ts';
import { DeleteItemButton, EditItemButton, ItemList } from './item-list.tsx';

type Props = {
  events: SandboxEvent[];
  /** Another account's events, shown until the chosen one's are read. */
  busy?: boolean;
  onEdit: (event: SandboxEvent) => void;
  onDelete: (event: SandboxEvent) => void;
};

/** One calendar's events, each with its edit and delete buttons (series and all-day events are not edited here). */
export function EventList({ events, busy = false, onEdit, onDelete }: Props) {
  const { timeZone } = useDisplayZone();
  return (
    <ItemList busy={busy} gap="xs">
      {events.map((event) => (
        <Group
          key={event.id}
          component="li"
          justify="space-between"
          wrap="nowrap"
          gap="xs"
          aria-label={event.summary}
        >
          <div style={{ minWidth: 0 }}>
            <Text size="sm" truncate>
              {event.summary || '(no title)'}
            </Text>
            <Group gap={4}>
              <Text size="xs" c="dimmed">
                {event.allDay
                  ? `${formatDay(event.start.slice(0, 10))} (all day)`
                  : `${formatInstant(event.start, timeZone)} – ${formatInstant(event.end, timeZone, dayIn(event.start, timeZone) === dayIn(event.end, timeZone) ? 'time' : 'dayAndTime')}`}
              </Text>
              {event.recurring && <IconRepeat size={12} aria-label="repeats" />}
            </Group>
          </div>
          <Group gap={4} wrap="nowrap">
            <EditItemButton
              label={`Edit ${event.summary}`}
              onClick={() => onEdit(event)}
              disabled={event.allDay || event.recurring}
            />
            <DeleteItemButton label={`Delete ${event.summary}`} onClick={() => onDelete(event)} />
          </Group>
        </Group>
      ))}
    </ItemList>
  );
}
