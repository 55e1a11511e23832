import { Radio, Stack } from '@mantine/core';
import type { TodoSettings } from '#shared/api/current-user.schema.ts';
import type { DatedTasksSetting } from '#shared/settings/dated-tasks.ts';
import { ChangePreviewModal } from '../../../components/change-preview.tsx';
import { useConfirmedChange } from '../../../lib/change-preview.ts';
import type { SaveReporter } from '../../../lib/save-status.ts';
import { useUserChange } from '../../../lib/user-change.ts';
import { whatSyncsCalls } from '../what-syncs-api.ts';

type Props = {
  todo: Pick<TodoSettings, 'datedTasks'>;
  disabled: boolean;
  /** The card's confirmation. */
  status: SaveReporter;
};

const CHANGE_TITLE: Record<DatedTasksSetting, string> = {
  skip: 'Leave tasks with a date but no time alone?',
  allday: 'Show tasks with a date but no time as all-day events?',
};

/**
 * "Tasks with a date but no time" (docs/product-rules.md §10): left alone, or, when timeboxed, an all-day
 * event on their date. Saved on choice; while sync is on, the change is previewed first and saved on
 * confirmation (cancelled, the saved choice stays).
 */
export function DatedTasksChoice({ todo, disabled, status }: Props) {
  const confirmation = useConfirmedChange();
  // The option chosen is the mutation's variable, so the group shows it while it saves.
  const save = useUserChange(whatSyncsCalls.setDatedTasks, { errorTitle: 'Setting not saved', status });
  const value = save.isPending ? save.variables : todo.datedTasks;

  return (
    <>
      <Radio.Group<DatedTasksSetting>
        label="Tasks with a date but no time"
        value={value}
        onChange={(setting) => {
          if (setting === todo.datedTasks) return;
          confirmation.ask(
            {
              title: CHANGE_TITLE[setting],
              query: { change: 'datedTasks', setting },
              calendarName: null,
            },
            () => save.mutate(setting),
          );
        }}
        disabled={disabled || save.isPending}
        aria-busy={save.isPending}
      >
        <Stack gap="xs" mt="xs">
          <Radio value="skip" label="Left alone" />
          <Radio
            value="allday"
            label="As all-day events"
            description="A timeboxed task with a date but no time gets an all-day event on that date."
          />
        </Stack>
      </Radio.Group>
      <ChangePreviewModal confirmation={confirmation} />
    </>
  );
}
