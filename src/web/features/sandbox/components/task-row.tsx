import { ActionIcon, Badge, Group, Text } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import type { SandboxTask } from '#shared/api/sandbox.schema.ts';
import { formatDay } from '../../../lib/date-time-format.ts';
import { useDisplayZone } from '../../../lib/time-zone.ts';
import { formatDueTime } from '../local-date-time.ts';
import { DeleteItemButton, EditItemButton } from './item-list.tsx';

type Props = {
  task: SandboxTask;
  /** The name of the task's project, as Todoist shows it beside the task. */
  projectName: string | undefined;
  onComplete: () => void;
  onEdit: () => void;
  onDelete: () => void;
};

/**
 * One open task: complete, its name, project, due (a time, or a date with no time), duration and
 * labels, then edit and delete.
 */
export function TaskRow({ task, projectName, onComplete, onEdit, onDelete }: Props) {
  const { timeZone } = useDisplayZone();
  const details = [
    projectName !== undefined && `#${projectName}`,
    task.due &&
      `${task.due.datetime ? formatDueTime(task.due.datetime, timeZone) : `${formatDay(task.due.date)}, no time`}${task.due.isRecurring ? ' · repeats' : ''}`,
    task.durationMinutes && `${task.durationMinutes} min`,
  ].filter(Boolean);
  return (
    <Group component="li" justify="space-between" wrap="nowrap" gap="xs" aria-label={task.content}>
      <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
        <ActionIcon
          variant="default"
          radius="xl"
          aria-label={`Complete ${task.content}`}
          onClick={onComplete}
        >
          <IconCheck size={14} />
        </ActionIcon>
        <div style={{ minWidth: 0 }}>
          <Text size="sm" truncate>
            {task.content}
          </Text>
          <Group gap={4}>
            {details.length > 0 && (
              <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {details.join(' · ')}
              </Text>
            )}
            {task.labels.map((label) => (
              <Badge key={label} size="xs" variant="outline" tt="none">
                @{label}
              </Badge>
            ))}
          </Group>
        </div>
      </Group>
      <Group gap={4} wrap="nowrap">
        <EditItemButton label={`Edit ${task.content}`} onClick={onEdit} />
        <DeleteItemButton label={`Delete ${task.content}`} onClick={onDelete} />
      </Group>
    </Group>
  );
}
