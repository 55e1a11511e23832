import { describe, expect, it } from 'vitest';
import { SYNC_ALL_TASKS } from './constants.ts';
import { labelColorKey } from './label-colors.ts';
import {
  calendarStatus,
  canUseTaskDuration,
  formatHours,
  isConnected,
  pluralizeMinutes,
  sortTimeboxes,
  syncToggleAllowed,
  taskDurationOptions,
  todoistStatus,
} from './rules.ts';
import { durationError, labelError, MESSAGES } from './settings.schema.ts';

describe('durationError (checked in spec order)', () => {
  it.each([
    ['', MESSAGES.durationEmpty],
    ['   ', MESSAGES.durationEmpty],
    [undefined, MESSAGES.durationEmpty],
    ['abc', MESSAGES.durationNotNumber],
    [true, MESSAGES.durationNotNumber],
    // Number() reads these as 30; a duration is digits only.
    ['0x1E', MESSAGES.durationNotNumber],
    [' 3e1 ', MESSAGES.durationNotNumber],
    ['30min', MESSAGES.durationNotNumber],
    [{}, MESSAGES.durationNotNumber],
    // ASCII digits only: no sign, leading zero, other digits, or a byte-order mark before them.
    ['+30', MESSAGES.durationNotNumber],
    ['030', MESSAGES.durationNotNumber],
    ['\uFEFF30', MESSAGES.durationNotNumber],
    ['\u00A030', MESSAGES.durationNotNumber],
    ['３０', MESSAGES.durationNotNumber],
    ['30.0', MESSAGES.durationNotInteger],
    ['-5', MESSAGES.durationRange],
    ['12.5', MESSAGES.durationNotInteger],
    [12.5, MESSAGES.durationNotInteger],
    ['0', MESSAGES.durationRange],
    [-5, MESSAGES.durationRange],
    [1441, MESSAGES.durationRange],
  ])('%j → %s', (value, message) => {
    expect(durationError(value)).toBe(message);
  });

  it.each([1, '30', 1440, ' 60 '])('accepts %j', (value) => {
    expect(durationError(value)).toBeNull();
  });
});

describe('labelError', () => {
  it('needs a label of at most 60 characters', () => {
    expect(labelError('')).toBe(MESSAGES.labelEmpty);
    expect(labelError(undefined)).toBe(MESSAGES.labelEmpty);
    expect(labelError('x'.repeat(61))).toBe(MESSAGES.labelTooLong);
    expect(labelError('x'.repeat(60))).toBeNull();
  });

  it('refuses control characters (a NUL the database cannot store, line breaks)', () => {
    expect(labelError('a\u0000b')).toBe(MESSAGES.controlCharacters);
    expect(labelError('two\nlines')).toBe(MESSAGES.controlCharacters);
    // Half of an emoji: no database stores it (a lone surrogate in jsonb fails the whole write).
    expect(labelError('\ud800')).toBe(MESSAGES.controlCharacters);
    expect(labelError('emoji 😀')).toBeNull();
    expect(labelError('Deep work ✓')).toBeNull();
  });

  it('refuses the label of another setting, whatever its case', () => {
    expect(labelError('30Minutes', ['30minutes', '1_h'])).toBe(MESSAGES.labelDuplicate);
    expect(labelError('45Minutes', ['30minutes', '1_h'])).toBeNull();
  });
});

describe('formatHours and pluralizeMinutes', () => {
  it.each([
    [0, '0:00'],
    [5, '0:05'],
    [60, '1:00'],
    [90, '1:30'],
    [1440, '24:00'],
  ])('%i minutes → %s', (minutes, hours) => {
    expect(formatHours(minutes)).toBe(hours);
  });

  it.each([[''], ['abc'], [12.5], [-1], [true]])('%j → ---', (value) => {
    expect(formatHours(value)).toBe('---');
  });

  it('pluralises unless exactly one', () => {
    expect(pluralizeMinutes(1)).toBe('1 minute');
    expect(pluralizeMinutes(0)).toBe('0 minutes');
    expect(pluralizeMinutes(30)).toBe('30 minutes');
  });
});

describe('sorting', () => {
  it('sorts timeboxes by duration ascending', () => {
    const sorted = sortTimeboxes([
      { label: 'b', duration: 60 },
      { label: 'a', duration: 15 },
      { label: 'c', duration: 30 },
    ]);
    expect(sorted.map((s) => s.duration)).toEqual([15, 30, 60]);
  });

  it('puts the sync-all option first, then labels by item_order', () => {
    const options = taskDurationOptions([
      { id: '2', name: 'second', color: 'red', item_order: 2 },
      { id: '1', name: 'first', color: 'red', item_order: 1 },
    ]);
    expect(options.map((o) => o.value)).toEqual([SYNC_ALL_TASKS, 'first', 'second']);
  });
});

describe('sync toggle and status', () => {
  const ready = { todoistConnected: true, timeboxCount: 1, calendarConnected: true, calendarChosen: true };

  it('switches on only when everything is in place', () => {
    expect(syncToggleAllowed(ready, true)).toBe(true);
    for (const missing of ['todoistConnected', 'calendarConnected', 'calendarChosen'] as const) {
      expect(syncToggleAllowed({ ...ready, [missing]: false }, true)).toBe(false);
    }
    expect(syncToggleAllowed({ ...ready, timeboxCount: 0 }, true)).toBe(false);
  });

  it('always switches off', () => {
    expect(syncToggleAllowed({ ...ready, todoistConnected: false, calendarConnected: false }, false)).toBe(
      true,
    );
  });

  it('shows red, yellow or green per integration', () => {
    expect(todoistStatus(false, 3)).toBe('disconnected');
    expect(todoistStatus(true, 0)).toBe('incomplete');
    expect(todoistStatus(true, 2)).toBe('ok');
    expect(calendarStatus(true, false)).toBe('incomplete');
    expect(calendarStatus(true, true)).toBe('ok');
  });

  it('allows task durations for Premium and Business only', () => {
    expect(canUseTaskDuration('Premium')).toBe(true);
    expect(canUseTaskDuration('Business')).toBe(true);
    expect(canUseTaskDuration('Free')).toBe(false);
    expect(canUseTaskDuration(null)).toBe(false);
  });

  it('maps the legacy colour code 38 to teal', () => {
    expect(labelColorKey(38)).toBe('teal');
    expect(labelColorKey(30)).toBe('berry_red');
    expect(labelColorKey('grape')).toBe('grape');
  });
});

describe('isConnected', () => {
  it.each([
    [{ connected: true, needsReconnect: false }, true],
    [{ connected: true, needsReconnect: true }, false],
    [{ connected: false, needsReconnect: false }, false],
    [{ needsReconnect: false }, true],
    [{ needsReconnect: true }, false],
    [null, false],
    [undefined, false],
  ])('%o is connected: %s', (integration, expected) => {
    expect(isConnected(integration)).toBe(expected);
  });
});
