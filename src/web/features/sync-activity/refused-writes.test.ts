import { describe, expect, it } from 'vitest';
import type { ActivityNames } from '#shared/api/activity-names.schema.ts';
import type { RefusedWriteItem } from '#shared/api/sync.schema.ts';
import { nextTryText, refusalReasonText, refusedWritesText } from './refused-writes.ts';

const NOW = new Date('2026-12-01T13:00:00.000Z'); // 14:00 in Berlin

const refused = (overrides: Partial<RefusedWriteItem> = {}): RefusedWriteItem => ({
  taskId: 'task-venue',
  eventId: null,
  write: 'event-create',
  provider: 'google',
  status: 403,
  reason: 'forbiddenForNonOrganizer',
  refusedAt: '2026-12-01T13:00:00.000Z',
  refusals: 1,
  retryAt: '2026-12-01T13:15:00.000Z',
  ...overrides,
});

const names: ActivityNames = {
  tasks: {
    'task-venue': { title: 'Book the venue', when: { kind: 'instant', start: '2026-12-08T08:00:00.000Z' } },
    'task-gone': null,
  },
  events: { 'event-lunch': { title: 'Lunch', when: { kind: 'instant', start: '2026-12-02T11:00:00.000Z' } } },
  unavailable: [],
};

describe('refusedWritesText', () => {
  it('says which provider refused what, names each item with its time, why, and when it is tried again', () => {
    const text = refusedWritesText(
      { total: 2, items: [refused(), refused({ taskId: 'task-other', reason: 'requiredAccessLevel' })] },
      names,
      'Europe/Berlin',
      NOW,
      'en-GB',
    );
    expect(text.notListed).toBe(0);
    expect(text.notes).toHaveLength(1);
    const [note] = text.notes;
    expect(note?.title).toBe('Google Calendar refused to add 2 events');
    expect(note?.message).toContain('Everything else keeps syncing');
    expect(note?.items[0]).toMatchObject({
      name: '“Book the venue”',
      when: 'Tue 8 Dec, 09:00',
      why: 'only the event’s organizer may change it',
      next: 'next try at 14:15',
      ids: 'Todoist task task-venue',
    });
    // A name not read (yet) shows by its id; the reason in words all the same.
    expect(note?.items[1]).toMatchObject({
      name: 'Task task-oth…',
      when: null,
      why: 'you can only read this calendar',
    });
  });

  it('keeps one note per provider, says "changes" for several kinds of write, and counts what is not listed', () => {
    const text = refusedWritesText(
      {
        total: 5,
        items: [
          refused({ write: 'event-update', eventId: 'event-lunch', taskId: null }),
          refused({
            write: 'event-remove',
            taskId: 'task-gone',
            eventId: 'event-x',
            reason: 'notFound',
            status: 404,
          }),
          refused({
            write: 'task-update',
            provider: 'todoist',
            status: 400,
            reason: 'INVALID_ARGUMENT_VALUE',
          }),
        ],
      },
      names,
      'Europe/Berlin',
      NOW,
      'en-GB',
    );
    expect(text.notes.map((note) => note.title)).toEqual([
      'Google Calendar refused 2 changes to your events',
      'Todoist refused to change 1 task',
    ]);
    expect(text.notes[0]?.items.map((item) => item.name)).toEqual(['“Lunch”', 'a deleted task']);
    expect(text.notes[0]?.items[1]?.why).toBe('this event is no longer in the calendar');
    expect(text.notes[1]?.items[0]?.why).toBe(
      'Todoist did not accept the change (code INVALID_ARGUMENT_VALUE)',
    );
    expect(text.notListed).toBe(2);
  });
});

describe('refusalReasonText', () => {
  it('puts the documented reasons of each provider into words', () => {
    const of = (item: Partial<RefusedWriteItem>) => refusalReasonText(refused(item));
    expect(of({ provider: 'microsoft', reason: 'ErrorAccessDenied' })).toBe(
      'your account may not change this calendar',
    );
    expect(
      of({ provider: 'microsoft', write: 'event-update', status: 404, reason: 'ErrorItemNotFound' }),
    ).toBe('this event is no longer in the calendar');
    expect(of({ provider: 'todoist', write: 'task-update', status: 403, reason: 'ACCESS_DENIED' })).toBe(
      'your Todoist account may not change this task',
    );
    expect(of({ provider: 'todoist', write: 'task-create', status: 404, reason: 'PROJECT_NOT_FOUND' })).toBe(
      'Todoist could not find the project it goes in',
    );
    expect(of({ provider: 'todoist', write: 'task-delete', status: 404, reason: 'ITEM_NOT_FOUND' })).toBe(
      'this task is no longer in Todoist',
    );
  });

  it('gives any other refusal with its code, named after the provider', () => {
    expect(refusalReasonText(refused({ status: 403, reason: 'quotaWeird' }))).toBe(
      'Google Calendar refused it (code quotaWeird)',
    );
    expect(refusalReasonText(refused({ provider: 'todoist', status: 422, reason: null }))).toBe(
      'Todoist refused it (code 422)',
    );
    expect(refusalReasonText(refused({ provider: null, status: 400, reason: 'invalid' }))).toBe(
      'Your calendar did not accept the event as it was (code invalid)',
    );
  });
});

describe('nextTryText', () => {
  it('says the time today, the day and time later, and the next run once it is due', () => {
    const zone = 'Europe/Berlin';
    expect(
      nextTryText(refused({ refusals: 3, retryAt: '2026-12-01T17:00:00.000Z' }), zone, NOW, 'en-GB'),
    ).toBe('refused 3 times so far, next try at 18:00');
    expect(
      nextTryText(refused({ refusals: 4, retryAt: '2026-12-02T13:00:00.000Z' }), zone, NOW, 'en-GB'),
    ).toBe('refused 4 times so far, next try on Wed 2 Dec, 14:00');
    expect(nextTryText(refused({ retryAt: '2026-12-01T12:59:00.000Z' }), zone, NOW, 'en-GB')).toBe(
      'next try when the sync next runs',
    );
  });
});
