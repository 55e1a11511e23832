import { Group, Stack, Text, VisuallyHidden } from '@mantine/core';
import {
  IconArrowRight,
  IconCalendarEvent,
  IconChecklist,
  IconCircleCheck,
  IconCirclePlus,
  IconHandStop,
  IconPencil,
  IconPlayerSkipForward,
  IconTrash,
  IconUnlink,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';
import type { SyncAction, SyncActivityEntry, SyncDirection } from '#shared/api/sync.schema.ts';
import {
  actionLabel,
  DIRECTION_SIDES,
  detailLabel,
  formatActivityTime,
  formatFullTime,
  shortId,
} from '../lib/sync-activity-format.ts';

type IconType = ComponentType<{ size?: number; 'aria-hidden'?: boolean; style?: object }>;

const ACTION_ICONS: Record<SyncAction, IconType> = {
  created: IconCirclePlus,
  updated: IconPencil,
  completed: IconCircleCheck,
  deleted: IconTrash,
  skipped: IconPlayerSkipForward,
  held: IconHandStop,
  kept: IconUnlink,
};

const SIDE_ICONS: Record<string, IconType> = { Todoist: IconChecklist, Calendar: IconCalendarEvent };

type Props = {
  entries: SyncActivityEntry[];
  /** The sandbox's narrow column: smaller type, each entry on two lines. */
  compact?: boolean;
  /** The list's accessible name. */
  label?: string;
};

/** What the sync did, newest first: when, which way, what, and the provider ids (never task or event text). */
export function SyncActivityList({ entries, compact = false, label = 'Recent sync actions' }: Props) {
  return (
    <Stack
      component="ul"
      gap={compact ? 4 : 'xs'}
      m={0}
      p={0}
      style={{ listStyle: 'none' }}
      aria-label={label}
    >
      {entries.map((entry) => (
        <li
          key={entry.id}
          style={{ padding: '4px 0', borderBottom: '1px solid var(--mantine-color-default-border)' }}
        >
          <EntryRow entry={entry} compact={compact} />
        </li>
      ))}
    </Stack>
  );
}

/**
 * Wide: one line, the ids kept together at the end. Compact: when and what with the direction on the
 * first line, the ids on the second.
 */
function EntryRow({ entry, compact }: { entry: SyncActivityEntry; compact: boolean }) {
  const size = compact ? 'xs' : 'sm';
  const what = (
    <Group gap="sm" wrap="nowrap">
      <Text
        component="time"
        dateTime={entry.at}
        title={formatFullTime(entry.at)}
        size={size}
        ff="monospace"
        style={{ whiteSpace: 'nowrap' }}
      >
        {formatActivityTime(entry.at)}
      </Text>
      <ActionText action={entry.action} detail={entry.detail} compact={compact} />
    </Group>
  );
  const ids = (
    <Group gap={compact ? 'xs' : 'md'} wrap="nowrap">
      <ProviderId label="Task" id={entry.taskId} compact={compact} />
      <ProviderId label="Event" id={entry.eventId} compact={compact} />
    </Group>
  );
  if (compact) {
    return (
      <Stack gap={2}>
        <Group gap={4} wrap="wrap" justify="space-between">
          {what}
          <DirectionText direction={entry.direction} compact />
        </Group>
        {ids}
      </Stack>
    );
  }
  return (
    <Group gap="md" wrap="wrap" justify="space-between" style={{ rowGap: 4 }}>
      {what}
      <Group gap="md" wrap="wrap" style={{ rowGap: 4 }}>
        <DirectionText direction={entry.direction} />
        {ids}
      </Group>
    </Group>
  );
}

function ActionText({
  action,
  detail,
  compact,
}: {
  action: SyncAction;
  detail: string | null;
  compact: boolean;
}) {
  const Icon = ACTION_ICONS[action];
  const words = detailLabel(detail);
  return (
    <Group gap={4} wrap="nowrap">
      <Icon size={compact ? 14 : 16} aria-hidden style={{ flexShrink: 0 }} />
      <Text size={compact ? 'xs' : 'sm'} fw={600}>
        {actionLabel(action)}
        {words && (
          <Text span inherit fw={400} c="dimmed">
            {' '}
            ({words})
          </Text>
        )}
      </Text>
    </Group>
  );
}

/** The two sides as icons and words; the arrow is read as 'to'. */
export function DirectionText({
  direction,
  compact = false,
}: {
  direction: SyncDirection;
  compact?: boolean;
}) {
  const { from, to } = DIRECTION_SIDES[direction];
  const size = compact ? 14 : 16;
  const From = SIDE_ICONS[from] ?? IconChecklist;
  const To = SIDE_ICONS[to] ?? IconCalendarEvent;
  return (
    <Text
      size={compact ? 'xs' : 'sm'}
      component="span"
      style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}
    >
      <From size={size} aria-hidden />
      {from}
      <IconArrowRight size={size} aria-hidden />
      <VisuallyHidden>to</VisuallyHidden>
      <To size={size} aria-hidden />
      {to}
    </Text>
  );
}

function ProviderId({ label, id, compact }: { label: string; id: string | null; compact: boolean }) {
  return (
    <Text size={compact ? 'xs' : 'sm'} c="dimmed" component="span">
      {label}{' '}
      {id ? (
        <Text
          component="abbr"
          inherit
          c="var(--mantine-color-text)"
          ff="monospace"
          title={id}
          style={{ textDecoration: 'none' }}
        >
          {shortId(id)}
        </Text>
      ) : (
        'none'
      )}
    </Text>
  );
}
