import { ActionIcon, Button, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { IconArchive, IconPlus } from '@tabler/icons-react';
import { useId, useState } from 'react';
import type { SandboxArchivedProject, SandboxProject, SandboxTask } from '#shared/api/sandbox.schema.ts';
import { openTaskCount, PROJECT_INDENT_PX, projectDepths } from '../project-tree.ts';
import { sandboxCalls, useSandboxChange } from '../sandbox-api.ts';
import { ArchivedProjectList } from './archived-project-list.tsx';
import { DeleteItemButton, EditItemButton, ItemList } from './item-list.tsx';
import { ChangeFailedAlert } from './panel-status.tsx';
import { ProjectDeleteConfirm } from './project-delete-confirm.tsx';
import { ProjectForm } from './project-form.tsx';

type Props = {
  email: string;
  /** The active projects, in Todoist's order (the Inbox first, each parent before its sub-projects). */
  projects: SandboxProject[];
  archived: SandboxArchivedProject[];
  /** The open tasks, to tell how many each project holds. */
  tasks: SandboxTask[];
  /** Another account's projects, shown until the chosen one's are read: not to be changed. */
  busy: boolean;
};

type Dialog = { kind: 'add' } | { kind: 'rename' | 'delete'; project: SandboxProject } | null;

/** The account's Todoist projects: added, renamed, archived (and back) and deleted as in Todoist. */
export function ProjectList({ email, projects, archived, tasks, busy }: Props) {
  const headingId = useId();
  const [dialog, setDialog] = useState<Dialog>(null);
  const add = useSandboxChange('todoist', sandboxCalls.addProject);
  const rename = useSandboxChange('todoist', sandboxCalls.renameProject);
  const remove = useSandboxChange('todoist', sandboxCalls.deleteProject);
  const archive = useSandboxChange('todoist', sandboxCalls.archiveProject);
  const depths = projectDepths(projects);
  const close = () => setDialog(null);
  const open = (next: NonNullable<Dialog>) => {
    for (const change of [add, rename, remove]) change.reset();
    setDialog(next);
  };
  const pending = add.isPending || rename.isPending || remove.isPending;

  return (
    <Stack component="section" aria-labelledby={headingId} gap="xs" mt="lg">
      <Group justify="space-between" gap="xs">
        <Title id={headingId} order={3} size="h5">
          Projects
        </Title>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconPlus size={14} />}
          onClick={() => open({ kind: 'add' })}
          disabled={busy}
        >
          Add project
        </Button>
      </Group>
      <ChangeFailedAlert changes={[archive]} />
      <ItemList busy={busy}>
        {projects.map((project) => (
          <Group key={project.id} component="li" justify="space-between" wrap="nowrap" gap="xs" mih={28}>
            <Group
              gap={6}
              wrap="nowrap"
              style={{ minWidth: 0, paddingInlineStart: (depths.get(project.id) ?? 0) * PROJECT_INDENT_PX }}
            >
              <Text size="sm" truncate>
                #{project.name}
              </Text>
              <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
                {openTaskCount(tasks.filter((task) => task.projectId === project.id).length)}
              </Text>
            </Group>
            {/* Todoist keeps every account's Inbox: it cannot be renamed, archived or deleted. */}
            {!project.inbox && (
              <Group gap={4} wrap="nowrap">
                <EditItemButton
                  label={`Rename project ${project.name}`}
                  onClick={() => open({ kind: 'rename', project })}
                  disabled={busy}
                />
                <ActionIcon
                  variant="subtle"
                  aria-label={`Archive project ${project.name}`}
                  onClick={() => archive.mutate({ id: project.id, email })}
                  loading={archive.isPending && archive.variables?.id === project.id}
                  disabled={busy}
                >
                  <IconArchive size={16} />
                </ActionIcon>
                <DeleteItemButton
                  label={`Delete project ${project.name}`}
                  onClick={() => open({ kind: 'delete', project })}
                  disabled={busy}
                />
              </Group>
            )}
          </Group>
        ))}
      </ItemList>
      {archived.length > 0 && <ArchivedProjectList email={email} projects={archived} busy={busy} />}
      <Modal
        opened={dialog?.kind === 'add' || dialog?.kind === 'rename'}
        onClose={() => !pending && close()}
        title={dialog?.kind === 'rename' ? 'Rename project' : 'New project'}
        centered
      >
        {dialog?.kind === 'add' && (
          <ProjectForm
            parents={projects.filter((project) => !project.inbox)}
            busy={add.isPending}
            error={add.error}
            onSubmit={(values) => add.mutate({ email, ...values }, { onSuccess: close })}
            onCancel={close}
          />
        )}
        {dialog?.kind === 'rename' && (
          <ProjectForm
            project={dialog.project}
            parents={[]}
            busy={rename.isPending}
            error={rename.error}
            onSubmit={({ name }) =>
              rename.mutate({ id: dialog.project.id, email, name }, { onSuccess: close })
            }
            onCancel={close}
          />
        )}
      </Modal>
      <Modal
        opened={dialog?.kind === 'delete'}
        onClose={() => !pending && close()}
        title="Delete project?"
        centered
      >
        {dialog?.kind === 'delete' && (
          <ProjectDeleteConfirm
            project={dialog.project}
            busy={remove.isPending}
            error={remove.error}
            onConfirm={() => remove.mutate({ id: dialog.project.id, email }, { onSuccess: close })}
            onCancel={close}
          />
        )}
      </Modal>
    </Stack>
  );
}
