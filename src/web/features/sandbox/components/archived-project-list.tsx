import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconRestore } from '@tabler/icons-react';
import { useId } from 'react';
import type { SandboxArchivedProject } from '#shared/api/sandbox.schema.ts';
import { sandboxCalls, useSandboxChange } from '../sandbox-api.ts';
import { ItemList } from './item-list.tsx';
import { ChangeFailedAlert } from './panel-status.tsx';

type Props = {
  email: string;
  projects: SandboxArchivedProject[];
  /** Another account's projects, shown until the chosen one's are read: not to be changed. */
  busy: boolean;
};

/** The archived projects, out of the lists with their tasks; unarchiving brings a project back alone. */
export function ArchivedProjectList({ email, projects, busy }: Props) {
  const headingId = useId();
  const unarchive = useSandboxChange('todoist', sandboxCalls.unarchiveProject);
  return (
    <Stack component="section" aria-labelledby={headingId} gap={4} mt={4}>
      <Title id={headingId} order={4} size="h6" fw={600}>
        Archived projects
      </Title>
      <ChangeFailedAlert changes={[unarchive]} />
      <ItemList busy={busy}>
        {projects.map((project) => (
          <Group key={project.id} component="li" justify="space-between" wrap="nowrap" gap="xs" mih={28}>
            <Text size="sm" c="dimmed" truncate>
              #{project.name}
            </Text>
            <Button
              size="compact-sm"
              variant="subtle"
              leftSection={<IconRestore size={14} />}
              aria-label={`Unarchive project ${project.name}`}
              onClick={() => unarchive.mutate({ id: project.id, email })}
              loading={unarchive.isPending && unarchive.variables?.id === project.id}
              disabled={busy}
              style={{ flexShrink: 0 }}
            >
              Unarchive
            </Button>
          </Group>
        ))}
      </ItemList>
    </Stack>
  );
}
