import { describe, expect, it } from 'vitest';
import {
  needsFullRead,
  newEventFields,
  taskIdFromTransactionId,
  toCalendarEvent,
  transactionIdFor,
} from './microsoft-calendar-events.mapper.ts';
import { fromGraphDateTime, toGraphDateTime, writableZone } from './microsoft-date-time.ts';
import { deltaRequest, writeDeltaToken } from './microsoft-delta-token.ts';
import { eventWrite, graphEvent } from './microsoft-graph-events.fixture.ts';

describe('transaction ids', () => {
  it('carry the task id and stay the same for the same attempt', () => {
    const id = transactionIdFor('key:1', 'task/1');
    expect(id).toBe(transactionIdFor('key:1', 'task/1'));
    expect(taskIdFromTransactionId(id)).toBe('task/1');
    expect(taskIdFromTransactionId('0f8fad5b-d9cb-469f-a165-70867728950e')).toBeNull();
    expect(taskIdFromTransactionId(null)).toBeNull();
  });

  it('stay short and free of quotes, whatever the key and task id', () => {
    const id = transactionIdFor('k'.repeat(300), "it's (a) task");
    expect(id.length).toBeLessThanOrEqual(255);
    expect(id).toMatch(/^[A-Za-z0-9%#:._~-]+$/);
    expect(taskIdFromTransactionId(id)).toBe("it's (a) task");
    expect(transactionIdFor('sync-42.evt', 'task-1')).toBe('timeboxer:task-1:sync-42.evt');
  });
});

describe('reading Graph events', () => {
  const full = graphEvent('e', 'Focus', '2030-05-01T09:00:00Z', '2030-05-01T10:30:00Z', {
    categories: ['Blue'],
    changeKey: 'ck',
  });

  it('maps a complete event, and knows when an update is too thin to map', () => {
    expect(needsFullRead(full)).toBe(false);
    expect(needsFullRead({ id: 'e', subject: 'Only the title' })).toBe(true);
    expect(needsFullRead({ id: 'e', '@removed': { reason: 'deleted' } })).toBe(false);
    expect(needsFullRead({ id: 'o', type: 'occurrence' })).toBe(false);
    expect(toCalendarEvent(full)).toMatchObject({
      start: new Date('2030-05-01T09:00:00Z'),
      end: new Date('2030-05-01T10:30:00Z'),
      recurring: false,
      categories: ['Blue'],
      taskTag: null,
      updatedAt: null,
    });
  });

  it('treats removed and cancelled events as deleted', () => {
    expect(toCalendarEvent({ id: 'x', '@removed': { reason: 'deleted' } })).toMatchObject({ deleted: true });
    expect(toCalendarEvent({ ...full, isCancelled: true })).toMatchObject({ deleted: true });
  });
});

describe('writing Graph events', () => {
  it('writes in the user zone, a 0-minute reminder, and no body without a description', () => {
    const fields = newEventFields(eventWrite({ reminderMinutes: 0 }), 'key');
    expect(fields).toMatchObject({
      start: { dateTime: '2030-05-01T09:00:00.0000000', timeZone: 'Europe/Berlin' },
      end: { dateTime: '2030-05-01T10:00:00.0000000', timeZone: 'Europe/Berlin' },
      isReminderOn: true,
      reminderMinutesBeforeStart: 0,
      categories: [],
      sensitivity: 'normal',
    });
    expect(fields).not.toHaveProperty('body');
  });
});

describe('Graph date-times', () => {
  it('falls back to UTC in the repeated hour of a DST change, and for unknown zones', () => {
    const repeated = new Date('2030-10-27T00:30:00Z'); // 02:30 in Berlin, which happens twice
    expect(writableZone([repeated], 'Europe/Berlin')).toBe('UTC');
    expect(writableZone([new Date('2030-10-27T05:00:00Z')], 'Europe/Berlin')).toBe('Europe/Berlin');
    expect(writableZone([repeated], 'Not/AZone')).toBe('UTC');
    expect(toGraphDateTime(repeated, 'UTC')).toEqual({
      dateTime: '2030-10-27T00:30:00.0000000',
      timeZone: 'UTC',
    });
  });

  it('reads UTC, offsets and IANA zones back to the same instant', () => {
    const instant = new Date('2030-03-31T01:15:00Z');
    expect(fromGraphDateTime(toGraphDateTime(instant, 'Europe/Berlin'))).toEqual(instant);
    expect(fromGraphDateTime({ dateTime: '2030-03-31T01:15:00.0000000', timeZone: 'UTC' })).toEqual(instant);
    expect(fromGraphDateTime({ dateTime: 'nonsense', timeZone: 'UTC' })).toBeNull();
    expect(
      fromGraphDateTime({ dateTime: '2030-03-31T01:15:00', timeZone: 'Pacific Standard Time' }),
    ).toBeNull();
  });
});

describe('delta tokens', () => {
  const now = new Date('2030-05-10T12:00:00Z');
  const graph = 'https://graph.microsoft.com';

  it('starts a window a day before today, about a year long, and keeps its start in the token', () => {
    const first = deltaRequest(null, graph, now);
    expect(first).toMatchObject({
      kind: 'first',
      window: { startDateTime: '2030-05-09T00:00:00.000Z', endDateTime: '2031-05-11T00:00:00.000Z' },
    });
    const token = writeDeltaToken(
      `${graph}/v1.0/me/calendarView/delta?$deltatoken=x`,
      new Date('2030-05-09T00:00:00Z'),
    );
    expect(deltaRequest(token, graph, now)).toMatchObject({
      kind: 'next',
      link: `${graph}/v1.0/me/calendarView/delta?$deltatoken=x`,
    });
    expect(deltaRequest(token, graph, new Date('2030-06-30T00:00:00Z'))).toMatchObject({ kind: 'stale' });
    expect(deltaRequest(token.split('#')[0] ?? '', graph, now)).toMatchObject({ kind: 'stale' });
    expect(deltaRequest('http://evil.example/x#window=2030-05-09', graph, now)).toMatchObject({
      kind: 'stale',
    });
  });
});
