import { describe, expect, it } from 'vitest';
import type { IntegrationRow } from '#server/db/schema/integrations.table.ts';
import { integrationRow } from '#server/domain/testing/in-memory-integrations.ts';
import { calendarRow, todoRow } from '#server/domain/testing/in-memory-settings.ts';
import { userRow } from '#server/domain/testing/in-memory-users.ts';
import { type SyncRows, syncContextOf } from './sync-context.ts';

const NOW = new Date('2026-03-10T09:00:00.000Z');
const USER = 'user-1';

const link = (kind: 'todoist' | 'calendar', provider: IntegrationRow['provider'], accountId: string | null) =>
  integrationRow(USER, kind, provider, accountId, NOW);

/** A user who may sync: trial running, sync on, Todoist and Google connected, the Work calendar chosen. */
function rows(overrides: Partial<SyncRows> = {}): SyncRows {
  return {
    user: userRow({ id: USER, syncActive: true }),
    integrations: [link('todoist', 'todoist', 't-1'), link('calendar', 'google', 'ada@example.com')],
    todo: todoRow(USER, { accountType: 'Premium', taskDurationActive: true, taskDurationLabel: 'deep' }),
    calendar: calendarRow(USER, {
      calendarId: 'work',
      calendars: [
        { id: 'ada@example.com', name: 'Ada', color: null, timeZone: null },
        { id: 'work', name: 'Work', color: null, timeZone: null },
      ],
    }),
    timeboxes: [{ label: '30min', duration: 30 }],
    ...overrides,
  };
}

describe('the context of a sync run', () => {
  it('says why a user’s sync does not run, in the order the rules check it', () => {
    const block = (overrides: Partial<SyncRows>, options = {}) => {
      const context = syncContextOf(rows(overrides), NOW, options);
      return context.runnable ? 'runs' : context.block;
    };
    expect(block({ user: undefined })).toBe('no-user');
    expect(block({ user: userRow({ id: USER, syncActive: false }) })).toBe('switched-off');
    // The preview asks even when sync is off.
    expect(block({ user: userRow({ id: USER, syncActive: false }) }, { evenIfOff: true })).toBe('runs');
    expect(block({ user: userRow({ id: USER, syncActive: true, validUntil: new Date('2026-03-01') }) })).toBe(
      'not-entitled',
    );
    expect(block({ integrations: [link('todoist', 'todoist', 't-1')] })).toBe('not-connected');
    expect(
      block({
        integrations: [
          link('todoist', 'todoist', 't-1'),
          { ...link('calendar', 'google', 'ada@example.com'), needsReconnect: true },
        ],
      }),
    ).toBe('reconnect');
    expect(block({ calendar: calendarRow(USER) })).toBe('no-calendar');
    expect(block({})).toBe('runs');
  });

  it('reads the settings: the calendar’s name, durations where the plan has them, the main calendar', () => {
    const context = syncContextOf(rows(), NOW);
    if (!context.runnable) throw new Error('expected a runnable context');
    expect(context).toMatchObject({ calendarName: 'Work', calendarAccountId: 'ada@example.com' });
    expect(context.settings).toMatchObject({
      timeZone: 'Europe/Berlin',
      calendarProvider: 'google',
      calendarId: 'work',
      mainCalendar: false,
      taskDuration: { active: true, label: 'deep', allowed: true },
    });
    // Unread, hints count as waiting (the run reads them); the stored labels come with the settings.
    expect(context).toMatchObject({ hintsWaiting: true, labels: { renames: [] } });
    expect(syncContextOf(rows({ hintsWaiting: false }), NOW)).toMatchObject({ hintsWaiting: false });
    const free = syncContextOf(rows({ todo: todoRow(USER, { accountType: 'Free' }) }), NOW);
    expect(free.runnable && free.settings.taskDuration.allowed).toBe(false);

    const main = (calendarId: string, provider: 'google' | 'microsoft') =>
      syncContextOf(
        rows({
          integrations: [link('todoist', 'todoist', 't-1'), link('calendar', provider, 'ada@example.com')],
          calendar: calendarRow(USER, {
            calendarId,
            calendars: [
              { id: 'first', name: 'Calendar', color: null, timeZone: null },
              { id: 'work', name: 'Work', color: null, timeZone: null },
            ],
          }),
        }),
        NOW,
      );
    const isMain = (context: ReturnType<typeof main>) => context.runnable && context.settings.mainCalendar;
    expect(isMain(main('ada@example.com', 'google'))).toBe(true);
    expect(isMain(main('primary', 'google'))).toBe(true);
    expect(isMain(main('first', 'google'))).toBe(false);
    expect(isMain(main('first', 'microsoft'))).toBe(true);
    expect(isMain(main('work', 'microsoft'))).toBe(false);
  });

  it('takes the main calendar as the provider marks it, for the check and the busy calendars of Plan my day', () => {
    const marked = (provider: 'google' | 'microsoft') =>
      syncContextOf(
        rows({
          integrations: [link('todoist', 'todoist', 't-1'), link('calendar', provider, 'me')],
          calendar: calendarRow(USER, {
            calendarId: 'first',
            calendars: [
              { id: 'first', name: 'Timeboxer', color: null, timeZone: null, primary: false },
              { id: 'work', name: 'Work', color: null, timeZone: null, primary: true },
            ],
          }),
        }),
        NOW,
      );
    for (const provider of ['google', 'microsoft'] as const) {
      const context = marked(provider);
      if (!context.runnable) throw new Error('expected a runnable context');
      expect(context.settings).toMatchObject({ mainCalendar: false, otherCalendarIds: ['work'] });
    }
  });

  it('names every other calendar of the account for Plan my day, shared ones too, on Microsoft as on Google', () => {
    const others = (provider: 'google' | 'microsoft', calendarId: string) => {
      const context = syncContextOf(
        rows({
          integrations: [link('todoist', 'todoist', 't-1'), link('calendar', provider, 'me')],
          calendar: calendarRow(USER, {
            calendarId,
            calendars: [
              { id: 'main', name: 'Calendar', color: null, timeZone: null, primary: true },
              { id: 'own', name: 'Timeboxer', color: null, timeZone: null, primary: false },
              { id: 'team', name: 'Team', color: null, timeZone: null, primary: false, readOnly: true },
            ],
          }),
        }),
        NOW,
      );
      return context.runnable ? context.settings.otherCalendarIds : null;
    };
    for (const provider of ['google', 'microsoft'] as const) {
      expect(others(provider, 'own')).toEqual(['main', 'team']);
      // The main calendar chosen: the others still count when the user says so (Microsoft named none before).
      expect(others(provider, 'main')).toEqual(['own', 'team']);
    }
  });
});
