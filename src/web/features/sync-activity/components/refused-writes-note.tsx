import { Alert, Stack, Text } from '@mantine/core';
import { IconBan } from '@tabler/icons-react';
import type { ActivityNames } from '#shared/api/activity-names.schema.ts';
import type { SyncActivity } from '#shared/api/sync.schema.ts';
import { useDisplayZone } from '../../../lib/time-zone.ts';
import { type RefusedNoteText, refusedWritesText } from '../refused-writes.ts';

type Props = {
  refused: NonNullable<SyncActivity['refusedWrites']>;
  /** The items' titles and times, read live; undefined while they are read (items show by id). */
  names: ActivityNames | undefined;
};

/**
 * Writes a provider refused for good: one note per provider, each item by its name with why and when it
 * is tried again. Gone by itself once the writes go through.
 */
export function RefusedWritesNote({ refused, names }: Props) {
  const { timeZone } = useDisplayZone();
  const { notes, notListed } = refusedWritesText(refused, names, timeZone);
  return (
    <>
      {notes.map((note, index) => (
        <RefusedNote
          key={note.key}
          note={note}
          // What the notes have in common is said once, under the last.
          last={index === notes.length - 1}
          notListed={index === notes.length - 1 ? notListed : 0}
        />
      ))}
    </>
  );
}

type NoteProps = { note: RefusedNoteText; last: boolean; notListed: number };

/** One provider's refusals, as a list named by its title; each item's ids in its tooltip, for support. */
function RefusedNote({ note, last, notListed }: NoteProps) {
  return (
    <Alert
      variant="light"
      color="red"
      title={note.title}
      icon={<IconBan aria-hidden />}
      role="region"
      // The light red tint's own text colour is too faint for small type; the icon carries the colour.
      styles={{ message: { color: 'var(--mantine-color-text)' } }}
    >
      <Stack gap="xs">
        <Stack component="ul" gap={6} m={0} p={0} style={{ listStyle: 'none' }} aria-label={note.title}>
          {note.items.map((item) => (
            <Text
              key={item.key}
              component="li"
              size="sm"
              title={item.ids}
              style={{ overflowWrap: 'anywhere' }}
            >
              <Text span inherit fw={600}>
                {item.name}
              </Text>
              {item.when && ` (${item.when})`} — {item.why}; {item.next}.
            </Text>
          ))}
        </Stack>
        {notListed > 0 && (
          <Text size="xs" c="dimmed">
            and {notListed} more not listed
          </Text>
        )}
        {last && <Text size="sm">{note.message}</Text>}
      </Stack>
    </Alert>
  );
}
