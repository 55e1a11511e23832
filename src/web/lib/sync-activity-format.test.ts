import { describe, expect, it } from 'vitest';
import type { SyncActivityEntry } from '#shared/api/sync.schema.ts';
import { formatActivityTime, lastSyncedText, latestEntries, shortId } from './sync-activity-format.ts';

// Local times, so the expectations hold in any time zone.
const local = (...parts: [number, number, number, number, number, number]) =>
  new Date(parts[0], parts[1] - 1, parts[2], parts[3], parts[4], parts[5]);
const now = local(2031, 3, 4, 15, 0, 0);

describe('shortId', () => {
  it('keeps short ids whole and cuts long ones after eight characters', () => {
    expect(shortId('6X7rM8')).toBe('6X7rM8');
    expect(shortId('123456789')).toBe('123456789');
    expect(shortId('6X7rM8fHq2Wc')).toBe('6X7rM8fH…');
    expect(shortId('AAMkADnothing=', 4)).toBe('AAMk…');
  });
});

describe('times', () => {
  it('shows today to the second and other days with their date', () => {
    expect(formatActivityTime(local(2031, 3, 4, 9, 5, 7).toISOString(), now)).toBe('09:05:07');
    expect(formatActivityTime(local(2031, 3, 3, 23, 59, 0).toISOString(), now)).toBe('3 Mar, 23:59');
  });

  it('says when the last sync ran, or that none has', () => {
    expect(lastSyncedText(null, now)).toBe('Not synced yet.');
    expect(lastSyncedText(local(2031, 3, 4, 14, 59, 58).toISOString(), now)).toBe('Last synced at 14:59:58.');
    expect(lastSyncedText(local(2031, 2, 28, 8, 0, 0).toISOString(), now)).toBe(
      'Last synced on 28 Feb 2031 at 08:00.',
    );
  });
});

describe('latestEntries', () => {
  const entry = (id: string, at: string): SyncActivityEntry => ({
    id,
    at,
    direction: 'todoist-to-calendar',
    action: 'created',
    taskId: null,
    eventId: null,
    detail: null,
  });

  it('orders newest first, across offsets, and keeps the limit', () => {
    const entries = [
      entry('a', '2031-03-04T10:00:00Z'),
      entry('b', '2031-03-04T12:30:00+02:00'), // 10:30Z
      entry('c', '2031-03-04T09:00:00Z'),
    ];
    expect(latestEntries(entries, 2).map((e) => e.id)).toEqual(['b', 'a']);
    expect(entries.map((e) => e.id)).toEqual(['a', 'b', 'c']);
  });
});
