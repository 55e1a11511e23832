import { describe, expect, it } from 'vitest';
import { mainCalendarId } from './main-calendar.ts';

describe('the account’s main calendar', () => {
  it('is the one the provider marks', () => {
    const marked = [
      { id: 'first', primary: false },
      { id: 'main', primary: true },
    ];
    expect(mainCalendarId('google', marked, 'someone')).toBe('main');
    expect(mainCalendarId('microsoft', marked, null)).toBe('main');
    expect(mainCalendarId('google', [{ id: 'a', primary: false }], 'a')).toBeNull();
  });

  it('falls back, for a list stored before the mark, to what was known then', () => {
    const unmarked = [{ id: 'first' }, { id: 'ada@example.com' }];
    expect(mainCalendarId('google', unmarked, 'ada@example.com')).toBe('ada@example.com');
    expect(mainCalendarId('google', [{ id: 'primary' }], null)).toBe('primary');
    expect(mainCalendarId('google', unmarked, null)).toBeNull();
    expect(mainCalendarId('microsoft', unmarked, null)).toBe('first');
    expect(mainCalendarId('microsoft', [], null)).toBeNull();
  });
});
