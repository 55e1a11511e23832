import { describe, expect, it } from 'vitest';
import type { CalendarSettings, TodoSettings } from '#shared/api/current-user.schema.ts';
import { testUser } from '../test/current-user.fixture.ts';
import { nextStep, SETUP_STEPS, setupProgress } from './setup-steps.ts';

const todoist: Partial<TodoSettings> = { provider: 'Todoist', connected: true, userId: '7' };
const google: Partial<CalendarSettings> = {
  provider: 'Google Calendar',
  connected: true,
  calendars: [{ id: 'cal-1', name: 'Work', color: null, timeZone: null, primary: true, readOnly: false }],
};
const timebox = { timeboxSettings: [{ label: '30Minutes', duration: 30 }] };

describe('nextStep', () => {
  it('asks a new user to connect Todoist first', () => {
    expect(nextStep(testUser())).toEqual({
      step: 'connect-todoist',
      position: 1,
      again: false,
      calendarProvider: null,
    });
  });

  it('leads through the steps in order: Todoist, calendar, timebox, calendar choice, sync', () => {
    const steps = [
      testUser(),
      testUser({ todo: todoist }),
      testUser({ todo: todoist, calendar: google }),
      testUser({ todo: { ...todoist, ...timebox }, calendar: google }),
      testUser({ todo: { ...todoist, ...timebox }, calendar: { ...google, calendarId: 'cal-1' } }),
    ].map((user) => nextStep(user)?.step);
    expect(steps).toEqual([...SETUP_STEPS]);
  });

  it('asks for the calendar account before a timebox setting, even without Todoist', () => {
    expect(nextStep(testUser({ calendar: google }))?.step).toBe('connect-todoist');
    expect(nextStep(testUser({ todo: { ...todoist, ...timebox } }))).toMatchObject({
      step: 'connect-calendar',
      position: 2,
    });
  });

  it('is nothing once sync is on', () => {
    const ready = { todo: { ...todoist, ...timebox }, calendar: { ...google, calendarId: 'cal-1' } };
    expect(nextStep(testUser({ ...ready, user: { syncActive: true } }))).toBeNull();
    expect(nextStep(testUser({ user: { syncActive: true } }))).toBeNull();
  });

  it('asks to connect again a connection that no longer works', () => {
    expect(nextStep(testUser({ todo: { ...todoist, needsReconnect: true } }))).toMatchObject({
      step: 'connect-todoist',
      again: true,
    });
    expect(
      nextStep(
        testUser({ todo: todoist, calendar: { ...google, needsReconnect: true, calendarId: 'cal-1' } }),
      ),
    ).toEqual({ step: 'connect-calendar', position: 2, again: true, calendarProvider: 'Google Calendar' });
  });
});

describe('setupProgress', () => {
  it('names the chosen calendar, and its id while the list lacks it', () => {
    expect(setupProgress(testUser({ calendar: { ...google, calendarId: 'cal-1' } })).calendarName).toBe(
      'Work',
    );
    expect(setupProgress(testUser({ calendar: { ...google, calendarId: 'gone' } })).calendarName).toBe(
      'gone',
    );
    expect(setupProgress(testUser({ calendar: google })).calendarName).toBeNull();
  });

  it('does not count a calendar choice without a working calendar account', () => {
    const progress = setupProgress(
      testUser({ calendar: { ...google, calendarId: 'cal-1', needsReconnect: true } }),
    );
    expect(progress.done['choose-calendar']).toBe(false);
    expect(progress).toMatchObject({ calendarProvider: 'Google Calendar', calendarAgain: true });
  });
});
