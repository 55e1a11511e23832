import { describe, expect, it } from 'vitest';
import { syncSettings } from '#server/test/sync-settings.fixture.ts';
import { NO_CHANGE, PREVIEW_NAMED } from '#shared/api/sync.schema.ts';
import type { CalendarEvent } from '../calendar-target.port.ts';
import type { SyncLink } from '../sync-link.ts';
import type { TaskSnapshot } from '../task-source.port.ts';
import { changeEffect, proposedChange } from './change-effect.ts';
import { appearanceHash } from './event-write.ts';
import type { PlanInput } from './link-plan.ts';
import { calendarEvent, syncLink, taskSnapshot, testHash } from './plan.fixture.ts';
import { DEFAULT_BRAKE } from './removal-brake.ts';

const NOW = new Date('2026-07-15T06:00:00Z');
const hash = testHash;
const settings = syncSettings({
  timeboxes: [
    { label: '30min', duration: 30 },
    { label: 'Focus', duration: 60 },
  ],
  taskDuration: { active: false, label: null, allowed: true },
  color: '5',
});
const startOf = (n: number) => new Date(Date.UTC(2026, 6, 16, 7 + n));
const task = (n: number, labels: string[]): TaskSnapshot =>
  taskSnapshot({
    id: `t${n}`,
    content: `Task ${n}`,
    labels,
    due: {
      date: `2026-07-16T${String(9 + n).padStart(2, '0')}:00:00`,
      timezone: null,
      isRecurring: false,
      string: '',
    },
  });
const event = (n: number, minutes: number, overrides: Partial<CalendarEvent> = {}): CalendarEvent =>
  calendarEvent({
    id: `e${n}`,
    title: `Task ${n}`,
    start: startOf(n),
    end: new Date(startOf(n).getTime() + minutes * 60_000),
    color: '5',
    taskTag: `t${n}`,
    ...overrides,
  });
const link = (n: number, minutes: number, labels: string[]): SyncLink =>
  syncLink({
    id: `l${n}`,
    taskId: `t${n}`,
    eventId: `e${n}`,
    titleHash: hash(`Task ${n}`),
    startAt: startOf(n),
    taskMinutes: minutes,
    eventMinutes: minutes,
    appearanceHash: appearanceHash(settings),
    taskMeta: { labels, dueTimezone: null, recurrence: null },
  });

/** `focus` pairs timeboxed with Focus, `half` with 30min, all synced; an unlinked Focus task waiting too. */
function synced(focus: number, half: number): PlanInput {
  const pairs = [
    ...Array.from({ length: focus }, (_, n) => ({ n, minutes: 60, labels: ['Focus'] })),
    ...Array.from({ length: half }, (_, n) => ({ n: focus + n, minutes: 30, labels: ['30min'] })),
  ];
  return {
    settings,
    now: NOW,
    hash,
    links: pairs.map(({ n, minutes, labels }) => link(n, minutes, labels)),
    tasks: [...pairs.map(({ n, labels }) => task(n, labels)), task(20, ['Focus'])],
    events: pairs.map(({ n, minutes }) => event(n, minutes)),
    completedOccurrences: new Set(),
  };
}

