import type { SyncActivity } from '#shared/api/sync.schema.ts';

type OtherSyncSeen = NonNullable<SyncActivity['otherSync']>;

/**
 * Another sync writes into the chosen calendar, in words (docs/product-rules.md §10 "Another sync").
 * Todoist's own integration lives under Calendars in Todoist's settings, its older form under
 * Integrations → Google Calendar.
 */
const TEXTS: Record<OtherSyncSeen['tool'], { title: string; message: string }> = {
  todoist: {
    title: 'Todoist’s own calendar sync writes here too',
    message:
      'Todoist’s Google Calendar integration also puts your tasks into this calendar. Timeboxer leaves its ' +
      'events alone (they never become tasks), but you may see tasks twice. Turn that integration off in ' +
      'Todoist’s settings (Calendars, or Integrations → Google Calendar), or keep the two apart by choosing ' +
      'another calendar for Timeboxer in Calendar Settings.',
  },
};

export function otherSyncText(otherSync: OtherSyncSeen): { title: string; message: string } {
  return TEXTS[otherSync.tool];
}
