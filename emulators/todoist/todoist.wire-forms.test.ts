import { describe, expect, it } from 'vitest';
import { setUpReceiver } from '../shared/testing/set-up-receiver.ts';
import { control, setUpSeededTodoist } from './todoist.test-support.ts';
import { dueWire, PLAIN_WIRE_FORMS } from './todoist.wire-forms.ts';

/**
 * The documented forms of a due's time on the wire: with six fractional digits, as Todoist's due-date
 * document writes them, or without, as the v1 SDKs' fixtures do; REST, Sync and webhooks alike.
 */

const received: string[] = [];
const receiver = setUpReceiver('/todoist', (body) => {
  received.push(body);
  return undefined;
});
const todoist = setUpSeededTodoist({ email: 'ada@example.com', timezone: 'Europe/Berlin' });

const fractional = (on: boolean) => control(todoist.origin, 'forms', { dueFractionalSeconds: on });

describe('dueWire', () => {
  it('writes a date-time with or without fractional seconds, and a date as it is', () => {
    const floating = {
      date: '2026-03-12T14:00:00',
      timezone: null,
      string: '',
      lang: 'en',
      is_recurring: false,
    };
    const on = { dueFractionalSeconds: true };
    expect(dueWire(floating, on).date).toBe('2026-03-12T14:00:00.000000');
    expect(dueWire({ ...floating, date: '2026-03-12T13:00:00Z' }, on).date).toBe(
      '2026-03-12T13:00:00.000000Z',
    );
    expect(dueWire({ ...floating, date: '2026-03-12' }, on).date).toBe('2026-03-12');
    expect(dueWire(floating, PLAIN_WIRE_FORMS).date).toBe('2026-03-12T14:00:00');
  });
});

describe('the due forms on the wire', () => {
  it('answers REST and Sync reads in the form set, and the plain one after a reset', async () => {
    const floating = await todoist.api.addTask({ content: 'Floating', dueDatetime: '2026-03-12T14:00:00' });
    const fixed = await todoist.api.addTask({ content: 'Fixed', dueDatetime: '2026-03-12T13:00:00Z' });
    expect(floating.due?.date).toBe('2026-03-12T14:00:00');

    await fractional(true);
    expect((await todoist.api.getTask(floating.id)).due?.date).toBe('2026-03-12T14:00:00.000000');
    expect((await todoist.api.getTask(fixed.id)).due).toMatchObject({
      date: '2026-03-12T13:00:00.000000Z',
      timezone: 'Europe/Berlin',
    });
    const sync = await todoist.api.sync({ syncToken: '*', resourceTypes: ['items'] });
    expect(sync.items?.map((item) => item.due?.date).sort()).toEqual([
      '2026-03-12T13:00:00.000000Z',
      '2026-03-12T14:00:00.000000',
    ]);

    await fractional(false);
    expect((await todoist.api.getTask(floating.id)).due?.date).toBe('2026-03-12T14:00:00');
  });

  it('posts webhooks in the form set', async () => {
    received.length = 0;
    await control(todoist.origin, 'webhook', { url: receiver.address() });
    await fractional(true);
    await todoist.api.addTask({ content: 'Floating', dueDatetime: '2026-03-12T14:00:00' });
    await control(todoist.origin, 'notifications/flush');
    expect(received.map((body) => JSON.parse(body).event_data.due.date)).toEqual([
      '2026-03-12T14:00:00.000000',
    ]);
  });
});
