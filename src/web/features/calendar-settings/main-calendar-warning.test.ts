import { describe, expect, it } from 'vitest';
import { testUser } from '../../test/current-user.fixture.ts';
import { mainCalendarSentence, needsMainCalendarWarning, warnedCalendar } from './main-calendar-warning.ts';

const google = testUser({
  calendar: { provider: 'Google Calendar', connected: true, calendarId: 'a', color: '7' },
}).calendarSettings;
const microsoft = testUser({
  calendar: { provider: 'Microsoft', connected: true, calendarId: 'a', category: 'Timeboxer' },
}).calendarSettings;

describe('needsMainCalendarWarning (docs/product-rules.md §4)', () => {
  it('warns when Google gets the default colour, not for a real colour', () => {
    expect(needsMainCalendarWarning(google, { kind: 'color', color: '' })).toBe(true);
    expect(needsMainCalendarWarning(google, { kind: 'color', color: '11' })).toBe(false);
  });

  it('warns when Microsoft gets no category', () => {
    expect(needsMainCalendarWarning(microsoft, { kind: 'category', category: null })).toBe(true);
    expect(needsMainCalendarWarning(microsoft, { kind: 'category', category: 'Work' })).toBe(false);
  });

  it('warns on a calendar change only while the default is still chosen', () => {
    expect(needsMainCalendarWarning(google, { kind: 'calendar', calendarId: 'b' })).toBe(false);
    expect(needsMainCalendarWarning({ ...google, color: '' }, { kind: 'calendar', calendarId: 'b' })).toBe(
      true,
    );
    expect(needsMainCalendarWarning({ ...google, color: '' }, { kind: 'calendar', calendarId: 'a' })).toBe(
      false,
    );
    expect(
      needsMainCalendarWarning({ ...microsoft, category: null }, { kind: 'calendar', calendarId: 'b' }),
    ).toBe(true);
  });

  it('warns when the first calendar is chosen with the default colour', () => {
    expect(
      needsMainCalendarWarning(
        { ...google, calendarId: null, color: '' },
        { kind: 'calendar', calendarId: 'a' },
      ),
    ).toBe(true);
  });
});

describe('what the warning says of the calendar', () => {
  const calendars = [
    { id: 'a', name: 'Ada', color: null, timeZone: null, primary: true, readOnly: false },
    { id: 'b', name: 'Timeboxer', color: null, timeZone: null, primary: false, readOnly: false },
  ];
  const settings = { ...google, calendars, color: '' };

  it('is about the calendar a change chooses, else the one synced with', () => {
    expect(warnedCalendar(settings, { kind: 'calendar', calendarId: 'b' })?.name).toBe('Timeboxer');
    expect(warnedCalendar(settings, { kind: 'color', color: '' })?.name).toBe('Ada');
    expect(warnedCalendar({ ...settings, calendars: [] }, { kind: 'color', color: '' })).toBeNull();
  });

  it('says whether it is the main calendar, when it is known', () => {
    expect(mainCalendarSentence(calendars[0] ?? null)).toMatch(/^Ada is your main calendar/);
    expect(mainCalendarSentence(calendars[1] ?? null)).toMatch(/^Timeboxer is not your main calendar/);
    expect(mainCalendarSentence(null)).toMatch(/^If this is your main calendar/);
  });
});
