import { Alert, Button, Group, List, Stack, Text } from '@mantine/core';
import { IconHandStop } from '@tabler/icons-react';
import { HELD_REMOVALS_TEXT, type HeldRemovals, heldRemovalsTitle } from '../lib/held-removals.ts';
import { useChooseHeldRemovals } from '../lib/sync-activity.ts';
import { formatActivityTime, formatFullTime } from '../lib/sync-activity-format.ts';

/**
 * The safety brake's question: many removals at once were held back; the user removes them or keeps
 * both sides (docs/product-rules.md §10). Shown on the dashboard and on /sandbox.
 */
export function HeldRemovalsAlert({ held }: { held: HeldRemovals }) {
  const choose = useChooseHeldRemovals();
  const pending = held.choice ?? (choose.isPending ? choose.variables : null);
  return (
    <Alert
      variant="light"
      color="orange"
      title={heldRemovalsTitle(held)}
      icon={<IconHandStop aria-hidden />}
      role="status"
      styles={{ title: { color: 'var(--mantine-color-text)' } }}
    >
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{HELD_REMOVALS_TEXT.why}</Text>
        <List size="sm" spacing={2}>
          <List.Item>{HELD_REMOVALS_TEXT.remove}</List.Item>
          <List.Item>{HELD_REMOVALS_TEXT.keep}</List.Item>
        </List>
        <Text size="xs">
          Since{' '}
          <time dateTime={held.since} title={formatFullTime(held.since)}>
            {formatActivityTime(held.since)}
          </time>
        </Text>
        {pending ? (
          <Text size="sm" fw={600}>
            {HELD_REMOVALS_TEXT.pending[pending]}
          </Text>
        ) : (
          <Group gap="xs" grow w="100%" maw={320}>
            <Button size="xs" color="red" onClick={() => choose.mutate('remove')}>
              Remove them
            </Button>
            <Button size="xs" variant="default" onClick={() => choose.mutate('keep')}>
              Keep them
            </Button>
          </Group>
        )}
        {choose.isError && (
          <Text size="sm" c="red.8" role="alert">
            Your choice could not be saved. Please try again.
          </Text>
        )}
      </Stack>
    </Alert>
  );
}
