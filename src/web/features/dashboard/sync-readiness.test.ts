import { describe, expect, it } from 'vitest';
import { syncToggleAllowed } from '#shared/settings/rules.ts';
import { syncReadiness } from '../../lib/sync-readiness.ts';
import { testUser } from '../../test/current-user.fixture.ts';
import { joinSteps, missingForSync } from './sync-readiness.ts';

const ready = testUser({
  todo: {
    provider: 'Todoist',
    connected: true,
    userId: '7',
    timeboxSettings: [{ label: 'a', duration: 30 }],
  },
  calendar: { provider: 'Google Calendar', connected: true, calendarId: 'primary' },
});

describe('syncReadiness', () => {
  it('is ready when everything of docs/product-rules.md §4 is in place', () => {
    const readiness = syncReadiness(ready);
    expect(syncToggleAllowed(readiness, true)).toBe(true);
    expect(missingForSync(readiness)).toEqual([]);
  });

  it('names every missing step, in the order a person would do them', () => {
    const readiness = syncReadiness(testUser());
    expect(syncToggleAllowed(readiness, true)).toBe(false);
    expect(missingForSync(readiness)).toEqual([
      'connect Todoist',
      'add at least one timebox setting',
      'connect Google Calendar or Microsoft 365',
    ]);
  });

  it('asks for a calendar once the account is connected', () => {
    const user = { ...ready, calendarSettings: { ...ready.calendarSettings, calendarId: null } };
    expect(missingForSync(syncReadiness(user))).toEqual(['choose a calendar in the Calendar Settings']);
  });

  it('treats an integration that must be connected again as not connected', () => {
    const user = { ...ready, todoSettings: { ...ready.todoSettings, needsReconnect: true } };
    expect(syncToggleAllowed(syncReadiness(user), true)).toBe(false);
    expect(missingForSync(syncReadiness(user))).toEqual(['connect Todoist']);
  });

  it('always allows switching off', () => {
    expect(syncToggleAllowed(syncReadiness(testUser()), false)).toBe(true);
  });
});

describe('joinSteps', () => {
  it('joins like a sentence', () => {
    expect(joinSteps([])).toBe('');
    expect(joinSteps(['a'])).toBe('a');
    expect(joinSteps(['a', 'b'])).toBe('a and b');
    expect(joinSteps(['a', 'b', 'c'])).toBe('a, b and c');
  });
});
