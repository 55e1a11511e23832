import { SimpleGrid, Stack, Text } from '@mantine/core';
import type { TodoSettings } from '#shared/api/current-user.schema.ts';
import { SaveStatus } from '../../components/save-status.tsx';
import { SectionCard } from '../../components/section-card.tsx';
import { sectionIds } from '../../lib/paths.ts';
import { useSaveStatus } from '../../lib/save-status.ts';
import { DatedTasksChoice } from './components/dated-tasks-choice.tsx';
import { EventProjectSelect } from './components/event-project-select.tsx';
import { MissingProjectsAlert } from './components/missing-projects-alert.tsx';
import { ProjectScopeForm } from './components/project-scope-form.tsx';

/**
 * What syncs (docs/product-rules.md §10 "Projects"): which Todoist projects' tasks sync, the project
 * new tasks from calendar events go to, and what becomes of tasks with a date but no time. The projects
 * are a form saved with "Save projects", which says "Saved" beside it; the other two save on change, and
 * the title says "Saved". Both confirmations live here, as a saved choice of projects remounts its form.
 */
export function WhatSyncsSection({ todo }: { todo: TodoSettings }) {
  const disabled = !todo.connected;
  const { mode, projectIds } = todo.projectScope;
  const status = useSaveStatus();
  const projectsStatus = useSaveStatus();
  return (
    <SectionCard title="What syncs" id={sectionIds.whatSyncs} status={<SaveStatus status={status} />}>
      {disabled ? (
        <Text size="sm" fw={500}>
          Connect Todoist in the Integrations above to choose which projects sync. Your Todoist projects
          appear here once Todoist is connected.
        </Text>
      ) : (
        todo.projects.length === 0 && (
          // Connected before projects were read (or the read failed): the dashboard's refresh reads them.
          <Text size="sm" c="dimmed">
            Your Todoist projects appear here once Timeboxer has read them from Todoist.
          </Text>
        )
      )}
      <MissingProjectsAlert todo={todo} where="card" />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xl" verticalSpacing="lg">
        {/* A saved answer (a new key) starts a fresh draft from it. */}
        <ProjectScopeForm
          key={`${mode}:${projectIds.join(',')}`}
          todo={todo}
          disabled={disabled || todo.projects.length === 0}
          status={projectsStatus}
        />
        <Stack gap="lg">
          <EventProjectSelect todo={todo} disabled={disabled} status={status} />
          <DatedTasksChoice todo={todo} disabled={disabled} status={status} />
        </Stack>
      </SimpleGrid>
    </SectionCard>
  );
}
