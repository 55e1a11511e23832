import { describe, expect, it } from 'vitest';
import { testUser } from '../../test/current-user.fixture.ts';
import { connectionSummary } from './connection-summary.ts';

describe('connectionSummary', () => {
  it('is red for both when nothing is connected', () => {
    expect(connectionSummary(testUser())).toEqual([
      { name: 'Todoist', status: 'disconnected', text: 'Todoist is not connected.' },
      { name: 'Calendar', status: 'disconnected', text: 'No calendar is connected.' },
    ]);
  });

  it('is yellow when connected but not configured', () => {
    const [todoist, calendar] = connectionSummary(
      testUser({
        todo: { provider: 'Todoist', connected: true },
        calendar: { provider: 'Microsoft', connected: true },
      }),
    );
    expect(todoist).toMatchObject({
      status: 'incomplete',
      text: expect.stringContaining('no timebox setting'),
    });
    expect(calendar).toMatchObject({ name: 'Microsoft', status: 'incomplete' });
    expect(calendar?.text).toContain('no calendar is chosen');
  });

  it('is green when ready, and names the calendar', () => {
    const [todoist, calendar] = connectionSummary(
      testUser({
        todo: { connected: true, timeboxSettings: [{ label: 'x', duration: 15 }] },
        calendar: {
          provider: 'Google Calendar',
          connected: true,
          calendarId: 'c1',
          calendars: [
            {
              id: 'c1',
              name: 'Work',
              color: '#039be5',
              timeZone: 'Europe/Berlin',
              primary: false,
              readOnly: false,
            },
          ],
        },
      }),
    );
    expect(todoist).toMatchObject({ status: 'ok', text: 'Todoist is connected with 1 timebox setting.' });
    expect(calendar).toMatchObject({ status: 'ok', text: expect.stringContaining('“Work”') });
  });

  it('is yellow when the provider refused our token', () => {
    const [todoist, calendar] = connectionSummary(
      testUser({
        todo: { connected: true, needsReconnect: true },
        calendar: { provider: 'Google Calendar', connected: true, needsReconnect: true },
      }),
    );
    expect(todoist).toMatchObject({ status: 'incomplete', text: 'Todoist needs to be connected again.' });
    expect(calendar).toMatchObject({
      status: 'incomplete',
      text: 'Google Calendar needs to be connected again.',
    });
  });
});
