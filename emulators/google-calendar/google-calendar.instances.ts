import { instantOfWallTime, type WallTime, wallTimeIn } from '../shared/wall-clock.ts';
import { occurrenceDays, parseRecurrence } from './google-calendar.recurrence.ts';
import type { StoredCalendar, StoredEvent } from './google-calendar.store.ts';
import { addDays, formatDate, formatInZone, parseDate } from './google-calendar.time-zones.ts';

export type Window = { fromMs?: number; toMs?: number };

const DEFAULT_HORIZON_DAYS = 730;
const MAX_INSTANCES = 250;

export const isRecurring = (event: StoredEvent) => (event.data.recurrence?.length ?? 0) > 0;

const pad = (n: number) => String(n).padStart(2, '0');
const compactDate = (d: Pick<WallTime, 'year' | 'month' | 'day'>) => formatDate(d).replaceAll('-', '');
const compactStamp = (w: WallTime) => `${compactDate(w)}T${pad(w.hour)}${pad(w.minute)}${pad(w.second)}`;

/**
 * The instances of a recurring event that overlap the window (at most 250), with Google's instance ids
 * (`<id>_20240115T090000Z`, or `<id>_20240115` for all-day series), `recurringEventId` and
 * `originalStartTime`. A cancelled series has no instances.
 */
export function expandSeries(event: StoredEvent, calendar: StoredCalendar, window: Window): StoredEvent[] {
  const recurrence = parseRecurrence(event.data.recurrence ?? []);
  if (!recurrence?.rule || event.data.status === 'cancelled') return [];
  const { rule, exdates } = recurrence;
  const allDay = Boolean(event.data.start.date);
  const zone = event.data.start.timeZone ?? calendar.timeZone;
  const first: WallTime = allDay
    ? {
        ...(parseDate(event.data.start.date ?? '') ?? { year: 1970, month: 1, day: 1 }),
        hour: 0,
        minute: 0,
        second: 0,
      }
    : wallTimeIn(event.startMs, zone);
  const durationMs = event.endMs - event.startMs;
  const horizon =
    window.toMs === undefined
      ? addDays(first, DEFAULT_HORIZON_DAYS)
      : addDays(wallTimeIn(window.toMs, zone), 1);
  const until = rule.until;
  const startOf = (day: Pick<WallTime, 'year' | 'month' | 'day'>) =>
    instantOfWallTime({ ...first, ...day }, allDay ? calendar.timeZone : zone);
  const beyondUntil = (day: Pick<WallTime, 'year' | 'month' | 'day'>) => {
    if (!until) return false;
    if ('date' in until) return formatDate(day) > until.date;
    return startOf(day) > until.instantMs;
  };
  const excluded = new Set(exdates);
  const instances: StoredEvent[] = [];
  for (const day of occurrenceDays(rule, first, horizon, beyondUntil, 20_000)) {
    const startMs = startOf(day);
    const endMs = startMs + durationMs;
    if (window.fromMs !== undefined && endMs <= window.fromMs) continue;
    if (window.toMs !== undefined && startMs >= window.toMs) break;
    const localStamp = compactStamp({ ...first, ...day });
    const utcStamp = `${compactStamp(wallTimeIn(startMs, 'UTC'))}Z`;
    if (excluded.has(compactDate(day)) || excluded.has(localStamp) || excluded.has(utcStamp)) continue;
    instances.push(instanceOf(event, { allDay, zone, day, startMs, endMs, utcStamp }));
    if (instances.length >= MAX_INSTANCES) break;
  }
  return instances;
}

function instanceOf(
  event: StoredEvent,
  at: {
    allDay: boolean;
    zone: string;
    day: Pick<WallTime, 'year' | 'month' | 'day'>;
    startMs: number;
    endMs: number;
    utcStamp: string;
  },
): StoredEvent {
  const { recurrence: _recurrence, ...data } = event.data;
  const timeZone = event.data.start.timeZone;
  const time = (ms: number) => ({ dateTime: formatInZone(ms, at.zone), ...(timeZone ? { timeZone } : {}) });
  const dayCount = Math.round((event.endMs - event.startMs) / 86_400_000);
  const start = at.allDay ? { date: formatDate(at.day) } : time(at.startMs);
  const end = at.allDay
    ? { date: formatDate(addDays({ ...at.day, hour: 0, minute: 0, second: 0 }, dayCount)) }
    : time(at.endMs);
  return {
    ...event,
    id: `${event.id}_${at.allDay ? compactDate(at.day) : at.utcStamp}`,
    data: { ...data, start, end },
    startMs: at.startMs,
    endMs: at.endMs,
    recurringEventId: event.id,
    originalStartTime: start,
  };
}

/** An instance by its id (`<seriesId>_<stamp>`), as `events.get` can fetch it. */
export function findInstance(calendar: StoredCalendar, instanceId: string): StoredEvent | undefined {
  const match = /^(.+)_(\d{8})(?:T(\d{6})Z)?$/.exec(instanceId);
  if (!match?.[1]) return undefined;
  const series = calendar.events.get(match[1]);
  if (!series || !isRecurring(series)) return undefined;
  const d = match[2] ?? '';
  const date = `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}`;
  const t = match[3];
  const fromMs = t
    ? Date.parse(`${date}T${t.slice(0, 2)}:${t.slice(2, 4)}:${t.slice(4, 6)}Z`)
    : Date.parse(`${date}T00:00:00Z`) - 86_400_000;
  if (Number.isNaN(fromMs)) return undefined;
  return expandSeries(series, calendar, { fromMs: fromMs - 1, toMs: fromMs + 2 * 86_400_000 }).find(
    (instance) => instance.id === instanceId,
  );
}
