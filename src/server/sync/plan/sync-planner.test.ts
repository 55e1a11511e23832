import { describe, expect, it } from 'vitest';
import { syncSettings } from '#server/test/sync-settings.fixture.ts';
import type { SyncLink } from '../sync-link.ts';
import type { SyncSettings } from '../sync-settings.ts';
import type { TaskSnapshot } from '../task-source.port.ts';
import { appearanceHash } from './event-write.ts';
import type { PlanInput } from './link-plan.ts';
import { calendarEvent, planInput, START, syncLink, taskSnapshot, testHash } from './plan.fixture.ts';
import { planSync } from './sync-planner.ts';

const NOW = new Date('2026-07-15T06:00:00Z'); // 08:00 in Berlin
const hash = testHash;

const settings = syncSettings();

const task = taskSnapshot;
const event = calendarEvent;
const link = (overrides: Partial<SyncLink> = {}): SyncLink =>
  syncLink({ appearanceHash: appearanceHash(settings), ...overrides });

const plan = (input: Partial<PlanInput>) => planSync(planInput(settings, NOW, input));

describe('planning a sync', () => {
  it('creates an event for a new timeboxed task at its due time, with the label’s length', () => {
    const [only, ...rest] = plan({ tasks: [task()] });
    expect(rest).toEqual([]);
    expect(only?.events).toEqual([
      {
        action: 'create',
        write: expect.objectContaining({ title: 'Write', start: START, appearance: true }),
      },
    ]);
    const write = only?.events[0]?.action === 'create' ? only.events[0].write : null;
    expect(write?.end.getTime()).toBe(START.getTime() + 30 * 60_000);
    expect(only?.next).toMatchObject({
      taskId: 't1',
      origin: 'task',
      titleHash: hash('Write'),
      taskMinutes: 30,
    });
  });

  it('leaves out tasks without a time, without a timebox label, completed, or due before today', () => {
    const plans = plan({
      tasks: [
        task({ id: 'a', due: { date: '2026-07-16', timezone: null, isRecurring: false, string: '' } }),
        task({ id: 'b', labels: ['other'] }),
        task({ id: 'c', checked: true }),
        task({
          id: 'd',
          due: { date: '2026-07-14T09:00:00', timezone: null, isRecurring: false, string: '' },
        }),
      ],
    });
    expect(plans).toEqual([]);
  });

  it('writes nothing for an echo of its own write on either side', () => {
    const echo = plan({
      links: [link()],
      tasks: [task({ updatedAt: '2026-07-15T05:30:00Z' })],
      events: [event({ version: 'v2' })],
    });
    expect(echo.every((entry) => entry.events.length === 0 && entry.task === null)).toBe(true);
    expect(echo[0]?.next).toMatchObject({ eventVersion: 'v2', taskVersion: '2026-07-15T05:30:00Z' });
  });

  it('sends a title changed in Todoist to the event, and a time changed on the calendar to the task', () => {
    const later = new Date(START.getTime() + 2 * 3600_000);
    const [both] = plan({
      links: [link()],
      tasks: [task({ content: 'Write more' })],
      events: [event({ start: later, end: new Date(later.getTime() + 30 * 60_000), version: 'v2' })],
    });
    expect(both?.events).toEqual([
      {
        action: 'update',
        eventId: 'e1',
        write: expect.objectContaining({ title: 'Write more', start: later }),
      },
    ]);
    expect(both?.task).toEqual({
      action: 'update',
      taskId: 't1',
      due: { kind: 'floating', local: '2026-07-16T11:00:00' },
    });
  });

  it('lets the later side win a field changed on both sides', () => {
    const taskLater = plan({
      links: [link()],
      tasks: [task({ content: 'From Todoist', updatedAt: '2026-07-15T05:50:00Z' })],
      events: [event({ title: 'From calendar', updatedAt: new Date('2026-07-15T05:40:00Z') })],
    });
    expect(taskLater[0]?.task).toBeNull();
    expect(taskLater[0]?.events[0]).toMatchObject({ write: { title: 'From Todoist' } });

    const eventLater = plan({
      links: [link()],
      tasks: [task({ content: 'From Todoist', updatedAt: '2026-07-15T05:40:00Z' })],
      events: [event({ title: 'From calendar', updatedAt: new Date('2026-07-15T05:50:00Z') })],
    });
    expect(eventLater[0]?.task).toMatchObject({ action: 'update', content: 'From calendar' });
    expect(eventLater[0]?.events).toEqual([]);
  });

  it('writes the event’s new title back to the event when another field flows to it in the same run', () => {
    // The event was renamed; the task was moved (or the settings restyle the event): the event is
    // written for the move, and must keep the title the user gave it, which the task takes too.
    const moved = task({ due: { ...task().due, date: '2026-07-16T11:00:00' } as TaskSnapshot['due'] });
    const renamed = event({ title: 'Renamed' });
    const [both] = plan({ links: [link()], tasks: [moved], events: [renamed] });
    expect(both?.task).toMatchObject({ action: 'update', content: 'Renamed' });
    expect(both?.events[0]).toMatchObject({ action: 'update', write: { title: 'Renamed' } });
    expect(both?.next?.titleHash).toBe(hash('Renamed'));

    const [restyled] = plan({
      links: [link({ appearanceHash: 'before the colour changed' })],
      tasks: [task()],
      events: [renamed],
    });
    expect(restyled?.task).toMatchObject({ action: 'update', content: 'Renamed' });
    expect(restyled?.events[0]).toMatchObject({ action: 'update', write: { title: 'Renamed' } });
  });

  it('gives a resized event’s task the timebox label of that length, or the nearest one without resizing', () => {
    const [exact] = plan({
      links: [link()],
      events: [event({ end: new Date(START.getTime() + 60 * 60_000) })],
    });
    expect(exact?.task).toEqual({ action: 'update', taskId: 't1', labels: ['1h'] });
    const [nearest] = plan({
      links: [link()],
      events: [event({ end: new Date(START.getTime() + 50 * 60_000) })],
    });
    expect(nearest?.task).toEqual({ action: 'update', taskId: 't1', labels: ['1h'] });
    expect(nearest?.events).toEqual([]);
    expect(nearest?.next).toMatchObject({ taskMinutes: 60, eventMinutes: 50 });
  });

  it('deletes the event of a deleted task, or of a task that lost its label or time', () => {
    for (const changed of [task({ isDeleted: true }), task({ labels: [] })]) {
      const [gone] = plan({ links: [link()], tasks: [changed] });
      expect(gone?.events).toEqual([{ action: 'remove', eventId: 'e1' }]);
      expect(gone?.next).toBeNull();
    }
  });

  it('writes a label renamed under a task back under its new name, and keeps the event', () => {
    // The run matched the task by the label's new name (a write of ours raced the rename in Todoist).
    const renamed = { ...settings, timeboxes: [{ label: 'Half hour', duration: 30 }] };
    const [fixed] = plan({
      settings: renamed,
      links: [link({ origin: 'event', appearanceHash: appearanceHash(renamed) })],
      tasks: [task({ labels: ['Half hour', 'home'] })],
      relabelled: new Map([['t1', ['Half hour', 'home']]]),
    });
    expect(fixed?.events).toEqual([]);
    expect(fixed?.task).toEqual({ action: 'update', taskId: 't1', labels: ['Half hour', 'home'] });
    expect(fixed?.next?.taskMeta.labels).toEqual(['Half hour', 'home']);
    expect(fixed?.activity).toEqual([
      { direction: 'calendar-to-todoist', action: 'updated', detail: 'labels' },
    ]);
  });

  it('deletes a task the event created with the event, and keeps an older task with its date only', () => {
    const [fromEvent] = plan({ links: [link({ origin: 'event' })], events: [event({ deleted: true })] });
    expect(fromEvent?.task).toEqual({ action: 'delete', taskId: 't1' });
    const [fromTask] = plan({
      links: [link({ taskMeta: { labels: ['30min', 'work'], dueTimezone: null, recurrence: null } })],
      events: [event({ deleted: true })],
    });
    expect(fromTask?.task).toEqual({
      action: 'update',
      taskId: 't1',
      labels: ['work'],
      due: { kind: 'date', date: '2026-07-16' },
    });
  });

  it('leaves a task that left the scope as it is when its event is gone (a removal whose answer was lost)', () => {
    for (const origin of ['task', 'event'] as const) {
      const [gone] = plan({
        links: [link({ origin })],
        tasks: [task({ labels: [] })],
        events: [event({ deleted: true })],
      });
      expect(gone?.task).toBeNull();
      expect(gone?.events).toEqual([]);
      expect(gone?.next).toBeNull();
    }
  });

  it('leaves a done task as it is when its event is gone before the completion was seen (a removal whose answer was lost)', () => {
    const done = task({
      checked: true,
      completedAt: '2026-07-15T05:30:00Z',
      updatedAt: '2026-07-15T05:30:00Z',
    });
    for (const origin of ['task', 'event'] as const) {
      for (const labels of [['30min'], []]) {
        const [gone] = plan({
          links: [link({ origin })],
          tasks: [{ ...done, labels }],
          events: [event({ deleted: true })],
        });
        expect(gone?.task, `${origin}, labels ${labels}`).toBeNull();
        expect(gone?.events).toEqual([]);
        // Remembered as done without an event, as after the setting's removal: reopened, it gets a new one.
        expect(gone?.next).toMatchObject({ completed: true, eventId: null, taskVersion: done.updatedAt });
      }
    }
  });

  it('keeps the task an event made when the event becomes all-day, without its time', () => {
    const [allDay] = plan({
      links: [link({ origin: 'event' })],
      events: [event({ allDay: true, start: null, end: null })],
    });
    expect(allDay?.task).toEqual({
      action: 'update',
      taskId: 't1',
      labels: [],
      due: { kind: 'date', date: '2026-07-16' },
    });
    expect(allDay?.next).toBeNull();
  });

  it('applies each on-complete setting, and the pre-complete option', () => {
    const done = task({ checked: true, completedAt: '2026-07-15T06:00:00Z' });
    const with_ = (extra: Partial<SyncSettings>) =>
      planSync({
        settings: { ...settings, ...extra },
        now: NOW,
        hash,
        links: [link({ appearanceHash: appearanceHash({ ...settings, ...extra }) })],
        tasks: [done],
        events: [],
        completedOccurrences: new Set(),
      })[0];
    expect(with_({ onComplete: 'nothing' })?.events).toEqual([]);
    expect(with_({ onComplete: 'checkmark' })?.events[0]).toMatchObject({ write: { title: '✓ Write' } });
    expect(with_({ onComplete: 'remove' })?.events).toEqual([{ action: 'remove', eventId: 'e1' }]);
    // Completed at 08:00 before a 09:00 start: removed although the setting says do nothing.
    expect(with_({ onComplete: 'nothing', onPreComplete: true })?.events).toEqual([
      { action: 'remove', eventId: 'e1' },
    ]);
  });

  it('carries a change made just before completing to the event that stays', () => {
    const movedAndDone = task({
      content: 'Write more',
      labels: ['1h'],
      due: { date: '2026-07-16T15:00:00', timezone: null, isRecurring: false, string: 'tomorrow at 15' },
      checked: true,
      completedAt: '2026-07-15T06:00:00Z',
    });
    const with_ = (onComplete: SyncSettings['onComplete']) =>
      planSync({
        settings: { ...settings, onComplete },
        now: NOW,
        hash,
        links: [link({ appearanceHash: appearanceHash({ ...settings, onComplete }) })],
        tasks: [movedAndDone],
        events: [],
        completedOccurrences: new Set(),
      })[0];
    const at15 = new Date('2026-07-16T13:00:00Z');
    for (const [onComplete, title] of [
      ['nothing', 'Write more'],
      ['checkmark', '✓ Write more'],
    ] as const) {
      const planned = with_(onComplete);
      expect(planned?.events[0]).toMatchObject({
        action: 'update',
        write: { title, start: at15, end: new Date(at15.getTime() + 60 * 60_000) },
      });
      expect(planned?.next).toMatchObject({ completed: true, startAt: at15, eventMinutes: 60 });
    }
    // Done without a change and with "do nothing": nothing to write.
    const unchanged = planSync({
      settings,
      now: NOW,
      hash,
      links: [link({ appearanceHash: appearanceHash(settings) })],
      tasks: [task({ checked: true, completedAt: '2026-07-15T06:00:00Z' })],
      events: [],
      completedOccurrences: new Set(),
    })[0];
    expect(unchanged?.events).toEqual([]);
  });

  it('undoes completion when a task is reopened', () => {
    const [unmark] = plan({ links: [link({ completed: true, marked: true })], tasks: [task()] });
    expect(unmark?.events[0]).toMatchObject({ action: 'update', write: { title: 'Write' } });
    const [recreate] = plan({ links: [link({ completed: true, eventId: null })], tasks: [task()] });
    expect(recreate?.events[0]).toMatchObject({ action: 'create' });
    expect(recreate?.next).toMatchObject({ generation: 1, completed: false });
  });

  it('removes the event of a task reopened after it left the scope while done', () => {
    // Its label was deleted (or its timebox setting removed) while the task was done.
    for (const marked of [false, true]) {
      const [gone] = plan({ links: [link({ completed: true, marked })], tasks: [task({ labels: [] })] });
      expect(gone?.events).toEqual([{ action: 'remove', eventId: 'e1' }]);
      expect(gone?.next).toBeNull();
    }
  });

  it('treats a recurring task’s due moving on as a completed occurrence when Todoist said so', () => {
    const recurring = { timezone: null, isRecurring: true, string: 'every day at 9' };
    const rolled = task({ due: { date: '2026-07-17T09:00:00', ...recurring } });
    const current = link({
      taskMeta: { labels: ['30min'], dueTimezone: null, recurrence: 'every day at 9' },
    });
    const [completed] = plan({ links: [current], tasks: [rolled], completedOccurrences: new Set(['t1']) });
    expect(completed?.events.map((action) => action.action)).toEqual(['create']);
    expect(completed?.next).toMatchObject({ generation: 1, startAt: new Date('2026-07-17T07:00:00Z') });
    // Without the webhook and before the occurrence began, it is a reschedule: the event moves.
    const [moved] = plan({ links: [current], tasks: [rolled] });
    expect(moved?.events).toEqual([
      {
        action: 'update',
        eventId: 'e1',
        write: expect.objectContaining({ start: new Date('2026-07-17T07:00:00Z') }),
      },
    ]);
  });

  it('turns a new event of the chosen colour into a task, and leaves ours, recurring, all-day and other colours', () => {
    const plans = plan({
      events: [
        event({ id: 'mine', title: 'Dentist' }),
        event({ id: 'ours', taskTag: 't9' }),
        event({ id: 'series', recurring: true }),
        event({ id: 'day', allDay: true, start: null, end: null }),
        event({ id: 'red', color: '11' }),
        event({ id: 'old', start: new Date('2026-07-14T07:00:00Z'), end: new Date('2026-07-14T07:30:00Z') }),
      ],
    });
    expect(plans.map((entry) => entry.next?.eventId)).toEqual(['mine']);
    expect(plans[0]?.task).toEqual({
      action: 'create',
      content: 'Dentist',
      due: { kind: 'floating', local: '2026-07-16T09:00:00' },
      labels: ['30min'],
      duration: null,
    });
  });

  it('restyles our events when the settings change, but never an event the user made', () => {
    const old = appearanceHash({ ...settings, color: '5' });
    const [ours] = plan({ links: [link({ appearanceHash: old })], tasks: [task()] });
    expect(ours?.events[0]).toMatchObject({ action: 'update', write: { color: '', appearance: true } });
    const theirs = plan({ links: [link({ appearanceHash: old, origin: 'event' })], tasks: [task()] });
    expect(theirs.every((entry) => entry.events.length === 0)).toBe(true);
  });

  it('repeats an interrupted create with the same link instead of starting another', () => {
    const [resumed] = plan({ links: [link({ eventId: null, pendingKey: 'k' })], tasks: [task()] });
    expect(resumed?.link?.pendingKey).toBe('k');
    expect(resumed?.events[0]).toMatchObject({ action: 'create' });
    expect(resumed?.next?.generation).toBe(0);
  });

  it('repeats an interrupted create only to remove its event when the task left the scope meanwhile', () => {
    const pending = link({ eventId: null, pendingKey: 'k' });
    for (const gone of [task({ labels: [] }), task({ isDeleted: true }), task({ checked: true })]) {
      const [discarded] = plan({ links: [pending], tasks: [gone] });
      expect(discarded?.events).toEqual([expect.objectContaining({ action: 'create', discard: true })]);
      expect(discarded?.next).toBeNull();
      expect(discarded?.task).toBeNull();
    }
  });

  it('keeps what an interrupted task create first sent, so an event retitled since is carried over after', () => {
    const pending = link({ taskId: null, origin: 'event', pendingKey: 'k', titleHash: hash('Old') });
    const [resumed] = plan({ links: [pending], events: [event({ title: 'New', version: 'v2' })] });
    expect(resumed?.task).toMatchObject({ action: 'create' });
    // Todoist answers the repeated command with the task it made from "Old": the link says so.
    expect(resumed?.next).toMatchObject({ titleHash: hash('Old'), eventVersion: 'v1' });
    const [after] = plan({
      links: [{ ...pending, ...resumed?.next, id: 'l1', taskId: 't1', pendingKey: null } as SyncLink],
      tasks: [task({ content: 'Old' })],
      events: [event({ title: 'New', version: 'v2', updatedAt: new Date('2026-07-15T05:30:00Z') })],
    });
    expect(after?.task).toMatchObject({ action: 'update', taskId: 't1', content: 'New' });
  });
});

