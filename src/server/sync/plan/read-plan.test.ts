import { describe, expect, it } from 'vitest';
import { newSyncState, type SyncState } from '../sync-state.ts';
import { readPlan } from './read-plan.ts';

const state = (patch: Partial<SyncState> = {}): SyncState =>
  newSyncState('user-1', new Date('2026-11-25T08:00:00Z'), {
    todoistToken: 'todoist-position',
    calendarToken: 'calendar-position',
    calendarId: 'primary',
    calendarProvider: 'google',
    titleSalt: 'salt',
    ...patch,
  });
const queueRun = {
  sameCalendar: true,
  readAll: false,
  needsAllTasks: false,
  unfinishedCreates: false,
  completedOccurrences: false,
  requestedSidesOnly: true,
};

describe('readPlan', () => {
  it('reads only the side a notification asked for', () => {
    expect(readPlan({ ...queueRun, state: state({ todoistReadsPending: 2 }) })).toEqual({
      todoist: true,
      calendar: false,
    });
    expect(readPlan({ ...queueRun, state: state({ calendarReadsPending: 1 }) })).toEqual({
      todoist: false,
      calendar: true,
    });
    expect(
      readPlan({ ...queueRun, state: state({ todoistReadsPending: 1, calendarReadsPending: 1 }) }),
    ).toEqual({ todoist: true, calendar: true });
  });

  it('reads nothing when nothing asked for a read', () => {
    expect(readPlan({ ...queueRun, state: state() })).toEqual({ todoist: false, calendar: false });
  });

  it('reads both on a direct run, a first run, another calendar, held removals or new scope, or an unfinished create', () => {
    const both = { todoist: true, calendar: true };
    expect(readPlan({ ...queueRun, requestedSidesOnly: false, state: state() })).toEqual(both);
    expect(readPlan({ ...queueRun, state: null })).toEqual(both);
    expect(readPlan({ ...queueRun, state: state({ todoistToken: null }) })).toEqual(both);
    expect(readPlan({ ...queueRun, state: state({ calendarToken: null }) })).toEqual(both);
    expect(readPlan({ ...queueRun, sameCalendar: false, state: state() })).toEqual(both);
    expect(readPlan({ ...queueRun, unfinishedCreates: true, state: state() })).toEqual(both);
    expect(readPlan({ ...queueRun, readAll: true, state: state() })).toEqual(both);
  });

  it('reads Todoist when every task must be read or an occurrence’s completion waits', () => {
    expect(readPlan({ ...queueRun, needsAllTasks: true, state: state() })).toEqual({
      todoist: true,
      calendar: false,
    });
    expect(readPlan({ ...queueRun, completedOccurrences: true, state: state() })).toEqual({
      todoist: true,
      calendar: false,
    });
  });
});
