import { Button, Card, Group, Modal, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import type { SandboxTask } from '#shared/api/sandbox.schema.ts';
import { sandboxCalls, useSandboxChange, useSandboxTodoist } from '../sandbox-api.ts';
import { AccountEmailInput, useAccountEmail } from './account-email-input.tsx';
import { ItemList } from './item-list.tsx';
import { LabelList } from './label-list.tsx';
import { ChangeFailedAlert, ReadStatus } from './panel-status.tsx';
import { ProjectList } from './project-list.tsx';
import { TaskForm, type TaskFormValues } from './task-form.tsx';
import { TaskRow } from './task-row.tsx';

/**
 * An emulated Todoist account, first the one the visitor connected: its active tasks, projects and
 * labels, and the changes a person would make.
 */
export function TodoistPanel({ initialEmail }: { initialEmail: string }) {
  const { email: typed, setEmail, account: email } = useAccountEmail(initialEmail);
  const todoist = useSandboxTodoist(email);
  const [editing, setEditing] = useState<SandboxTask | 'new' | null>(null);
  const add = useSandboxChange('todoist', sandboxCalls.addTask);
  const update = useSandboxChange('todoist', sandboxCalls.updateTask);
  const complete = useSandboxChange('todoist', sandboxCalls.completeTask);
  const remove = useSandboxChange('todoist', sandboxCalls.deleteTask);
  const projectNames = new Map(todoist.data?.projects.map((project) => [project.id, project.name]));

  const save = (values: TaskFormValues) => {
    const done = { onSuccess: () => setEditing(null) };
    if (editing === 'new') add.mutate({ email, ...values }, done);
    else if (editing) update.mutate({ id: editing.id, email, ...values }, done);
  };

  return (
    <Card withBorder padding="lg" component="section" aria-label="Todoist">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h3">
          Todoist
        </Title>
        <Button size="xs" leftSection={<IconPlus size={14} />} onClick={() => setEditing('new')}>
          Add task
        </Button>
      </Group>
      <AccountEmailInput label="Todoist account e-mail" value={typed} onChange={setEmail} />
      <ChangeFailedAlert changes={[add, update, complete, remove]} />
      <ReadStatus
        query={todoist}
        loadingLabel="Loading tasks"
        failedText="The emulated Todoist could not be read"
      />
      {todoist.data && todoist.data.tasks.length === 0 && <Text c="dimmed">No open tasks.</Text>}
      <ItemList busy={todoist.isPlaceholderData} gap="xs">
        {todoist.data?.tasks.map((task) => (
          <TaskRow
            key={task.id}
            task={task}
            projectName={projectNames.get(task.projectId)}
            onComplete={() => complete.mutate({ email, id: task.id })}
            onEdit={() => setEditing(task)}
            onDelete={() => remove.mutate({ email, id: task.id })}
          />
        ))}
      </ItemList>
      {todoist.data && (
        <ProjectList
          email={email}
          projects={todoist.data.projects}
          archived={todoist.data.archivedProjects}
          tasks={todoist.data.tasks}
          busy={todoist.isPlaceholderData}
        />
      )}
      {todoist.data && (
        <LabelList
          email={email}
          labels={todoist.data.labels}
          tasks={todoist.data.tasks}
          busy={todoist.isPlaceholderData}
        />
      )}
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? 'New task' : 'Edit task'}
      >
        {editing !== null && (
          <TaskForm
            task={editing === 'new' ? undefined : editing}
            knownLabels={todoist.data?.labels.map((label) => label.name) ?? []}
            // Another account's projects, shown until the chosen one's are read, are not offered.
            projects={todoist.isPlaceholderData ? [] : (todoist.data?.projects ?? [])}
            submitLabel={editing === 'new' ? 'Add task' : 'Save task'}
            busy={add.isPending || update.isPending}
            onSubmit={save}
          />
        )}
      </Modal>
    </Card>
  );
}
