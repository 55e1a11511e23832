import { describe, expect, it } from 'vitest';
import { NO_REFUSAL, type SyncLink } from '../sync-link.ts';
import { calendarEvent, syncLink, taskSnapshot } from './plan.fixture.ts';
import {
  changedSinceRefusal,
  refusalDue,
  refusalRetryAt,
  refusalWaitMs,
  refusalWaits,
} from './refusal-backoff.ts';

const MINUTE = 60_000;
const AT = new Date('2026-07-15T06:00:00Z');
const refused = (overrides: Partial<SyncLink> = {}) =>
  syncLink({
    refusedWrite: 'event-update',
    refusedAt: AT,
    refusedCount: 1,
    refusedTaskVersion: '2026-07-15T05:00:00Z',
    refusedEventVersion: 'v1',
    refusedAppearance: 'look',
    ...overrides,
  });
const later = (ms: number) => new Date(AT.getTime() + ms);

describe('the back-off of a write refused for good', () => {
  it('waits 15 minutes, then an hour, then four hours, then a day after each refusal in a row', () => {
    expect([1, 2, 3, 4, 9].map(refusalWaitMs)).toEqual([
      15 * MINUTE,
      60 * MINUTE,
      240 * MINUTE,
      1440 * MINUTE,
      1440 * MINUTE,
    ]);
    expect(refusalRetryAt(refused({ refusedCount: 2 }))).toEqual(later(60 * MINUTE));
    expect(refusalRetryAt(syncLink(NO_REFUSAL))).toBeNull();
  });

  it('is due at its time, not a millisecond before; a pair with nothing refused is always due', () => {
    expect(refusalDue(refused(), later(15 * MINUTE - 1))).toBe(false);
    expect(refusalDue(refused(), later(15 * MINUTE))).toBe(true);
    expect(refusalDue(syncLink(), AT)).toBe(true);
  });

  it('counts a new task or event version, a deletion or new settings of our event as a change of the user', () => {
    const link = refused();
    const task = taskSnapshot({ id: 't1', updatedAt: '2026-07-15T05:00:00Z' });
    expect(changedSinceRefusal(link, task, calendarEvent({ version: 'v1' }), 'look')).toBe(false);
    expect(changedSinceRefusal(link, undefined, undefined, 'look')).toBe(false);
    expect(changedSinceRefusal(link, { ...task, updatedAt: '2026-07-15T05:30:00Z' }, undefined, 'look')).toBe(
      true,
    );
    expect(changedSinceRefusal(link, { ...task, isDeleted: true }, undefined, 'look')).toBe(true);
    expect(changedSinceRefusal(link, undefined, calendarEvent({ version: 'v2' }), 'look')).toBe(true);
    expect(changedSinceRefusal(link, undefined, undefined, 'new look')).toBe(true);
    // Settings restyle only our events: an event the user made keeps its own look.
    expect(changedSinceRefusal(refused({ origin: 'event' }), undefined, undefined, 'new look')).toBe(false);
  });

  it('leaves the pair alone only while refused, not due and unchanged', () => {
    const soon = later(MINUTE);
    expect(refusalWaits(refused(), undefined, undefined, soon, 'look')).toBe(true);
    expect(refusalWaits(refused(), undefined, undefined, later(15 * MINUTE), 'look')).toBe(false);
    expect(refusalWaits(refused(), undefined, calendarEvent({ version: 'v2' }), soon, 'look')).toBe(false);
    expect(refusalWaits(syncLink(), undefined, undefined, soon, 'look')).toBe(false);
  });
});
