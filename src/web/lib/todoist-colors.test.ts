import { describe, expect, it } from 'vitest';
import { LABEL_COLORS } from '#shared/settings/constants.ts';
import { LABEL_COLOR_HEX, labelColorName, markColorOn, toLabelColor } from './todoist-colors.ts';

describe('label colours', () => {
  it('paints every one of the 20 keys', () => {
    expect(Object.keys(LABEL_COLOR_HEX).sort()).toEqual([...LABEL_COLORS].sort());
  });

  it('names them for people', () => {
    expect(labelColorName('olive_green')).toBe('Olive green');
    expect(labelColorName('teal')).toBe('Teal');
  });

  it('reads keys and legacy codes', () => {
    expect(toLabelColor('grape')).toBe('grape');
    expect(toLabelColor('38')).toBe('teal');
    expect(toLabelColor('nonsense')).toBeNull();
    expect(toLabelColor(null)).toBeNull();
  });
});

describe('markColorOn', () => {
  it('ticks dark on light colours and light on dark ones', () => {
    expect(markColorOn(LABEL_COLOR_HEX.yellow)).toBe('#000');
    expect(markColorOn(LABEL_COLOR_HEX.berry_red)).toBe('#fff');
  });
});
