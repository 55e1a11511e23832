import type { SyncActivity } from '#shared/api/sync.schema.ts';
import { PROVIDER_NAMES } from '#shared/sync/provider-names.ts';

/** What stayed where after a switch of calendar account or provider, in words. */
export function leftBehindText(leftBehind: NonNullable<SyncActivity['leftBehind']>) {
  const { events, provider, calendarName, calendarId, why } = leftBehind;
  const one = events === 1;
  const where = `“${calendarName ?? calendarId}” in ${PROVIDER_NAMES[provider]}`;
  const because = why === 'read-only' ? 'which you can now only read' : 'which is no longer connected';
  const ask =
    why === 'read-only'
      ? `ask the calendar's owner to delete the old ${one ? 'one' : 'ones'} if no longer needed`
      : `delete the old ${one ? 'one' : 'ones'} there if you no longer need ${one ? 'it' : 'them'}`;
  return {
    title: `${one ? '1 event' : `${events} events`} stayed in your previous calendar`,
    message: `Timeboxer made ${one ? 'it' : 'them'} in ${where}, ${because}, so ${one ? 'it was' : 'they were'} left there. Your tasks now get their events in the calendar you chose; ${ask}.`,
  };
}
