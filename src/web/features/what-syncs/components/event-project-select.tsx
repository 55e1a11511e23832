import { Group, Select, Stack, Text } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import type { TodoSettings } from '#shared/api/current-user.schema.ts';
import type { SaveReporter } from '../../../lib/save-status.ts';
import { useUserChange } from '../../../lib/user-change.ts';
import {
  effectiveEventProject,
  eventProjectNote,
  eventProjectOptions,
  noProjectSyncs,
  toEventProjectId,
} from '../event-project.ts';
import { whatSyncsCalls } from '../what-syncs-api.ts';

const INDENT_PX = 16;

type Props = {
  todo: Pick<TodoSettings, 'projects' | 'projectScope' | 'eventProjectId'>;
  disabled: boolean;
  /** The card's confirmation. */
  status: SaveReporter;
};

/** "New tasks from events go to": one of the projects that sync, saved on choice. */
export function EventProjectSelect({ todo, disabled, status }: Props) {
  // The option chosen is the mutation's variable, so the select shows it while it saves.
  const save = useUserChange(
    (value: string) => whatSyncsCalls.setEventProject(toEventProjectId(todo, value)),
    { errorTitle: 'Project not saved', status },
  );
  const options = eventProjectOptions(todo);
  const depthOf = new Map(options.map((option) => [option.value, option.depth]));
  const effective = effectiveEventProject(todo);
  const note = eventProjectNote(todo);
  const none = noProjectSyncs(todo);

  return (
    <Stack gap={6}>
      <Select
        label="New tasks from events go to"
        description="New events in your calendar become tasks in this project."
        placeholder={
          none ? 'No project syncs' : options.length === 0 ? 'No projects yet' : 'Choose a project'
        }
        data={options}
        value={save.isPending ? save.variables : effective}
        onChange={(value) => {
          if (value && value !== effective) save.mutate(value);
        }}
        allowDeselect={false}
        disabled={disabled || none || options.length === 0 || save.isPending}
        loading={save.isPending}
        renderOption={({ option, checked }) => (
          <Group gap="xs" justify="space-between" wrap="nowrap" w="100%">
            <Text size="sm" style={{ paddingInlineStart: (depthOf.get(option.value) ?? 0) * INDENT_PX }}>
              {option.label}
            </Text>
            {checked && <IconCheck size={16} aria-hidden />}
          </Group>
        )}
      />
      {note && (
        <Text size="xs" c="dimmed">
          {note}
        </Text>
      )}
    </Stack>
  );
}
