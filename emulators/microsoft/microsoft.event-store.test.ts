import { describe, expect, it } from 'vitest';
import { type EventChange, type EventFields, EventStore, type StoredEvent } from './microsoft.event-store.ts';
import { untouchable } from './microsoft.store-testing.ts';

const HOUR_MS = 3_600_000;

function fields(subject: string, hour = 9): EventFields {
  const start = Date.UTC(2030, 4, 1, hour);
  return {
    subject,
    body: { contentType: 'text', content: '' },
    start,
    end: start + HOUR_MS,
    startTimeZone: 'UTC',
    endTimeZone: 'UTC',
    zone: 'UTC',
    isAllDay: false,
    categories: [],
    sensitivity: 'normal',
    showAs: 'busy',
    importance: 'normal',
    isReminderOn: false,
    reminderMinutesBeforeStart: 0,
    location: { displayName: '' },
    recurrence: null,
    singleValueExtendedProperties: [],
  };
}

/** A store whose changes and events of users other than Ada may not be read once written. */
function storeWithOthers(others: number) {
  const events = new EventStore();
  let guarded = false;
  events.onChange((change) => {
    if (guarded) untouchable(change, 'seq', 'userId', 'calendarId', 'eventId');
  });
  guarded = true;
  for (let index = 0; index < others; index += 1) {
    for (const calendarId of ['default', 'timeboxer']) {
      const event = events.create(`other-${index}`, calendarId, fields(`Other ${index}`), `tx-${index}`);
      events.update(event, { subject: 'Renamed' });
      untouchable(event, 'id', 'userId', 'calendarId', 'transactionId', 'createdAt', 'recurrence');
    }
  }
  guarded = false;
  return events;
}

describe('EventStore', () => {
  it("reads one calendar's events and changes without reading any other user's", () => {
    const events = storeWithOthers(50);
    const since = events.seq;
    const plan = events.create('ada', 'timeboxer', fields('Plan'), 'tx-plan');
    const write = events.create('ada', 'timeboxer', fields('Write', 11), null);
    const elsewhere = events.create('ada', 'default', fields('Elsewhere'), 'tx-plan');
    events.update(plan, { subject: 'Plan the week' });
    events.delete(write);

    expect(events.list('ada', 'timeboxer')).toEqual([plan]);
    expect(events.list('ada', 'default')).toEqual([elsewhere]);
    expect(events.get('ada', plan.id)).toBe(plan);
    expect(events.instance('ada', plan.id)?.event).toBe(plan);
    expect(events.byTransactionId('ada', 'timeboxer', 'tx-plan', 0)).toBe(plan);
    expect(events.byTransactionId('ada', 'timeboxer', 'tx-plan', plan.createdAt + 1)).toBeUndefined();
    expect(
      events.instancesInWindow('ada', 'timeboxer', Date.UTC(2030, 4, 1), Date.UTC(2030, 4, 2)),
    ).toHaveLength(1);
    const changes = events.changesSince('ada', 'timeboxer', since);
    expect(changes.map((change) => [change.eventId, change.changeType, change.changedFields])).toEqual([
      [plan.id, 'updated', 'all'],
      [write.id, 'deleted', 'all'],
    ]);
  });

  it('does not hand out an event for another user', () => {
    const events = new EventStore();
    const plan = events.create('ada', 'timeboxer', fields('Plan'), 'tx');
    expect(events.get('grace', plan.id)).toBeUndefined();
    expect(events.list('grace', 'timeboxer')).toEqual([]);
    expect(events.byTransactionId('grace', 'timeboxer', 'tx', 0)).toBeUndefined();
    expect(events.changesSince('grace', 'timeboxer', 0)).toEqual([]);
  });

  it("gives a calendar's changes after a point, the last per event, merged, in the order they happened", () => {
    const events = new EventStore();
    const first = events.create('ada', 'work', fields('First'), null);
    const second = events.create('ada', 'work', fields('Second'), null);
    events.create('ada', 'home', fields('Home'), null);
    const afterCreates = events.seq;
    events.update(first, { subject: 'First again' });
    events.update(second, { isAllDay: true });
    events.update(first, { showAs: 'free' });
    const latest = events.changesSince('ada', 'work', afterCreates);
    expect(latest.map((change) => [change.eventId, change.changedFields])).toEqual([
      [second.id, ['isAllDay']],
      [first.id, ['subject', 'showAs']],
    ]);
    expect(events.changesSince('ada', 'work', events.seq)).toEqual([]);
    expect(events.changesSince('ada', 'work', 0).map((change) => change.eventId)).toEqual([
      second.id,
      first.id,
    ]);
    expect(events.changesSince('ada', 'work', 0).map((change) => change.changedFields)).toEqual([
      'all',
      'all',
    ]);
  });

  it('keeps the order events were made in, in lists and the state, across reset', () => {
    const events = new EventStore();
    const made: StoredEvent[] = [];
    for (const [user, subject] of [
      ['ada', 'One'],
      ['grace', 'Two'],
      ['ada', 'Three'],
    ] as const) {
      made.push(events.create(user, 'calendar', fields(subject), null));
    }
    expect(events.list('ada', 'calendar').map((event) => event.subject)).toEqual(['One', 'Three']);
    expect(events.snapshot()).toEqual({ events: made, changeLogLength: 3, seq: 3 });
    events.reset();
    expect(events.snapshot()).toEqual({ events: [], changeLogLength: 0, seq: 3 });
    expect(events.list('ada', 'calendar')).toEqual([]);
    const seen: EventChange[] = [];
    events.onChange((change) => seen.push(change));
    events.create('ada', 'calendar', fields('Four'), null);
    expect(seen.map((change) => change.seq)).toEqual([4]);
    expect(events.changesSince('ada', 'calendar', 0).map((change) => change.seq)).toEqual([4]);
  });
});
