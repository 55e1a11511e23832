import { Stack } from '@mantine/core';
import type { TodoSettings } from '#shared/api/current-user.schema.ts';
import { SectionCard } from '../../components/section-card.tsx';
import { TaskDurationCard } from './components/task-duration-card.tsx';
import { TimeboxTable } from './components/timebox-table.tsx';

export function TimeboxSettingsSection({ todo }: { todo: TodoSettings }) {
  return (
    <SectionCard title="Time Box Settings" id="timebox-settings">
      <Stack gap="md">
        <TaskDurationCard todo={todo} />
        <TimeboxTable todo={todo} />
      </Stack>
    </SectionCard>
  );
}
