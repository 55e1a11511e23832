import { Alert, Button, Group, List, Stack, Text } from '@mantine/core';
import { IconHandStop } from '@tabler/icons-react';
import { useState } from 'react';
import type { ActivityNames } from '#shared/api/activity-names.schema.ts';
import { heldRemovalsTitle, heldSentence } from '#shared/sync/held-removals.ts';
import {
  HELD_REMOVALS_TEXT,
  type HeldRemovals,
  removeConsequences,
  removeQuestion,
  stillHeld,
} from '../lib/held-removals.ts';
import { useChooseHeldRemovals } from '../lib/sync-activity.ts';
import { formatActivityTime, formatFullTime } from '../lib/sync-activity-format.ts';
import { useDisplayZone } from '../lib/time-zone.ts';
import { HeldItemsList } from './held-items-list.tsx';
import { RemoveConfirmation } from './remove-confirmation.tsx';

type Props = {
  held: HeldRemovals;
  /** The held items' titles and times, read live; undefined while they are read. */
  names: ActivityNames | undefined;
};

/**
 * The safety brake's question: many removals at once were held back; the card names each held item,
 * and the user removes or keeps each one, or all still undecided at once (removing after confirming
 * the item or the count; docs/product-rules.md §10). Shown on the dashboard and on /sandbox.
 */
export function HeldRemovalsAlert({ held, names }: Props) {
  const choose = useChooseHeldRemovals();
  const [confirming, setConfirming] = useState(false);
  const { timeZone } = useDisplayZone();
  const pending = held.choice ?? (choose.isPending ? choose.variables.choice : null);
  const rest = stillHeld(held);
  const allDecided = rest.events + rest.tasks === 0;
  return (
    <Alert
      variant="light"
      color="orange"
      title={heldRemovalsTitle(held)}
      icon={<IconHandStop aria-hidden />}
      role="region"
    >
      <Stack gap="xs" align="flex-start">
        {held.cause && (
          <Text size="sm" fw={600}>
            {heldSentence(held)}
          </Text>
        )}
        <Text size="sm">{HELD_REMOVALS_TEXT.why}</Text>
        <HeldItemsList held={held} names={names} allChosen={pending !== null} />
        <List size="sm" spacing={2}>
          <List.Item>{HELD_REMOVALS_TEXT.remove}</List.Item>
          <List.Item>{HELD_REMOVALS_TEXT.keep}</List.Item>
        </List>
        <Text size="xs">
          Held since{' '}
          <time dateTime={held.since} title={formatFullTime(held.since, timeZone)}>
            {formatActivityTime(held.since, timeZone)}
          </time>
        </Text>
        {pending || allDecided ? (
          <Text size="sm" fw={600} role="status">
            {pending ? HELD_REMOVALS_TEXT.pending[pending] : HELD_REMOVALS_TEXT.allDecided}
          </Text>
        ) : (
          <Group gap="xs" wrap="wrap">
            <Button size="sm" color="red" onClick={() => setConfirming(true)}>
              Remove them
            </Button>
            <Button size="sm" variant="default" onClick={() => choose.mutate({ choice: 'keep' })}>
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
      <RemoveConfirmation
        opened={confirming}
        question={removeQuestion(rest)}
        consequences={removeConsequences(rest)}
        confirm={removeQuestion(rest).replace(/\?$/, '')}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          choose.mutate({ choice: 'remove' });
        }}
      />
    </Alert>
  );
}
