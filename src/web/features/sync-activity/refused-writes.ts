import type { ActivityNames } from '#shared/api/activity-names.schema.ts';
import type { RefusedWriteItem, SyncActivity } from '#shared/api/sync.schema.ts';
import { PROVIDER_NAMES } from '#shared/sync/provider-names.ts';
import type { RefusedWrite } from '#shared/sync/refused-writes.ts';
import { countOf } from '#shared/text/count-of.ts';
import { idsText, namedItem } from '../../lib/activity-groups.ts';
import { dayIn, formatInstant, formatWhen } from '../../lib/date-time-format.ts';
import { shortId } from '../../lib/sync-activity-format.ts';

type Refused = NonNullable<SyncActivity['refusedWrites']>;
type Provider = RefusedWriteItem['provider'];

const providerName = (provider: Provider) => (provider ? PROVIDER_NAMES[provider] : 'Your calendar');

/** What each refused write would have done, as a verb ("refused to add 2 events"). */
const VERBS: Record<RefusedWrite, string> = {
  'event-create': 'add',
  'event-update': 'change',
  'event-remove': 'remove',
  'task-create': 'add',
  'task-update': 'change',
  'task-delete': 'delete',
};

/** One refused item in words: its name (and time), why it was refused, and when it is tried again. */
export type RefusedItemText = {
  key: string;
  /** Its title in quotes, the words for an item gone, or "Task 6QaAhnJS…" while its name is unknown. */
  name: string;
  /** Its time ("Tue, Dec 3, 9:00 AM"), when known. */
  when: string | null;
  why: string;
  next: string;
  /** The ids, for support (a tooltip). */
  ids: string;
};

/** One provider's refusals: a title, what it means, and each item. */
export type RefusedNoteText = {
  key: string;
  title: string;
  message: string;
  items: RefusedItemText[];
};

export const REFUSED_MESSAGE =
  'Everything else keeps syncing. Timeboxer tries these again by itself, less often each time, and at once when you change the item.';

/** The provider's reason code in words a person understands (docs/provider-facts.md §12); else its code. */
export function refusalReasonText(item: Pick<RefusedWriteItem, 'write' | 'provider' | 'status' | 'reason'>) {
  const { write, provider, status, reason } = item;
  const code = reason ?? (status === null ? 'unknown' : String(status));
  const creates = write.endsWith('create');
  if (provider === 'todoist') {
    if (status === 404 || reason === 'ITEM_NOT_FOUND' || reason === 'PROJECT_NOT_FOUND')
      return creates ? 'Todoist could not find the project it goes in' : 'this task is no longer in Todoist';
    if (status === 403)
      return creates
        ? 'your Todoist account may not add tasks to that project'
        : 'your Todoist account may not change this task';
    if (status === 400) return `Todoist did not accept the change (code ${code})`;
    return `Todoist refused it (code ${code})`;
  }
  const name = providerName(provider);
  if (reason === 'requiredAccessLevel') return 'you can only read this calendar';
  if (reason === 'forbiddenForNonOrganizer') return 'only the event’s organizer may change it';
  if (reason === 'ErrorAccessDenied') return 'your account may not change this calendar';
  if (status === 404 || reason === 'notFound' || reason === 'ErrorItemNotFound')
    return creates ? 'the calendar could not be found' : 'this event is no longer in the calendar';
  if (status === 400) return `${name} did not accept the event as it was (code ${code})`;
  return `${name} refused it (code ${code})`;
}

/** When it is tried again: today by its time, another day with the day; due already, with the next sync. */
export function nextTryText(
  item: Pick<RefusedWriteItem, 'retryAt' | 'refusals'>,
  timeZone: string,
  now: Date,
  locale?: string,
) {
  const times = item.refusals > 1 ? `refused ${item.refusals} times so far, ` : '';
  if (Date.parse(item.retryAt) <= now.getTime()) return `${times}next try when the sync next runs`;
  const at =
    dayIn(item.retryAt, timeZone) === dayIn(now, timeZone)
      ? `at ${formatInstant(item.retryAt, timeZone, 'time', locale)}`
      : `on ${formatInstant(item.retryAt, timeZone, 'dayAndTime', locale)}`;
  return `${times}next try ${at}`;
}

/** "Google Calendar refused to add 2 events"; several kinds of write: "… refused 3 changes to your events". */
function titleOf(provider: Provider, items: readonly RefusedWriteItem[]) {
  const events = items[0]?.write.startsWith('event') ?? true;
  const noun = events ? ['event', 'events'] : ['task', 'tasks'];
  const verbs = new Set(items.map((item) => VERBS[item.write]));
  const [verb] = verbs;
  return verbs.size === 1
    ? `${providerName(provider)} refused to ${verb} ${countOf(items.length, noun[0] as string, noun[1])}`
    : `${providerName(provider)} refused ${countOf(items.length, 'change')} to your ${noun[1]}`;
}

function itemText(
  item: RefusedWriteItem,
  names: ActivityNames | undefined,
  timeZone: string,
  now: Date,
  locale?: string,
): RefusedItemText {
  const named = namedItem({ ...item, action: 'skipped' }, names);
  const fallback = `${item.taskId ? 'Task' : 'Event'} ${shortId(item.taskId ?? item.eventId ?? '')}`;
  const name = named.title === null ? fallback : named.gone ? named.title : `“${named.title}”`;
  return {
    key: `${item.taskId} ${item.eventId}`,
    name,
    when: named.when ? formatWhen(named.when, timeZone, locale) : null,
    why: refusalReasonText(item),
    next: nextTryText(item, timeZone, now, locale),
    ids: idsText(item),
  };
}

/**
 * The writes providers refused for good, in words for someone who never read our docs: one note per
 * provider (Todoist for tasks, the calendar's for events), each item by its name with why and when it
 * is tried again, in the page's zone.
 */
export function refusedWritesText(
  refused: Refused,
  names: ActivityNames | undefined,
  timeZone: string,
  now: Date = new Date(),
  locale?: string,
): { notes: RefusedNoteText[]; notListed: number } {
  const byProvider = new Map<string, { provider: Provider; items: RefusedWriteItem[] }>();
  for (const item of refused.items) {
    const key = item.provider ?? 'calendar';
    const group = byProvider.get(key) ?? { provider: item.provider, items: [] };
    group.items.push(item);
    byProvider.set(key, group);
  }
  const notes = [...byProvider].map(([key, { provider, items }]) => ({
    key,
    title: titleOf(provider, items),
    message: REFUSED_MESSAGE,
    items: items.map((item) => itemText(item, names, timeZone, now, locale)),
  }));
  return { notes, notListed: Math.max(0, refused.total - refused.items.length) };
}
