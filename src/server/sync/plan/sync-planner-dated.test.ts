import { describe, expect, it } from 'vitest';
import { syncSettings } from '#server/test/sync-settings.fixture.ts';
import type { SyncLink } from '../sync-link.ts';
import { appearanceHash } from './event-write.ts';
import type { EventAction, LinkPlan, PlanInput } from './link-plan.ts';
import { calendarEvent, dueOn, planInput, START, syncLink, taskSnapshot } from './plan.fixture.ts';
import { planSync } from './sync-planner.ts';

/** Tasks with a date but no time as all-day events (docs/product-rules.md §10). */

const NOW = new Date('2026-07-15T06:00:00Z'); // 08:00 in Berlin
const allDay = syncSettings({ datedTasks: 'allday' });
const skip = syncSettings();
/** The start of 16 July in Berlin. */
const DAY16 = new Date('2026-07-15T22:00:00Z');
const DAY17 = new Date('2026-07-16T22:00:00Z');

const dated = dueOn;
const datedTask = (date = '2026-07-16', fields: Parameters<typeof taskSnapshot>[0] = {}) =>
  taskSnapshot({ due: dated(date), ...fields });
const allDayEvent = (date = '2026-07-16', fields: Parameters<typeof calendarEvent>[0] = {}) =>
  calendarEvent({ start: null, end: null, allDay: true, date, ...fields });
const allDayLink = (overrides: Partial<SyncLink> = {}): SyncLink =>
  syncLink({ appearanceHash: appearanceHash(allDay), startAt: DAY16, allDay: true, ...overrides });

const plan = (input: Partial<PlanInput>) => planSync(planInput(allDay, NOW, input));

const writeOf = (action: EventAction | undefined) =>
  action && action.action !== 'remove' ? action.write : undefined;
const only = (plans: LinkPlan[]) => {
  expect(plans).toHaveLength(1);
  return plans[0] as LinkPlan;
};

