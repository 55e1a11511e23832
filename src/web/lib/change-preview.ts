import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ItemName } from '#shared/api/activity-names.schema.ts';
import { contract } from '#shared/api/contract.ts';
import type { ChangePreview, NamedPreviewCount, ProposedChangeQuery } from '#shared/api/sync.schema.ts';
import { countOf } from '#shared/text/count-of.ts';
import { api } from './api-client.ts';
import { useAuth } from './current-user.ts';
import { formatWhen } from './date-time-format.ts';

/**
 * Before a setting that changes what is synced is saved while sync is on, the user sees what it would
 * do to what is already synced (docs/product-rules.md §10), and saves or cancels.
 */

/** Asked afresh each time (the server reuses its reads of the last ten seconds). */
export function useChangePreview(query: ProposedChangeQuery | null) {
  return useQuery({
    queryKey: ['sync', 'preview', 'change', query],
    queryFn: () => api(contract.sync.previewChange, { query: query as ProposedChangeQuery }),
    enabled: query !== null,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}

/** A sentence of the preview, and the count whose first items it names (null: it names none). */
export type PreviewLine = { text: string; named: NamedPreviewCount | null };

/** The preview in sentences, most consequential first; one sentence when nothing synced changes. */
export function changePreviewLines(preview: ChangePreview, calendarName: string | null): PreviewLine[] {
  const lines: PreviewLine[] = [];
  const say = (text: string, named: NamedPreviewCount | null = null) => lines.push({ text, named });
  if (preview.eventsMoved > 0) {
    const where = calendarName ? ` to ${calendarName}` : '';
    say(
      `${countOf(preview.eventsMoved, 'event', 'events')} will move${where}; none is left behind.`,
      'eventsMoved',
    );
  }
  if (preview.eventsRemoved > 0)
    say(`${countOf(preview.eventsRemoved, 'event', 'events')} will be removed.`, 'eventsRemoved');
  if (preview.tasksKept > 0) {
    say(
      preview.tasksKept === 1
        ? 'Its task keeps its date and time in Todoist.'
        : `Their ${preview.tasksKept} tasks keep their dates and times in Todoist.`,
    );
  }
  if (preview.tasksDeleted > 0) {
    say(
      `${countOf(preview.tasksDeleted, 'task made from an event', 'tasks made from events')} will be deleted.`,
      'tasksDeleted',
    );
  }
  if (preview.tasksUnscheduled > 0) {
    say(
      `${countOf(preview.tasksUnscheduled, 'task', 'tasks')} will lose the time and timebox label.`,
      'tasksUnscheduled',
    );
  }
  if (preview.eventsCreated > 0) {
    say(
      `${countOf(preview.eventsCreated, 'task', 'tasks')} will become ${preview.eventsCreated === 1 ? 'an event' : 'events'}.`,
      'eventsCreated',
    );
  }
  if (preview.tasksCreated > 0) {
    say(
      `${countOf(preview.tasksCreated, 'event', 'events')} will become ${preview.tasksCreated === 1 ? 'a task' : 'tasks'}.`,
      'tasksCreated',
    );
  }
  if (lines.length === 0) say('Nothing already synced changes.');
  return lines;
}

/**
 * The items a line names, by title and time in the user's zone, and how many more there are
 * ("Review PR (Thu 3 Dec, 10:00), Standup (Thu 3 Dec, 11:00) and 3 more"); null when it names none.
 */
export function namedItemsText(names: readonly ItemName[], total: number, timeZone: string, locale?: string) {
  if (names.length === 0) return null;
  const items = names.map((name) =>
    name.when ? `${name.title} (${formatWhen(name.when, timeZone, locale)})` : name.title,
  );
  const more = total - names.length;
  return more > 0 ? `${items.join(', ')} and ${more} more` : items.join(', ');
}

export type PendingChange = { title: string; query: ProposedChangeQuery; calendarName: string | null };

/**
 * `ask(change, save)`: saves at once while sync is off; while it is on, keeps the change pending for
 * the preview dialog, which confirms (saves) or cancels.
 */
export function useConfirmedChange() {
  const auth = useAuth();
  const [pending, setPending] = useState<(PendingChange & { save: () => void }) | null>(null);
  return {
    pending,
    ask(change: PendingChange, save: () => void) {
      if (auth && auth.syncActive === true) setPending({ ...change, save });
      else save();
    },
    confirm() {
      pending?.save();
      setPending(null);
    },
    cancel: () => setPending(null),
  };
}
