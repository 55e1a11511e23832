import { describe, expect, it } from 'vitest';
import type { SyncActivityEntry } from '#shared/api/sync.schema.ts';
import { formatActivityTime, lastSyncedText, latestEntries, shortId } from './sync-activity-format.ts';

// In Berlin, in British English: the expectations hold in any zone and locale the tests run in.
const ZONE = 'Europe/Berlin';
const GB = 'en-GB';
const now = new Date('2031-03-04T14:00:00Z'); // 15:00 in Berlin

describe('shortId', () => {
  it('keeps short ids whole and cuts long ones after eight characters', () => {
    expect(shortId('6X7rM8')).toBe('6X7rM8');
    expect(shortId('123456789')).toBe('123456789');
    expect(shortId('6X7rM8fHq2Wc')).toBe('6X7rM8fH…');
    expect(shortId('AAMkADnothing=', 4)).toBe('AAMk…');
  });
});

describe('times', () => {
  it('shows today to the second and other days with their date, in the page’s zone', () => {
    expect(formatActivityTime('2031-03-04T08:05:07Z', ZONE, now, GB)).toBe('09:05:07');
    // 23:30 UTC on the 3rd is already the 4th in Berlin.
    expect(formatActivityTime('2031-03-03T23:30:00Z', ZONE, now, GB)).toBe('00:30:00');
    expect(formatActivityTime('2031-03-03T22:59:00Z', ZONE, now, GB)).toBe('Mon 3 Mar, 23:59');
    expect(formatActivityTime('2031-03-03T22:59:00Z', 'UTC', now, 'en-US')).toBe('Mon, Mar 3, 10:59 PM');
  });

  it('says when the last sync ran, or that none has', () => {
    expect(lastSyncedText(null, ZONE, now, GB)).toBe('Not synced yet.');
    expect(lastSyncedText('2031-03-04T13:59:58Z', ZONE, now, GB)).toBe('Last synced at 14:59:58.');
    expect(lastSyncedText('2031-02-28T07:00:00Z', ZONE, now, GB)).toBe(
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