describe('what a settings change would do', () => {
  it('counts the events a removed timebox takes away, and leaves out what waits to sync anyway', () => {
    const effect = changeEffect(synced(3, 2), { kind: 'removeTimebox', label: 'focus' }, DEFAULT_BRAKE);
    // The unlinked Focus task would have got an event anyway; it is not the change's doing.
    const at = (n: number) => ({ kind: 'instant', start: startOf(n).toISOString() }) as const;
    expect(effect).toEqual({
      ...NO_CHANGE,
      eventsRemoved: 3,
      tasksKept: 3,
      // The events to go, by their own titles and times, read with the preview.
      named: {
        ...NO_CHANGE.named,
        eventsRemoved: [0, 1, 2].map((n) => ({ title: `Task ${n}`, when: at(n) })),
      },
    });
    const many = changeEffect(synced(7, 2), { kind: 'removeTimebox', label: 'Focus' }, DEFAULT_BRAKE);
    expect(many).toMatchObject({ eventsRemoved: 7, heldByBrake: true });
    // The first few by name; the count says how many in all.
    expect(many.named.eventsRemoved).toHaveLength(PREVIEW_NAMED);
  });

  it('moves every linked event to another calendar, and counts its events in scope as new tasks', () => {
    const elsewhere = [event(30, 45, { taskTag: null }), event(31, 45, { taskTag: null, color: '2' })];
    const effect = changeEffect(
      synced(2, 2),
      { kind: 'calendar', calendarId: 'work' },
      DEFAULT_BRAKE,
      elsewhere,
    );
    expect(effect).toMatchObject({ eventsMoved: 4, tasksCreated: 1, eventsRemoved: 0 });
    expect(effect.named.eventsMoved.map((name) => name.title)).toEqual([
      'Task 0',
      'Task 1',
      'Task 2',
      'Task 3',
    ]);
    expect(effect.named.tasksCreated.map((name) => name.title)).toEqual(['Task 30']);
  });

  it('counts the events of another colour that would become tasks', () => {
    const input = synced(1, 0);
    input.events.push(event(40, 45, { taskTag: null, color: '7' }));
    expect(changeEffect(input, { kind: 'color', color: '7' }, DEFAULT_BRAKE)).toMatchObject({
      tasksCreated: 1,
    });
  });

  it('counts the dated tasks that would get all-day events, and the events they lose when left alone again', () => {
    const input = synced(1, 0);
    const dated = taskSnapshot({
      id: 't9',
      labels: ['Focus'],
      due: { date: '2026-07-17', timezone: null, isRecurring: false, string: '' },
    });
    input.tasks.push(dated, { ...dated, id: 't10', labels: ['other'] });
    expect(changeEffect(input, { kind: 'datedTasks', setting: 'allday' }, DEFAULT_BRAKE)).toEqual({
      ...NO_CHANGE,
      eventsCreated: 1,
      // The task that gets an event, by the task's title and its day.
      named: {
        ...NO_CHANGE.named,
        eventsCreated: [{ title: dated.content, when: { kind: 'date', date: '2026-07-17' } }],
      },
    });
    const allDay = { ...input.settings, datedTasks: 'allday' as const };
    const whole = syncLink({
      id: 'l9',
      taskId: 't9',
      eventId: 'e9',
      startAt: new Date('2026-07-16T22:00:00Z'),
      allDay: true,
      appearanceHash: appearanceHash(allDay),
    });
    const day = event(9, 60, { start: null, end: null, allDay: true, date: '2026-07-17', taskTag: 't9' });
    const synced9 = {
      ...input,
      settings: allDay,
      links: [...input.links, whole],
      events: [...input.events, day],
    };
    expect(changeEffect(synced9, { kind: 'datedTasks', setting: 'skip' }, DEFAULT_BRAKE)).toEqual({
      ...NO_CHANGE,
      eventsRemoved: 1,
      tasksKept: 1,
      named: {
        ...NO_CHANGE.named,
        eventsRemoved: [{ title: 'Task 9', when: { kind: 'date', date: '2026-07-17' } }],
      },
    });
  });

  it('reads a change from the query, or refuses an incomplete one', () => {
    expect(proposedChange({ change: 'removeTimebox', label: 'Focus' })).toEqual({
      kind: 'removeTimebox',
      label: 'Focus',
    });
    expect(proposedChange({ change: 'category', value: '' })).toEqual({ kind: 'category', category: null });
    expect(proposedChange({ change: 'taskDuration', active: 'true' })).toEqual({
      kind: 'taskDuration',
      active: true,
    });
    expect(proposedChange({ change: 'calendar' })).toBeNull();
    expect(proposedChange({ change: 'datedTasks', setting: 'allday' })).toEqual({
      kind: 'datedTasks',
      setting: 'allday',
    });
    expect(proposedChange({ change: 'datedTasks' })).toBeNull();
  });
});
