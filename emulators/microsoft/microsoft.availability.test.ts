import { describe, expect, it } from 'vitest';
import { availabilityView, type FreeBusyStatus, statusOf } from './microsoft.availability.ts';

const at = (hhmm: string) => Date.parse(`2030-05-06T${hhmm}:00Z`);
const span = (status: FreeBusyStatus, from: string, to: string) => ({ status, start: at(from), end: at(to) });
const NINE_TO_ONE = { from: at('09:00'), to: at('13:00') };

describe('statusOf', () => {
  it('maps showAs to the freeBusyStatus values, whatever the case', () => {
    expect(['free', 'tentative', 'busy', 'oof', 'workingElsewhere', 'unknown'].map(statusOf)).toEqual([
      'free',
      'tentative',
      'busy',
      'oof',
      'workingElsewhere',
      'unknown',
    ]);
    expect(statusOf('WorkingElsewhere')).toBe('workingElsewhere');
    expect(statusOf('something new')).toBe('unknown');
  });
});

describe('availabilityView', () => {
  it('is all zeros, one per slot, when nothing is scheduled', () => {
    expect(availabilityView([], NINE_TO_ONE, 30)).toBe('00000000');
    expect(availabilityView([], NINE_TO_ONE, 60)).toBe('0000');
  });

  it('writes each status with its digit', () => {
    const spans = [
      span('tentative', '09:00', '09:30'),
      span('busy', '09:30', '10:00'),
      span('oof', '10:00', '10:30'),
      span('workingElsewhere', '10:30', '11:00'),
      span('free', '11:00', '11:30'),
    ];
    expect(availabilityView(spans, NINE_TO_ONE, 30)).toBe('12340000');
  });

  it('marks every slot a span overlaps, but not one it only touches', () => {
    expect(availabilityView([span('busy', '09:15', '10:00')], NINE_TO_ONE, 30)).toBe('22000000');
    expect(availabilityView([span('busy', '08:00', '09:00')], NINE_TO_ONE, 30)).toBe('00000000');
    expect(availabilityView([span('busy', '12:45', '14:00')], NINE_TO_ONE, 30)).toBe('00000002');
  });

  it('shows the strongest status where spans overlap: oof, busy, tentative, working elsewhere, free', () => {
    const spans = [
      span('free', '09:00', '13:00'),
      span('workingElsewhere', '09:30', '13:00'),
      span('tentative', '10:00', '13:00'),
      span('busy', '11:00', '12:00'),
      span('oof', '12:30', '13:00'),
    ];
    expect(availabilityView(spans, NINE_TO_ONE, 30)).toBe('04112213');
  });

  it('counts an unknown status as busy', () => {
    expect(availabilityView([span('unknown', '09:00', '10:00')], NINE_TO_ONE, 60)).toBe('2000');
  });

  it('ends with a short slot when the window is not a whole number of slots', () => {
    const window = { from: at('09:00'), to: at('10:10') };
    expect(availabilityView([span('busy', '10:05', '10:30')], window, 30)).toBe('002');
  });

  it('is empty for an empty window', () => {
    expect(
      availabilityView([span('busy', '09:00', '10:00')], { from: at('09:00'), to: at('09:00') }, 30),
    ).toBe('');
  });
});