describe('tasks with a date but no time', () => {
  it('are left alone by default', () => {
    expect(plan({ settings: skip, tasks: [datedTask()] })).toEqual([]);
  });

  it('get an all-day event on their date when chosen, from today on', () => {
    const today = datedTask('2026-07-15', { id: 'today' });
    const yesterday = datedTask('2026-07-14', { id: 'yesterday' });
    const plans = plan({ tasks: [datedTask(), today, yesterday] });
    expect(plans.map((entry) => entry.next?.taskId)).toEqual(['t1', 'today']);
    const first = plans[0] as LinkPlan;
    expect(writeOf(first.events[0])).toMatchObject({ date: '2026-07-16', start: DAY16, end: DAY17 });
    expect(first.next).toMatchObject({ startAt: DAY16, allDay: true, taskMinutes: 30, eventMinutes: 30 });
  });

  it('need a timebox label like any other task', () => {
    expect(plan({ tasks: [datedTask('2026-07-16', { labels: ['other'] })] })).toEqual([]);
  });

  it('write nothing for the echo of their all-day event', () => {
    const plans = plan({ links: [allDayLink()], tasks: [datedTask()], events: [allDayEvent()] });
    expect(plans.every((entry) => entry.events.length === 0 && entry.task === null)).toBe(true);
  });

  it('move their event when the date changes in Todoist', () => {
    const moved = datedTask('2026-07-17', { updatedAt: '2026-07-15T05:30:00Z' });
    const result = only(plan({ links: [allDayLink()], tasks: [moved] }));
    expect(writeOf(result.events[0])).toMatchObject({ date: '2026-07-17' });
    expect(result.next).toMatchObject({ startAt: DAY17, allDay: true });
    expect(result.task).toBeNull();
  });

  it('take the new date when the all-day event moves, keeping the task without a time', () => {
    const result = only(
      plan({ links: [allDayLink()], events: [allDayEvent('2026-07-17', { version: 'v2' })] }),
    );
    expect(result.task).toMatchObject({ action: 'update', due: { kind: 'date', date: '2026-07-17' } });
    expect(result.task).not.toHaveProperty('labels');
    expect(result.events).toEqual([]);
    // A whole day is no length: the pair keeps its 30 minutes for when the task gets a time again.
    expect(result.next).toMatchObject({ startAt: DAY17, allDay: true, eventMinutes: 30 });
  });

  it('become a timed event when the task gets a time, and all-day again when it loses it', () => {
    const timed = taskSnapshot({ updatedAt: '2026-07-15T05:30:00Z' });
    const toTimed = only(plan({ links: [allDayLink()], tasks: [timed] }));
    expect(writeOf(toTimed.events[0])).toMatchObject({ date: null, start: START });
    expect(toTimed.next).toMatchObject({ startAt: START, allDay: false });

    const back = only(
      plan({ links: [syncLink({ appearanceHash: appearanceHash(allDay) })], tasks: [datedTask()] }),
    );
    expect(writeOf(back.events[0])).toMatchObject({ date: '2026-07-16' });
    expect(back.next).toMatchObject({ startAt: DAY16, allDay: true });
  });

  it('give the task the time when the user makes the all-day event a timed one, with its length', () => {
    const timedEvent = calendarEvent({
      version: 'v2',
      end: new Date(START.getTime() + 60 * 60_000),
    });
    const result = only(plan({ links: [allDayLink()], events: [timedEvent] }));
    expect(result.task).toMatchObject({
      due: { kind: 'floating', local: '2026-07-16T09:00:00' },
      labels: ['1h'],
    });
    expect(result.next).toMatchObject({ startAt: START, allDay: false, eventMinutes: 60 });
  });

  it('keep the timebox of a task whose event the user made all-day: it keeps its label and date', () => {
    const result = only(
      plan({ links: [syncLink({ appearanceHash: appearanceHash(allDay) })], events: [allDayEvent()] }),
    );
    expect(result.task).toMatchObject({ action: 'update', due: { kind: 'date', date: '2026-07-16' } });
    expect(result.task).not.toHaveProperty('labels');
    expect(result.next).toMatchObject({ allDay: true, startAt: DAY16, taskMinutes: 30 });
  });

  it('with the setting left alone, an event made all-day takes the timebox off its task, as before', () => {
    const result = only(
      plan({
        settings: skip,
        links: [syncLink({ appearanceHash: appearanceHash(skip) })],
        events: [allDayEvent()],
      }),
    );
    expect(result.next).toBeNull();
    expect(result.task).toMatchObject({ labels: [], due: { kind: 'date', date: '2026-07-16' } });
  });

  it('lose their events when the setting goes back to leaving them alone, and keep their labels', () => {
    const result = only(
      plan({ settings: skip, links: [allDayLink()], tasks: [datedTask()], events: [allDayEvent()] }),
    );
    expect(result.events).toEqual([{ action: 'remove', eventId: 'e1' }]);
    expect(result.task).toBeNull();
  });

  it('turn their all-day event into a timed one when the task gets a time after the setting went back', () => {
    const timed = taskSnapshot({ updatedAt: '2026-07-15T05:30:00Z' });
    const result = only(
      plan({ settings: skip, links: [allDayLink()], tasks: [timed], events: [allDayEvent()] }),
    );
    expect(writeOf(result.events[0])).toMatchObject({ date: null, start: START });
    expect(result.task).toBeNull();
  });

  it('carry a recurring dated task on to its next occurrence with a new all-day event', () => {
    const recurring = { isRecurring: true, string: 'every day' };
    const rolled = datedTask('2026-07-17', {
      due: dated('2026-07-17', recurring),
      updatedAt: '2026-07-16T08:00:00Z',
    });
    const result = only(
      plan({
        now: new Date('2026-07-16T08:00:00Z'),
        links: [allDayLink({ taskMeta: { labels: ['30min'], dueTimezone: null, recurrence: 'every day' } })],
        tasks: [rolled],
        completedOccurrences: new Set(['t1']),
      }),
    );
    expect(result.activity.map((entry) => entry.detail)).toEqual(['occurrence', 'next-occurrence']);
    expect(writeOf(result.events.at(-1))).toMatchObject({ date: '2026-07-17' });
    expect(result.next).toMatchObject({ startAt: DAY17, allDay: true, generation: 1 });
  });

  it('keep a recurring task’s rule when its all-day event moves', () => {
    const meta = { labels: ['30min'], dueTimezone: null, recurrence: 'every week' };
    const result = only(
      plan({
        links: [allDayLink({ taskMeta: meta })],
        events: [allDayEvent('2026-07-17', { version: 'v2' })],
      }),
    );
    expect(result.task).toMatchObject({ due: { kind: 'date', date: '2026-07-17', string: 'every week' } });
  });

  it('mark a done task’s all-day event with the checkmark, keeping it all-day', () => {
    const settings = syncSettings({ datedTasks: 'allday', onComplete: 'checkmark' });
    const done = datedTask('2026-07-16', { checked: true, updatedAt: '2026-07-15T05:30:00Z' });
    const result = only(
      plan({ settings, links: [allDayLink({ appearanceHash: appearanceHash(settings) })], tasks: [done] }),
    );
    expect(writeOf(result.events[0])).toMatchObject({ title: '✓ Write', date: '2026-07-16' });
  });

  it('never turn an all-day event the user made into a task', () => {
    expect(plan({ events: [allDayEvent('2026-07-16', { id: 'holiday' })] })).toEqual([]);
  });
});
