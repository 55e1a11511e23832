import { expandSeries, isRecurring } from './google-calendar.instances.ts';
import type { StoredCalendar, StoredEvent } from './google-calendar.store.ts';

/** A half-open span of time, [startMs, endMs). */
export type Interval = { startMs: number; endMs: number };

/**
 * Whether an event blocks time in free/busy: not cancelled and not `transparent` ("Show me as:
 * Available"). A missing `transparency` means `opaque`, all-day events included: `opaque` is the
 * documented default (Event resource, `transparency`), and an event created through the API without
 * the field is busy. New all-day events look free only because Calendar's web UI sets
 * `transparent` on them explicitly; the API does not.
 */
export function blocksTime(event: StoredEvent): boolean {
  return event.data.status !== 'cancelled' && event.data.transparency !== 'transparent';
}

/**
 * freebusy.query for one calendar: the spans in [fromMs, toMs) its events keep busy, recurring events
 * expanded into their instances (EXDATEs skipped), clipped to the window, and merged where they
 * overlap or touch, in order. Busy spans carry no event details.
 */
export function busyIntervals(
  calendar: StoredCalendar,
  window: { fromMs: number; toMs: number },
): Interval[] {
  const spans = [...calendar.events.values()]
    .filter((event) => event.movedTo === undefined && blocksTime(event))
    .flatMap((event) => (isRecurring(event) ? expandSeries(event, calendar, window) : [event]))
    .map(({ startMs, endMs }) => ({ startMs, endMs }));
  return mergeIntervals(spans, window);
}

/**
 * The union of `intervals` within [fromMs, toMs): clipped to the window, empty spans dropped,
 * overlapping or back-to-back spans joined (two meetings 9-10 and 10-11 are one busy span 9-11),
 * sorted by start.
 */
export function mergeIntervals(
  intervals: readonly Interval[],
  window: { fromMs: number; toMs: number },
): Interval[] {
  const clipped = intervals
    .map(({ startMs, endMs }) => ({
      startMs: Math.max(startMs, window.fromMs),
      endMs: Math.min(endMs, window.toMs),
    }))
    .filter(({ startMs, endMs }) => endMs > startMs)
    .sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs);
  const merged: Interval[] = [];
  for (const span of clipped) {
    const last = merged.at(-1);
    if (last && span.startMs <= last.endMs) last.endMs = Math.max(last.endMs, span.endMs);
    else merged.push({ ...span });
  }
  return merged;
}
