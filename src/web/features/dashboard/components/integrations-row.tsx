import { SimpleGrid } from '@mantine/core';
import type { CurrentUser } from '#shared/api/current-user.schema.ts';
import { SectionCard } from '../../../components/section-card.tsx';
import { CalendarCard } from './calendar-card.tsx';
import { TodoistCard } from './todoist-card.tsx';

export function IntegrationsRow({ user }: { user: CurrentUser }) {
  return (
    <SectionCard title="Integrations">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TodoistCard todo={user.todoSettings} />
        <CalendarCard calendar={user.calendarSettings} />
      </SimpleGrid>
    </SectionCard>
  );
}
