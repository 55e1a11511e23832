import { Alert, Anchor, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { TodoSettings } from '#shared/api/current-user.schema.ts';
import { sectionIds } from '../../../lib/paths.ts';
import { missingProjectsText } from '../missing-projects.ts';

type Props = {
  todo: Pick<TodoSettings, 'projects' | 'projectScope'>;
  /** In the What syncs card the choice is just below; elsewhere (the dashboard's Status) a link leads there. */
  where: 'card' | 'status';
};

/** Chosen projects archived or deleted in Todoist, named; nothing while none is. */
export function MissingProjectsAlert({ todo, where }: Props) {
  const text = missingProjectsText(todo);
  if (!text) return null;
  return (
    <Alert variant="light" color="orange" icon={<IconAlertTriangle aria-hidden />} role="status" p="sm">
      <Text size="sm">
        {text}{' '}
        {where === 'card' ? (
          'Choose again below.'
        ) : (
          <Anchor href={`#${sectionIds.whatSyncs}`} fw={600} underline="always" c="inherit">
            Choose again in What syncs
          </Anchor>
        )}
      </Text>
    </Alert>
  );
}
