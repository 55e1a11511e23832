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
import type { ActivityNames } from '#shared/api/activity-names.schema.ts';
import type { SyncAction, SyncActivityEntry, SyncDirection } from '#shared/api/sync.schema.ts';
import {
  type ActivityGroup,
  detailWords,
  groupHeadline,
  groupRuns,
  idsText,
  namedItem,
} from '../lib/activity-groups.ts';
import { formatWhen } from '../lib/date-time-format.ts';
import { DIRECTION_SIDES, formatActivityTime, formatFullTime, shortId } from '../lib/sync-activity-format.ts';
import { useDisplayZone } from '../lib/time-zone.ts';

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
  /** The items' titles and times, read live; undefined while they are read (items show by id). */
  names: ActivityNames | undefined;
  /** The sandbox's narrow column: smaller type. */
  compact?: boolean;
  /** The list's accessible name. */
  label?: string;
};

/** What the sync did, newest first: a run's items of one kind on one line, each by its name. */
export function SyncActivityList({ entries, names, compact = false, label = 'Recent sync actions' }: Props) {
  return (
    <Stack
      component="ul"
      gap={compact ? 4 : 'xs'}
      m={0}
      p={0}
      style={{ listStyle: 'none' }}
      aria-label={label}
    >
      {groupRuns(entries).map((group) => (
        <li
          key={group.key}
          style={{ padding: '4px 0', borderBottom: '1px solid var(--mantine-color-default-border)' }}
        >
          <GroupRow group={group} names={names} compact={compact} />
        </li>
      ))}
    </Stack>
  );
}

/** First line: when, what (with the direction); then the items by name. */
function GroupRow({
  group,
  names,
  compact,
}: {
  group: ActivityGroup;
  names: ActivityNames | undefined;
  compact: boolean;
}) {
  const size = compact ? 'xs' : 'sm';
  const { timeZone } = useDisplayZone();
  const Icon = ACTION_ICONS[group.action];
  const why = detailWords(group.detail);
  return (
    <Stack gap={2}>
      <Group gap="sm" wrap="wrap" justify="space-between" style={{ rowGap: 2 }}>
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <Text
            component="time"
            dateTime={group.at}
            title={formatFullTime(group.at, timeZone)}
            size={size}
            ff="monospace"
            style={{ whiteSpace: 'nowrap' }}
          >
            {formatActivityTime(group.at, timeZone)}
          </Text>
          <Group gap={4} wrap="nowrap" align="flex-start">
            <Icon size={compact ? 14 : 16} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
            <Text size={size} fw={600}>
              {groupHeadline(group)}
              {why && (
                <Text span inherit fw={400} c="dimmed">
                  {' '}
                  ({why})
                </Text>
              )}
            </Text>
          </Group>
        </Group>
        <DirectionText direction={group.direction} compact={compact} />
      </Group>
      <Text size={size} component="div" pl={compact ? 0 : 'xl'}>
        {group.entries.map((entry, index) => (
          <span key={entry.id}>
            {index > 0 && ', '}
            <ItemText entry={entry} names={names} />
          </span>
        ))}
      </Text>
    </Stack>
  );
}

/** An item by its title and time; by its id while its name is not known. The ids stay in the tooltip. */
function ItemText({ entry, names }: { entry: SyncActivityEntry; names: ActivityNames | undefined }) {
  const item = namedItem(entry, names);
  const ids = idsText(entry);
  const { timeZone } = useDisplayZone();
  if (item.title === null) {
    const id = entry.taskId ?? entry.eventId;
    return (
      <Text span inherit c="dimmed" title={ids}>
        {entry.taskId ? 'Task' : 'Event'}{' '}
        <span style={{ fontFamily: 'monospace' }}>{id ? shortId(id) : ''}</span>
      </Text>
    );
  }
  return (
    <Text span inherit title={ids} fs={item.gone ? 'italic' : undefined} c={item.gone ? 'dimmed' : undefined}>
      {item.title}
      {item.when && (
        <Text span inherit c="dimmed">
          {' '}
          ({formatWhen(item.when, timeZone)})
        </Text>
      )}
    </Text>
  );
}

/** The two sides as icons and words; the arrow is read as 'to'. */
function DirectionText({ direction, compact = false }: { direction: SyncDirection; compact?: boolean }) {
  const { from, to } = DIRECTION_SIDES[direction];
  const size = compact ? 14 : 16;
  const From = SIDE_ICONS[from] ?? IconChecklist;
  const To = SIDE_ICONS[to] ?? IconCalendarEvent;
  return (
    <Text
      size={compact ? 'xs' : 'sm'}
      c="dimmed"
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
