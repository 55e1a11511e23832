import { Card, Loader, Select, Stack, Switch, Text } from '@mantine/core';
import type { TodoSettings } from '#shared/api/current-user.schema.ts';
import { canUseTaskDuration, isConnected, taskDurationOptions } from '#shared/settings/rules.ts';
import { ChangePreviewModal } from '../../../components/change-preview.tsx';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { useConfirmedChange } from '../../../lib/change-preview.ts';
import { useSaveStatus } from '../../../lib/save-status.ts';
import { useUserChange } from '../../../lib/user-change.ts';
import { timeboxCalls } from '../timebox-api.ts';
import { CardHeader } from './card-header.tsx';

/**
 * Todoist's own task durations instead of labels; Premium and Business only (docs/product-rules.md §5).
 * Both controls save on change (the switch after its preview while sync is on); the title says "Saved".
 */
export function TaskDurationCard({ todo }: { todo: TodoSettings }) {
  const status = useSaveStatus();
  const setActive = useUserChange(timeboxCalls.setTaskDurationActive, { status });
  const setLabel = useUserChange(timeboxCalls.setTaskDurationLabel, { status });
  const confirmation = useConfirmedChange();
  const allowed = isConnected(todo) && canUseTaskDuration(todo.accountType);
  const active = setActive.isPending ? setActive.variables : todo.taskDurationSettings.active;
  const label = setLabel.isPending ? setLabel.variables : todo.taskDurationSettings.label;

  return (
    <Card withBorder p={{ base: 'xs', sm: 'md' }} component="article" aria-labelledby="task-durations-title">
      <Stack gap="sm">
        <CardHeader title="Task durations" titleId="task-durations-title" status={status}>
          {!canUseTaskDuration(todo.accountType) && (
            <StatusBadge tone="warning">Requires Todoist Premium or Business</StatusBadge>
          )}
        </CardHeader>
        <Text size="sm">
          Use the duration you give a task in Todoist instead of timebox labels. While this is on, the timebox
          settings below are not used.
        </Text>
        <Switch
          label="Use Todoist task durations"
          checked={active}
          disabled={!allowed || setActive.isPending}
          onChange={(event) => {
            const on = event.currentTarget.checked;
            confirmation.ask(
              {
                title: on ? 'Use Todoist task durations?' : 'Use timebox labels again?',
                query: { change: 'taskDuration', active: on ? 'true' : 'false' },
                calendarName: null,
              },
              () => setActive.mutate(on),
            );
          }}
          thumbIcon={setActive.isPending ? <Loader size={10} color="gray" aria-hidden /> : undefined}
          aria-busy={setActive.isPending}
        />
        <Select
          label="Tasks to sync"
          description="All tasks with a duration, or only those with one label."
          placeholder="Choose which tasks to sync"
          data={taskDurationOptions(todo.labels)}
          value={label}
          onChange={(value) => value && setLabel.mutate(value)}
          allowDeselect={false}
          disabled={!allowed || !active || setLabel.isPending}
          loading={setLabel.isPending}
          maw={420}
        />
      </Stack>
      <ChangePreviewModal confirmation={confirmation} />
    </Card>
  );
}
