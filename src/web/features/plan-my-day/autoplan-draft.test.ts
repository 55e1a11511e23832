import { describe, expect, it } from 'vitest';
import {
  OTHER_CALENDARS_BUSY_BY_DEFAULT,
  OTHER_CALENDARS_BUSY_CHOICE,
} from '#shared/settings/autoplan-text.ts';
import { AUTOPLAN_DEFAULTS } from '#shared/settings/constants.ts';
import type { Autoplan } from '#shared/settings/settings.schema.ts';
import {
  autoplanOf,
  chipsOfDays,
  daysFromChips,
  draftOf,
  draftStatus,
  gapOptions,
  hoursKey,
  mainCalendarChosen,
  otherCalendarsBox,
} from './autoplan-draft.ts';

const saved: Autoplan = { ...AUTOPLAN_DEFAULTS, days: [...AUTOPLAN_DEFAULTS.days] };

describe('the working hours draft', () => {
  it('starts from what is saved, days in order, without the switch', () => {
    const draft = draftOf({ ...saved, days: [5, 1, 3], active: true });
    expect(draft).toEqual({
      days: [1, 3, 5],
      start: '09:00',
      end: '17:00',
      gapMinutes: 0,
      otherCalendarsBusy: null,
    });
  });

  it('is unchanged, and so not to be saved, as it started', () => {
    expect(draftStatus(draftOf(saved), saved)).toEqual({
      changed: false,
      valid: true,
      errors: {},
      canSave: false,
    });
  });

  it('may be saved once changed and valid', () => {
    const status = draftStatus({ ...draftOf(saved), end: '18:00' }, saved);
    expect(status.changed).toBe(true);
    expect(status.canSave).toBe(true);
  });

  it('counts the same days in another order as no change', () => {
    expect(draftStatus({ ...draftOf(saved), days: [5, 4, 3, 2, 1] }, saved).changed).toBe(false);
  });

  it('refuses no working day, with the schema’s message', () => {
    const status = draftStatus({ ...draftOf(saved), days: [] }, saved);
    expect(status.canSave).toBe(false);
    expect(status.errors).toEqual({ days: 'Choose at least one working day.' });
  });

  it('refuses hours that end before or when they start', () => {
    for (const end of ['08:00', '09:00']) {
      const status = draftStatus({ ...draftOf(saved), end }, saved);
      expect(status.valid).toBe(false);
      expect(status.errors).toEqual({ end: 'Working hours must end after they start.' });
    }
  });

  it('refuses an empty or broken time, beside its field', () => {
    const status = draftStatus({ ...draftOf(saved), start: '' }, saved);
    expect(status.canSave).toBe(false);
    expect(status.errors.start).toBe('Use a time from 00:00 to 23:59.');
  });

  it('refuses a gap over 30 minutes', () => {
    expect(draftStatus({ ...draftOf(saved), gapMinutes: 45 }, saved).errors).toEqual({
      gapMinutes: 'The gap is 0 to 30 minutes.',
    });
  });

  it('saves the draft with the switch as it is', () => {
    const draft = { ...draftOf(saved), days: [3, 1] };
    expect(autoplanOf(draft, true)).toEqual({ ...saved, active: true, days: [1, 3] });
    expect(autoplanOf(draft, false).active).toBe(false);
  });

  it('keys the saved hours, not the switch', () => {
    expect(hoursKey({ ...saved, active: true })).toBe(hoursKey(saved));
    expect(hoursKey({ ...saved, start: '08:00' })).not.toBe(hoursKey(saved));
  });
});

describe('the chips and the gap select', () => {
  it('reads the chips as ISO weekdays in order, and back', () => {
    expect(daysFromChips(['7', '1', '3', '3', 'x', '9'])).toEqual([1, 3, 7]);
    expect(chipsOfDays([1, 3, 7])).toEqual(['1', '3', '7']);
  });

  it('offers the gaps, and a saved one off the list in its place', () => {
    expect(gapOptions(0).map((option) => option.label)).toEqual([
      'No gap',
      '5 minutes',
      '10 minutes',
      '15 minutes',
      '20 minutes',
      '30 minutes',
    ]);
    expect(gapOptions(25).map((option) => option.value)).toEqual(['0', '5', '10', '15', '20', '25', '30']);
    expect(gapOptions(45)).toHaveLength(6);
  });
});

describe('the other calendars checkbox', () => {
  const calendars = [
    { id: 'main', name: 'Ada', color: null, timeZone: null, primary: true, readOnly: false },
    { id: 'own', name: 'Timeboxer', color: null, timeZone: null, primary: false, readOnly: false },
  ];

  it('knows whether the chosen calendar is the main one', () => {
    expect(mainCalendarChosen({ calendarId: 'main', calendars })).toBe(true);
    expect(mainCalendarChosen({ calendarId: 'own', calendars })).toBe(false);
    expect(mainCalendarChosen({ calendarId: null, calendars })).toBe(false);
  });

  it('is ticked beside a calendar of its own until the user chooses, and says why', () => {
    expect(otherCalendarsBox({ otherCalendarsBusy: null }, false)).toEqual({
      checked: true,
      description: OTHER_CALENDARS_BUSY_BY_DEFAULT,
    });
    expect(otherCalendarsBox({ otherCalendarsBusy: null }, true)).toEqual({
      checked: false,
      description: OTHER_CALENDARS_BUSY_CHOICE,
    });
    expect(otherCalendarsBox({ otherCalendarsBusy: false }, false).checked).toBe(false);
    expect(otherCalendarsBox({ otherCalendarsBusy: true }, true)).toEqual({
      checked: true,
      description: OTHER_CALENDARS_BUSY_CHOICE,
    });
  });
});