describe('a pair whose write was refused for good', () => {
  const MINUTE = 60_000;
  const refusedLink = (overrides: Partial<SyncLink> = {}) =>
    link({
      refusedWrite: 'event-update',
      refusedAt: NOW,
      refusedCount: 1,
      refusedTaskVersion: '2026-07-15T05:00:00.000Z',
      refusedEventVersion: 'v1',
      refusedAppearance: appearanceHash(settings),
      ...overrides,
    });
  const renamed = task({ content: 'Write more', updatedAt: '2026-07-15T05:00:00.000Z' });
  const at = (ms: number) =>
    planSync(planInput(settings, new Date(NOW.getTime() + ms), { links: [refusedLink()], tasks: [renamed] }));

  it('is left alone until its back-off is over, then planned again', () => {
    expect(at(14 * MINUTE)).toEqual([]);
    const [again] = at(15 * MINUTE);
    expect(again?.events).toEqual([
      { action: 'update', eventId: 'e1', write: expect.objectContaining({ title: 'Write more' }) },
    ]);
  });

  it('is planned at once when the user changed the task since', () => {
    const changed = { ...renamed, updatedAt: '2026-07-15T05:58:00.000Z' };
    const [plan] = planSync(planInput(settings, NOW, { links: [refusedLink()], tasks: [changed] }));
    expect(plan?.events).toHaveLength(1);
  });

  it('asks for a refused event again after the back-off, without waiting for the task to change', () => {
    const created = refusedLink({ eventId: null, eventVersion: null, refusedWrite: 'event-create' });
    const input = (now: Date) =>
      planInput(settings, now, {
        links: [created],
        tasks: [task({ updatedAt: '2026-07-15T05:00:00.000Z' })],
      });
    expect(planSync(input(NOW))).toEqual([]);
    const [plan] = planSync(input(new Date(NOW.getTime() + 15 * MINUTE)));
    expect(plan?.events).toEqual([expect.objectContaining({ action: 'create' })]);
  });

  it('clears the mark when it is tried again and nothing is left to write', () => {
    const same = task({ updatedAt: '2026-07-15T05:00:00.000Z' });
    const [plan] = planSync(
      planInput(settings, new Date(NOW.getTime() + 15 * MINUTE), { links: [refusedLink()], tasks: [same] }),
    );
    expect(plan).toMatchObject({ events: [], task: null, next: { refusedWrite: null, refusedCount: 0 } });
  });
});
