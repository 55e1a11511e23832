import { describe, expect, it } from 'vitest';
import { busyIntervals, mergeIntervals } from './google-calendar.busy.ts';
import { finalizeDraft } from './google-calendar.event-model.ts';
import type { EventInput } from './google-calendar.schemas.ts';
import { CalendarStore } from './google-calendar.store.ts';

const at = (hhmm: string, day = '10') => Date.parse(`2030-05-${day}T${hhmm}:00Z`);
const span = (from: string, to: string) => ({ startMs: at(from), endMs: at(to) });
const DAY = { fromMs: at('00:00'), toMs: at('00:00', '11') };

function calendarWith(events: EventInput[]) {
  const store = new CalendarStore('UTC');
  store.ensureAccount('ada@example.com', 'Ada');
  const calendar = store.calendarFor('ada@example.com', 'primary');
  if (!calendar) throw new Error('no primary calendar');
  events.forEach((input, index) => {
    store.write(calendar, `event${index}`, finalizeDraft(input, calendar.timeZone));
  });
  return { store, calendar };
}

const timed = (from: string, to: string, extra: EventInput = {}): EventInput => ({
  start: { dateTime: `2030-05-10T${from}:00Z` },
  end: { dateTime: `2030-05-10T${to}:00Z` },
  ...extra,
});

describe('mergeIntervals', () => {
  it('sorts, joins overlapping and back-to-back spans, and keeps gaps', () => {
    expect(
      mergeIntervals(
        [span('14:00', '15:00'), span('09:00', '10:00'), span('09:30', '11:00'), span('11:00', '11:30')],
        DAY,
      ),
    ).toEqual([span('09:00', '11:30'), span('14:00', '15:00')]);
  });

  it('clips to the window and drops what lies outside it or is empty', () => {
    const window = { fromMs: at('09:00'), toMs: at('12:00') };
    expect(
      mergeIntervals(
        [span('08:00', '09:30'), span('11:30', '13:00'), span('07:00', '08:00'), span('10:00', '10:00')],
        window,
      ),
    ).toEqual([span('09:00', '09:30'), span('11:30', '12:00')]);
  });

  it('does not change its input', () => {
    const input = [span('09:00', '10:00'), span('09:30', '11:00')];
    mergeIntervals(input, DAY);
    expect(input).toEqual([span('09:00', '10:00'), span('09:30', '11:00')]);
  });
});

describe('busyIntervals', () => {
  it('counts opaque events (the default) and skips transparent and cancelled ones', () => {
    const { calendar } = calendarWith([
      timed('09:00', '10:00'),
      timed('11:00', '12:00', { transparency: 'opaque' }),
      timed('13:00', '14:00', { transparency: 'transparent' }),
      timed('15:00', '16:00', { status: 'cancelled' }),
      timed('17:00', '18:00', { status: 'tentative' }),
    ]);
    expect(busyIntervals(calendar, DAY)).toEqual([
      span('09:00', '10:00'),
      span('11:00', '12:00'),
      span('17:00', '18:00'),
    ]);
  });

  it('skips an event deleted after it was written', () => {
    const { store, calendar } = calendarWith([timed('09:00', '10:00'), timed('11:00', '12:00')]);
    const event = calendar.events.get('event0');
    if (event) store.cancel(calendar, event);
    expect(busyIntervals(calendar, DAY)).toEqual([span('11:00', '12:00')]);
  });

  it('blocks whole days with an all-day event unless it is transparent', () => {
    const allDay = (date: string, transparency?: 'transparent') => ({
      start: { date: `2030-05-${date}` },
      end: { date: `2030-05-${String(Number(date) + 1)}` },
      ...(transparency ? { transparency } : {}),
    });
    const { calendar } = calendarWith([allDay('10'), allDay('11', 'transparent')]);
    const twoDays = { fromMs: at('00:00'), toMs: at('00:00', '12') };
    expect(busyIntervals(calendar, twoDays)).toEqual([{ startMs: at('00:00'), endMs: at('00:00', '11') }]);
  });

  it('expands recurring events into the instances in the window, without EXDATEs', () => {
    const { calendar } = calendarWith([
      {
        start: { dateTime: '2030-05-06T08:00:00', timeZone: 'UTC' },
        end: { dateTime: '2030-05-06T08:30:00', timeZone: 'UTC' },
        recurrence: ['RRULE:FREQ=DAILY', 'EXDATE;TZID=UTC:20300511T080000', 'EXDATE:20300512T080000Z'],
      },
    ]);
    const window = { fromMs: at('00:00'), toMs: at('00:00', '14') };
    expect(busyIntervals(calendar, window)).toEqual([
      span('08:00', '08:30'),
      { startMs: at('08:00', '13'), endMs: at('08:30', '13') },
    ]);
  });

  it('leaves out transparent recurring events', () => {
    const { calendar } = calendarWith([
      {
        start: { dateTime: '2030-05-06T08:00:00', timeZone: 'UTC' },
        end: { dateTime: '2030-05-06T08:30:00', timeZone: 'UTC' },
        recurrence: ['RRULE:FREQ=DAILY'],
        transparency: 'transparent',
      },
    ]);
    expect(busyIntervals(calendar, DAY)).toEqual([]);
  });
});
