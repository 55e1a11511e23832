import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { contract } from '#shared/api/contract.ts';
import type { ChangePreview, ProposedChangeQuery } from '#shared/api/sync.schema.ts';
import { api } from './api-client.ts';
import { useAuth } from './current-user.ts';

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

const n = (count: number, one: string, many: string) => (count === 1 ? `1 ${one}` : `${count} ${many}`);

/** The preview in sentences, most consequential first; one sentence when nothing synced changes. */
export function changePreviewLines(preview: ChangePreview, calendarName: string | null): string[] {
  const lines: string[] = [];
  if (preview.eventsMoved > 0) {
    const where = calendarName ? ` to ${calendarName}` : '';
    lines.push(`${n(preview.eventsMoved, 'event', 'events')} will move${where}; none is left behind.`);
  }
  if (preview.eventsRemoved > 0)
    lines.push(`${n(preview.eventsRemoved, 'event', 'events')} will be removed.`);
  if (preview.tasksKept > 0) {
    lines.push(
      preview.tasksKept === 1
        ? 'Its task keeps its date and time in Todoist.'
        : `Their ${preview.tasksKept} tasks keep their dates and times in Todoist.`,
    );
  }
  if (preview.tasksDeleted > 0) {
    lines.push(
      `${n(preview.tasksDeleted, 'task made from an event', 'tasks made from events')} will be deleted.`,
    );
  }
  if (preview.tasksUnscheduled > 0) {
    lines.push(`${n(preview.tasksUnscheduled, 'task', 'tasks')} will lose the time and timebox label.`);
  }
  if (preview.eventsCreated > 0) {
    lines.push(
      `${n(preview.eventsCreated, 'task', 'tasks')} will become ${preview.eventsCreated === 1 ? 'an event' : 'events'}.`,
    );
  }
  if (preview.tasksCreated > 0) {
    lines.push(
      `${n(preview.tasksCreated, 'event', 'events')} will become ${preview.tasksCreated === 1 ? 'a task' : 'tasks'}.`,
    );
  }
  if (lines.length === 0) lines.push('Nothing already synced changes.');
  return lines;
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
