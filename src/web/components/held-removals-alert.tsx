import { Alert, Anchor, Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import { IconHandStop } from '@tabler/icons-react';
import { useState } from 'react';
import type { ActivityNames } from '#shared/api/activity-names.schema.ts';
import { heldRemovalsTitle, heldSentence } from '#shared/sync/held-removals.ts';
import { idsText, namedItem } from '../lib/activity-groups.ts';
import { formatWhen } from '../lib/date-time-format.ts';
import {
  HELD_REMOVALS_TEXT,
  type HeldRemovals,
  removeConsequences,
  removeQuestion,
} from '../lib/held-removals.ts';
import { useChooseHeldRemovals } from '../lib/sync-activity.ts';
import { formatActivityTime, formatFullTime, shortId } from '../lib/sync-activity-format.ts';
import { useDisplayZone } from '../lib/time-zone.ts';

/** The held items listed at first; the rest behind "Show all". */
const FIRST_SHOWN = 8;

type Props = {
  held: HeldRemovals;
  /** The held items' titles and times, read live; undefined while they are read. */
  names: ActivityNames | undefined;
};

/**
 * The safety brake's question: many removals at once were held back; the card names each held item,
 * and the user removes them (after confirming the count) or keeps both sides (docs/product-rules.md
 * §10). Shown on the dashboard and on /sandbox.
 */
export function HeldRemovalsAlert({ held, names }: Props) {
  const choose = useChooseHeldRemovals();
  const [confirming, setConfirming] = useState(false);
  const { timeZone } = useDisplayZone();
  const pending = held.choice ?? (choose.isPending ? choose.variables : null);
  return (
    <Alert
      variant="light"
      color="orange"
      title={heldRemovalsTitle(held)}
      icon={<IconHandStop aria-hidden />}
      role="region"
      styles={{ title: { color: 'var(--mantine-color-text)' } }}
    >
      <Stack gap="xs" align="flex-start">
        {held.cause && (
          <Text size="sm" fw={600}>
            {heldSentence(held)}
          </Text>
        )}
        <Text size="sm">{HELD_REMOVALS_TEXT.why}</Text>
        <HeldItems held={held} names={names} />
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
        {pending ? (
          <Text size="sm" fw={600} role="status">
            {HELD_REMOVALS_TEXT.pending[pending]}
          </Text>
        ) : (
          <Group gap="xs" wrap="wrap">
            <Button size="sm" color="red" onClick={() => setConfirming(true)}>
              Remove them
            </Button>
            <Button size="sm" variant="default" onClick={() => choose.mutate('keep')}>
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
      <Modal opened={confirming} onClose={() => setConfirming(false)} title={removeQuestion(held)} centered>
        <Stack>
          {removeConsequences(held).map((line) => (
            <Text key={line}>{line}</Text>
          ))}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={() => setConfirming(false)} data-autofocus>
              Cancel
            </Button>
            <Button
              color="red"
              onClick={() => {
                setConfirming(false);
                choose.mutate('remove');
              }}
            >
              {removeQuestion(held).replace(/\?$/, '')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Alert>
  );
}

/** Each held item by its name and time (by id while names are read), the first few, then all on request. */
function HeldItems({ held, names }: Props) {
  const [all, setAll] = useState(false);
  const { timeZone } = useDisplayZone();
  const total = held.events + held.tasks;
  const shown = all ? held.items : held.items.slice(0, FIRST_SHOWN);
  const notLogged = Math.max(0, total - held.items.length);
  if (held.items.length === 0) return null;
  return (
    <Stack gap={2} w="100%">
      <List size="sm" spacing={2} aria-label="Held back">
        {shown.map((item) => {
          const named = namedItem({ ...item, action: 'held' }, names);
          const id = item.taskId ?? item.eventId ?? '';
          return (
            <List.Item key={`${item.taskId} ${item.eventId}`}>
              <span title={idsText(item)}>
                {named.title ?? (
                  <Text span inherit c="dimmed">
                    {item.taskId ? 'Task' : 'Event'} {shortId(id)}
                  </Text>
                )}
                {named.when && (
                  <Text span inherit c="dimmed">
                    {' '}
                    ({formatWhen(named.when, timeZone)})
                  </Text>
                )}
              </span>
            </List.Item>
          );
        })}
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
