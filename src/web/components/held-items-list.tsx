import { Anchor, Box, Button, Group, List, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { ActivityNames } from '#shared/api/activity-names.schema.ts';
import { idsText, namedItem } from '../lib/activity-groups.ts';
import { errorMessage } from '../lib/api-client.ts';
import { formatWhen } from '../lib/date-time-format.ts';
import {
  HELD_REMOVALS_TEXT,
  type HeldRemovalItem,
  type HeldRemovals,
  removeItemConsequence,
  removeItemQuestion,
} from '../lib/held-removals.ts';
import { useChooseHeldRemovals } from '../lib/sync-activity.ts';
import { shortId } from '../lib/sync-activity-format.ts';
import { useDisplayZone } from '../lib/time-zone.ts';
import { RemoveConfirmation } from './remove-confirmation.tsx';

/** The held items listed at first; the rest behind "Show all". */
const FIRST_SHOWN = 8;

type Props = {
  held: HeldRemovals;
  /** The held items' titles and times, read live; undefined while they are read. */
  names: ActivityNames | undefined;
  /** A choice for all is made (or being saved): the items' own buttons are gone. */
  allChosen: boolean;
};

/**
 * Each held item by its name and time (by id while names are read), with its own Remove (after a
 * confirmation naming it) and Keep; the first few, then all on request.
 */
export function HeldItemsList({ held, names, allChosen }: Props) {
  const [all, setAll] = useState(false);
  const total = held.events + held.tasks;
  const shown = all ? held.items : held.items.slice(0, FIRST_SHOWN);
  const notLogged = Math.max(0, total - held.items.length);
  if (held.items.length === 0) return null;
  return (
    <Stack gap={2} w="100%">
      <List
        size="sm"
        spacing={6}
        aria-label="Held back"
        listStyleType="none"
        styles={{ itemWrapper: { width: '100%' }, itemLabel: { width: '100%' } }}
      >
        {shown.map((item) => (
          <HeldItemRow
            key={`${item.taskId} ${item.eventId}`}
            item={item}
            names={names}
            allChosen={allChosen}
          />
        ))}
      </List>
      {!all && held.items.length > FIRST_SHOWN && (
        <Anchor component="button" type="button" size="sm" onClick={() => setAll(true)}>
          Show all {held.items.length}
        </Anchor>
      )}
      {notLogged > 0 && (
        <Text size="xs" c="dimmed">
          and {notLogged} more not listed
        </Text>
      )}
    </Stack>
  );
}

type RowProps = { item: HeldRemovalItem; names: ActivityNames | undefined; allChosen: boolean };

/** One held item: its name and time, and its own choice (saved by a call of its own). */
function HeldItemRow({ item, names, allChosen }: RowProps) {
  const choose = useChooseHeldRemovals();
  const [confirming, setConfirming] = useState(false);
  const { timeZone } = useDisplayZone();
  const named = namedItem({ ...item, action: 'held' }, names);
  // What the item is called on its buttons and in its confirmation: its title, else the id shown.
  const fallback = `${item.taskId ? 'Task' : 'Event'} ${shortId(item.taskId ?? item.eventId ?? '')}`;
  const label = named.title ?? fallback;
  const pending = item.choice ?? (choose.isPending ? choose.variables.choice : null);
  const send = (choice: 'remove' | 'keep') =>
    choose.mutate({ choice, items: [{ taskId: item.taskId, eventId: item.eventId }] });
  return (
    <List.Item>
      <Group gap={6} justify="space-between" wrap="wrap" align="center">
        <Box component="span" title={idsText(item)} style={{ flex: '1 1 10rem', minWidth: 0 }}>
          {named.title ?? (
            <Text span inherit c="dimmed">
              {fallback}
            </Text>
          )}
          {named.when && (
            <Text span inherit c="dimmed">
              {' '}
              ({formatWhen(named.when, timeZone)})
            </Text>
          )}
        </Box>
        {pending ? (
          <Text size="xs" fw={600} role="status">
            {HELD_REMOVALS_TEXT.itemPending[pending]}
          </Text>
        ) : (
          !allChosen && (
            <Group gap={6} wrap="nowrap">
              <Button
                size="compact-sm"
                variant="light"
                color="red"
                aria-label={`Remove ${label}`}
                onClick={() => setConfirming(true)}
              >
                Remove
              </Button>
              <Button
                size="compact-sm"
                variant="default"
                aria-label={`Keep ${label}`}
                onClick={() => send('keep')}
              >
                Keep
              </Button>
            </Group>
          )
        )}
      </Group>
      {choose.isError && (
        <Text size="xs" c="red.8" role="alert">
          {errorMessage(choose.error)}
        </Text>
      )}
      <RemoveConfirmation
        opened={confirming}
        question={removeItemQuestion(label)}
        consequences={[removeItemConsequence(item)]}
        confirm="Remove"
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          send('remove');
        }}
      />
    </List.Item>
  );
}
