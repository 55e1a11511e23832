import { describe, expect, it } from 'vitest';
import { GOOGLE_EVENT_COLORS, REMINDER_OPTIONS } from '#shared/settings/constants.ts';
import {
  fromCategoryValue,
  fromEventColorValue,
  fromReminderValue,
  GOOGLE_EVENT_COLOR_HEX,
  swatchColor,
  toCategoryValue,
  toEventColorValue,
  toReminderValue,
} from './calendar-colors.ts';

describe('calendar colours', () => {
  it('paints every Google event colour but the default', () => {
    for (const color of GOOGLE_EVENT_COLORS.filter((entry) => entry.id !== '')) {
      expect(GOOGLE_EVENT_COLOR_HEX[color.id]).toMatch(/^#[0-9a-f]{6}$/);
    }
  });

  it('reads hex colours and Microsoft names', () => {
    expect(swatchColor('#9fe1e7')).toBe('#9fe1e7');
    expect(swatchColor('lightBlue')).toMatch(/^#/);
    expect(swatchColor('preset24')).toMatch(/^#/);
    expect(swatchColor('auto')).toBeNull();
    expect(swatchColor(null)).toBeNull();
  });

  it('round-trips the values a Select cannot hold', () => {
    expect(fromEventColorValue(toEventColorValue(''))).toBe('');
    expect(fromEventColorValue(toEventColorValue('11'))).toBe('11');
    expect(fromCategoryValue(toCategoryValue(null))).toBeNull();
    expect(fromCategoryValue(toCategoryValue('Work'))).toBe('Work');
    for (const option of REMINDER_OPTIONS) {
      expect(fromReminderValue(toReminderValue(option.value))).toBe(option.value);
    }
  });
});
