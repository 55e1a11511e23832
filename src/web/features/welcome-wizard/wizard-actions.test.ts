import { describe, expect, it } from 'vitest';
import type { CalendarSettings, TodoSettings } from '#shared/api/current-user.schema.ts';
import { sectionIds } from '../../lib/paths.ts';
import { setupProgress } from '../../lib/setup-steps.ts';
import { testUser } from '../../test/current-user.fixture.ts';
import { wizardActions } from './wizard-actions.ts';
import { WIZARD_STEPS } from './wizard-steps.tsx';

const todoist: Partial<TodoSettings> = { provider: 'Todoist', connected: true, userId: '7' };
const microsoft: Partial<CalendarSettings> = {
  provider: 'Microsoft',
  connected: true,
  calendars: [{ id: 'cal-1', name: 'Calendar', color: null, timeZone: null, primary: true, readOnly: false }],
};

describe('wizardActions', () => {
  it('offers every connection to a new user, and no timebox or calendar choice yet', () => {
    const progress = setupProgress(testUser());
    expect(wizardActions('connect', progress)).toEqual([
      { kind: 'connect', providers: ['Todoist'], again: false },
      { kind: 'connect', providers: ['Google Calendar', 'Microsoft'], again: false },
    ]);
    expect(wizardActions('timebox', progress)).toEqual([
      { kind: 'blocked', text: 'Connect Todoist first (step 3): its labels become your timeboxes.' },
    ]);
    expect(wizardActions('calendar', progress)).toEqual([
      { kind: 'blocked', text: 'Connect a calendar first (step 3) to choose one.' },
    ]);
  });

  it('shows a step already done instead of its button', () => {
    const progress = setupProgress(
      testUser({
        todo: { ...todoist, timeboxSettings: [{ label: 'a', duration: 15 }] },
        calendar: { ...microsoft, calendarId: 'cal-1' },
      }),
    );
    expect(wizardActions('connect', progress)).toEqual([
      { kind: 'done', text: 'Todoist is connected ✓' },
      { kind: 'done', text: 'Microsoft 365 is connected ✓' },
    ]);
    expect(wizardActions('timebox', progress)).toEqual([
      { kind: 'done', text: 'You have 1 timebox setting ✓' },
    ]);
    expect(wizardActions('calendar', progress)).toEqual([
      { kind: 'done', text: 'Timeboxer syncs with the calendar “Calendar” ✓' },
    ]);
  });

  it('sends to the dashboard sections once their step can be done', () => {
    const progress = setupProgress(testUser({ todo: todoist, calendar: microsoft }));
    expect(wizardActions('timebox', progress)).toMatchObject([
      { kind: 'go', label: 'Add a timebox setting', sectionId: sectionIds.timeboxSettings },
    ]);
    expect(wizardActions('calendar', progress)).toMatchObject([
      { kind: 'go', label: 'Choose your calendar', sectionId: sectionIds.calendarSettings },
    ]);
  });

  it('offers to connect again what no longer works', () => {
    const progress = setupProgress(
      testUser({
        todo: { ...todoist, needsReconnect: true },
        calendar: { ...microsoft, needsReconnect: true },
      }),
    );
    expect(wizardActions('connect', progress)).toEqual([
      { kind: 'connect', providers: ['Todoist'], again: true },
      { kind: 'connect', providers: ['Microsoft'], again: true },
    ]);
  });
});

describe('WIZARD_STEPS', () => {
  it('has the five steps of docs/product-rules.md §9, the setup ones with their actions', () => {
    expect(WIZARD_STEPS).toHaveLength(5);
    expect(WIZARD_STEPS.map((step) => step.action ?? null)).toEqual([
      null,
      null,
      'connect',
      'timebox',
      'calendar',
    ]);
  });
});
