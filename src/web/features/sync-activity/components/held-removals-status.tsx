import { Alert, Anchor, Text } from '@mantine/core';
import { IconHandStop } from '@tabler/icons-react';
import { heldRemovalsTitle, heldSentence } from '#shared/sync/held-removals.ts';
import { decisionWaits } from '../../../lib/held-removals.ts';
import { sectionIds } from '../../../lib/paths.ts';
import { useSyncActivity } from '../../../lib/sync-activity.ts';

/**
 * In the Status row, first on every screen: the sync waits for the user's decision on removals the
 * safety brake held back, with a link to the card that names them.
 */
export function HeldRemovalsStatus({ syncActive }: { syncActive: boolean }) {
  const activity = useSyncActivity({ refetchMs: false, enabled: syncActive });
  const held = activity.data?.heldRemovals;
  if (!syncActive || !held || !decisionWaits(held)) return null;
  return (
    <Alert
      variant="light"
      color="orange"
      icon={<IconHandStop aria-hidden />}
      title="Sync waits for your decision"
    >
      <Text size="sm">
        {held.cause ? heldSentence(held) : `${heldRemovalsTitle(held)}.`}{' '}
        <Anchor
          href={`#${sectionIds.syncActivity}`}
          inherit
          underline="always"
          fw={600}
          c="var(--mantine-color-text)"
        >
          See what and decide
        </Anchor>
      </Text>
    </Alert>
  );
}
