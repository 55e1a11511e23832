import { errors } from './google-calendar.errors.ts';
import { expandSeries, isRecurring, type Window } from './google-calendar.instances.ts';
import type { StoredCalendar, StoredEvent } from './google-calendar.store.ts';
import { parseInstant } from './google-calendar.time-zones.ts';

export type ListQuery = {
  syncToken?: string;
  pageToken?: string;
  maxResults: number;
  showDeleted: boolean;
  singleEvents: boolean;
  window: Window;
  updatedMin?: number;
  privateProperties: [string, string][];
  sharedProperties: [string, string][];
  q?: string;
  iCalUID?: string;
  orderBy?: 'startTime' | 'updated';
  timeZone?: string;
};

const DEFAULT_PAGE = 250;
const MAX_PAGE = 2500;
// Parameters Google refuses next to a sync token (they are fixed by the initial full sync).
const NOT_WITH_SYNC_TOKEN = [
  'iCalUID',
  'orderBy',
  'privateExtendedProperty',
  'q',
  'sharedExtendedProperty',
  'timeMin',
  'timeMax',
  'updatedMin',
];

const all = (value: unknown): string[] =>
  (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter(
    (v): v is string => typeof v === 'string',
  );
const one = (value: unknown): string | undefined => all(value)[0];

/** A boolean query parameter, `true` or `false` only (Google's 400 for anything else). */
export function flag(query: Record<string, unknown>, name: string): boolean | undefined {
  const value = one(query[name]);
  if (value === undefined) return undefined;
  if (value !== 'true' && value !== 'false') throw errors.invalid(`Invalid boolean value: '${value}'.`, name);
  return value === 'true';
}

function instant(query: Record<string, unknown>, name: string): number | undefined {
  const value = one(query[name]);
  if (value === undefined) return undefined;
  const parsed = parseInstant(value);
  if (parsed === undefined) throw errors.badRequest();
  return parsed;
}

function properties(query: Record<string, unknown>, name: string): [string, string][] {
  return all(query[name]).map((constraint) => {
    const at = constraint.indexOf('=');
    if (at <= 0) throw errors.invalid(`Invalid value for ${name}: ${constraint}`, name);
    return [constraint.slice(0, at), constraint.slice(at + 1)];
  });
}

/** Reads `events.list` parameters with Google's checks (400s, and the sync-token restrictions). */
export function parseListQuery(query: Record<string, unknown>): ListQuery {
  const maxText = one(query.maxResults);
  const maxResults = maxText === undefined ? DEFAULT_PAGE : Number(maxText);
  if (!Number.isInteger(maxResults) || maxResults < 1)
    throw errors.invalid('Invalid value for: maxResults', 'maxResults');
  const syncToken = one(query.syncToken);
  const showDeleted = flag(query, 'showDeleted');
  if (syncToken !== undefined) {
    const clash = NOT_WITH_SYNC_TOKEN.find((name) => query[name] !== undefined);
    if (clash) throw errors.invalid(`Sync token cannot be used together with ${clash}.`, clash);
    if (showDeleted === false)
      throw errors.invalid('Sync token cannot be used with showDeleted=false.', 'showDeleted');
  }
  const window = { fromMs: instant(query, 'timeMin'), toMs: instant(query, 'timeMax') };
  if (window.fromMs !== undefined && window.toMs !== undefined && window.fromMs >= window.toMs) {
    throw errors.timeRangeEmpty();
  }
  const orderBy = one(query.orderBy);
  if (orderBy !== undefined && orderBy !== 'startTime' && orderBy !== 'updated')
    throw errors.invalid('Invalid Value', 'orderBy');
  const singleEvents = flag(query, 'singleEvents') ?? false;
  if (orderBy === 'startTime' && !singleEvents) {
    throw errors.badRequest('The requested ordering is not available for the particular query.');
  }
  return {
    syncToken,
    pageToken: one(query.pageToken),
    maxResults: Math.min(maxResults, MAX_PAGE),
    showDeleted: showDeleted ?? false,
    singleEvents,
    window,
    updatedMin: instant(query, 'updatedMin'),
    privateProperties: properties(query, 'privateExtendedProperty'),
    sharedProperties: properties(query, 'sharedExtendedProperty'),
    q: one(query.q),
    iCalUID: one(query.iCalUID),
    orderBy,
    timeZone: one(query.timeZone),
  };
}

export type Selected = { event: StoredEvent; tombstone: boolean };

const overlaps = (event: StoredEvent, window: Window) =>
  (window.fromMs === undefined || event.endMs > window.fromMs) &&
  (window.toMs === undefined || event.startMs < window.toMs);

/** A full (filtered) listing: what the first page of a list without a sync token covers. */
export function selectFull(calendar: StoredCalendar, query: ListQuery): Selected[] {
  const withDeleted = query.showDeleted || query.updatedMin !== undefined;
  const matching = [...calendar.events.values()].filter((event) => {
    const { data } = event;
    if (data.status === 'cancelled' && !withDeleted) return false;
    if (query.updatedMin !== undefined && Date.parse(event.updated) < query.updatedMin) return false;
    if (query.iCalUID !== undefined && event.iCalUID !== query.iCalUID) return false;
    if (!query.privateProperties.every(([k, v]) => data.extendedProperties?.private?.[k] === v)) return false;
    if (!query.sharedProperties.every(([k, v]) => data.extendedProperties?.shared?.[k] === v)) return false;
    if (query.q !== undefined) {
      const text = [data.summary, data.description, data.location].join('\n').toLowerCase();
      if (
        !query.q
          .toLowerCase()
          .split(/\s+/)
          .every((word) => text.includes(word))
      )
        return false;
    }
    return true;
  });
  const selected = matching.flatMap((event) => expand(event, calendar, query, false));
  if (query.orderBy === 'startTime')
    selected.sort((a, b) => a.event.startMs - b.event.startMs || a.event.id.localeCompare(b.event.id));
  if (query.orderBy === 'updated') selected.sort((a, b) => a.event.updated.localeCompare(b.event.updated));
  return selected;
}

/** An incremental listing: everything written after the sync token's change number, deletions included. */
export function selectChangedSince(calendar: StoredCalendar, seq: number, query: ListQuery): Selected[] {
  return [...calendar.events.values()]
    .filter((event) => event.seq > seq)
    .sort((a, b) => a.seq - b.seq)
    .flatMap((event) => expand(event, calendar, query, true));
}

function expand(
  event: StoredEvent,
  calendar: StoredCalendar,
  query: ListQuery,
  incremental: boolean,
): Selected[] {
  const cancelled = event.data.status === 'cancelled';
  if (cancelled)
    return incremental || overlaps(event, query.window) || isRecurring(event)
      ? [{ event, tombstone: true }]
      : [];
  if (!isRecurring(event))
    return incremental || overlaps(event, query.window) ? [{ event, tombstone: false }] : [];
  const instances = expandSeries(event, calendar, incremental ? {} : query.window);
  if (query.singleEvents) return instances.map((instance) => ({ event: instance, tombstone: false }));
  return incremental || instances.length > 0 ? [{ event, tombstone: false }] : [];
}
