import { describe, expect, it } from 'vitest';
import { syncSettings } from '#server/test/sync-settings.fixture.ts';
import { calendarEvent, dueOn, syncLink, taskSnapshot } from '../plan.fixture.ts';
import {
  type AutoplanInput,
  autoplanKey,
  autoplanWork,
  busyCalendarIds,
  busyTimes,
  forgetPlacements,
  planAutoplan,
} from './autoplan-step.ts';

const NOW = new Date('2026-07-15T06:00:00Z'); // 08:00 in Berlin, a Wednesday
const on = syncSettings({
  autoplan: {
    active: true,
    days: [1, 2, 3, 4, 5],
    start: '09:00',
    end: '17:00',
    gapMinutes: 0,
    otherCalendarsBusy: false,
  },
});
const dated = dueOn;
/** 09:00 in Berlin on 16 July, and `hours` after. */
const nine = (hours = 0) => new Date(Date.UTC(2026, 6, 16, 7) + hours * 3_600_000);
const meeting = (id: string, from: Date, hours: number, fields: Parameters<typeof calendarEvent>[0] = {}) =>
  calendarEvent({
    id,
    start: from,
    end: new Date(from.getTime() + hours * 3_600_000),
    taskTag: null,
    ...fields,
  });

const input = (fields: Partial<AutoplanInput> = {}): AutoplanInput => ({
  settings: on,
  now: NOW,
  tasks: [],
  events: [],
  links: [],
  kept: null,
  ...fields,
});

describe('plan my day in a run', () => {
  it('does nothing while off, or with nothing waiting and nothing placed', () => {
    const task = taskSnapshot({ due: dated('2026-07-16') });
    expect(autoplanWork(input({ settings: syncSettings(), tasks: [task] }))).toBeNull();
    expect(autoplanWork(input())).toBeNull();
  });

  it('waits only with open, dated, timeboxed tasks from today on that do not repeat', () => {
    const tasks = [
      taskSnapshot({ id: 'ok', due: dated('2026-07-16'), priority: 4 }),
      taskSnapshot({ id: 'timed' }),
      taskSnapshot({ id: 'past', due: dated('2026-07-14') }),
      taskSnapshot({ id: 'repeats', due: dated('2026-07-16', { isRecurring: true, string: 'every day' }) }),
      taskSnapshot({ id: 'unlabelled', labels: [], due: dated('2026-07-16') }),
      taskSnapshot({ id: 'done', checked: true, due: dated('2026-07-16') }),
    ];
    const work = autoplanWork(input({ tasks }));
    expect(work?.tasks).toEqual([{ id: 'ok', date: '2026-07-16', minutes: 30, priority: 4, order: 0 }]);
    expect(work).toMatchObject({ readWindow: true, from: new Date('2026-07-14T22:00:00Z') });
    expect(work?.to).toEqual(new Date('2026-07-16T22:00:00Z'));
  });

  it('places a task after a meeting, as a floating time in the user’s zone', () => {
    const tasks = [taskSnapshot({ due: dated('2026-07-16') })];
    const work = autoplanWork(input({ tasks }));
    if (!work) throw new Error('work expected');
    const result = planAutoplan(input(), work, [meeting('m', nine(), 1)]);
    expect(result.writes).toEqual([
      { taskId: 't1', start: nine(1), due: { kind: 'floating', local: '2026-07-16T10:00:00' } },
    ]);
    expect(result.kept.placements).toEqual([
      {
        taskId: 't1',
        start: nine(1).toISOString(),
        end: new Date(nine(1).getTime() + 1_800_000).toISOString(),
      },
    ]);
  });

  it('counts neither free nor all-day events as busy, nor the events of the blocks it may move', () => {
    const kept = {
      placements: [{ taskId: 't1', start: nine(2).toISOString(), end: nine(2.5).toISOString() }],
      unplaced: [],
    };
    const work = autoplanWork(input({ kept, events: [meeting('x', nine(), 1)] }));
    if (!work) throw new Error('work expected');
    const links = [syncLink({ taskId: 't1', eventId: 'ours' })];
    const window = [
      meeting('busy', nine(), 1),
      meeting('free', nine(3), 1, { busy: false }),
      calendarEvent({ id: 'holiday', start: null, end: null, allDay: true, date: '2026-07-16' }),
      meeting('ours', nine(2), 0.5),
    ];
    expect(busyTimes(window, work, links)).toEqual([{ start: nine(), end: nine(1) }]);
  });

  it('moves a placed block a meeting landed on, and keeps the rest', () => {
    const kept = {
      placements: [{ taskId: 't1', start: nine(1).toISOString(), end: nine(1.5).toISOString() }],
      unplaced: [],
    };
    const work = autoplanWork(input({ kept, events: [meeting('new', nine(1), 1)] }));
    if (!work) throw new Error('work expected');
    const result = planAutoplan(input(), work, [meeting('new', nine(1), 1)]);
    expect(result.writes.map((write) => write.due)).toEqual([
      { kind: 'floating', local: '2026-07-16T11:00:00' },
    ]);
  });

  it('gives a placed block that no longer fits anywhere its date back', () => {
    const short = syncSettings({ autoplan: { ...on.autoplan, end: '11:00' } });
    const kept = {
      placements: [{ taskId: 't1', start: nine(1).toISOString(), end: nine(1.5).toISOString() }],
      unplaced: [],
    };
    const work = autoplanWork(input({ settings: short, kept, events: [meeting('new', nine(), 2)] }));
    if (!work) throw new Error('work expected');
    const result = planAutoplan(input({ settings: short }), work, [meeting('new', nine(), 2)]);
    expect(result.writes).toEqual([{ taskId: 't1', start: null, due: { kind: 'date', date: '2026-07-16' } }]);
    expect(result.kept.placements).toEqual([]);
    expect(result.unplacedDays).toEqual([{ date: '2026-07-16', taskIds: ['t1'], minutes: 30 }]);
  });

  it('lets go of a block whose time the user changed on either side', () => {
    const block = { taskId: 't1', start: nine(1).toISOString(), end: nine(1.5).toISOString() };
    const kept = { placements: [block], unplaced: [] };
    const movedTask = taskSnapshot({ due: { ...dated('2026-07-16T14:00:00') } });
    expect(autoplanWork(input({ kept, tasks: [movedTask] }))?.placed).toEqual([]);
    const longer = taskSnapshot({ labels: ['1h'], due: dated('2026-07-16T10:00:00') });
    expect(autoplanWork(input({ kept, tasks: [longer] }))?.placed).toEqual([]);
    const same = taskSnapshot({ due: dated('2026-07-16T10:00:00') });
    expect(autoplanWork(input({ kept, tasks: [same] }))?.placed).toEqual([
      expect.objectContaining({ taskId: 't1' }),
    ]);
    const links = [syncLink({ taskId: 't1', eventId: 'ours' })];
    const movedEvent = meeting('ours', nine(5), 0.5);
    expect(autoplanWork(input({ kept, links, events: [movedEvent] }))?.placed).toEqual([]);
    // Untouched on both sides, and no calendar change: kept, without reading the calendar.
    expect(autoplanWork(input({ kept, links }))).toMatchObject({
      placed: [{ taskId: 't1' }],
      readWindow: false,
    });
    // The echo of the sync's own write to the block's event is no change either; a meeting is, and so is
    // the event the sync just made for a task the user timed onto the block.
    const echo = meeting('ours', nine(1), 0.5, { version: 'v1' });
    const linked = [
      syncLink({ taskId: 't1', eventId: 'ours', eventVersion: 'v1' }),
      syncLink({ id: 'l2', taskId: 't2', eventId: 'theirs', eventVersion: 'v1' }),
    ];
    expect(autoplanWork(input({ kept, links: linked, events: [echo] }))?.readWindow).toBe(false);
    for (const landed of [meeting('new', nine(1), 1), meeting('theirs', nine(1), 0.5, { version: 'v1' })]) {
      expect(autoplanWork(input({ kept, links: linked, events: [echo, landed] }))?.readWindow).toBe(true);
    }
  });

  it('lets go of a block whose event the window shows the user moved, in a run that read only Todoist', () => {
    // Placed at 10:00; the user moved its event to 14:00 and put a meeting at 10:00, neither read yet (the
    // run answers a Todoist notification: a new dated task waits, so the window is read).
    const block = { taskId: 't1', start: nine(1).toISOString(), end: nine(1.5).toISOString() };
    const kept = { placements: [block], unplaced: [], plannedWith: autoplanKey(on) };
    const links = [syncLink({ taskId: 't1', eventId: 'ours' })];
    const waiting = taskSnapshot({ id: 't2', due: dated('2026-07-16') });
    const work = autoplanWork(input({ kept, links, tasks: [waiting] }));
    if (!work) throw new Error('work expected');
    const window = [meeting('m', nine(1), 1), meeting('ours', nine(5), 0.5)];
    const result = planAutoplan(input({ links }), work, window);
    // The block is the user's: not moved off the meeting (nor kept), and its event busy like the meeting.
    expect(result.writes).toEqual([
      { taskId: 't2', start: nine(), due: { kind: 'floating', local: '2026-07-16T09:00:00' } },
    ]);
    expect(result.kept.placements.map((placed) => placed.taskId)).toEqual(['t2']);
    // Its event gone from the window (deleted, or moved to another day): the user's too.
    const gone = planAutoplan(input({ links }), work, [meeting('m', nine(1), 1)]);
    expect(gone.writes.map((write) => write.taskId)).toEqual(['t2']);
    expect(gone.kept.placements.map((placed) => placed.taskId)).toEqual(['t2']);
    // Where it was placed: still the app's, moved off the meeting that landed on it.
    const there = planAutoplan(input({ links }), work, [
      meeting('m', nine(1), 1),
      meeting('ours', nine(1), 0.5),
    ]);
    expect(there.writes.map((write) => [write.taskId, write.due])).toEqual([
      ['t2', { kind: 'floating', local: '2026-07-16T09:00:00' }],
      ['t1', { kind: 'floating', local: '2026-07-16T11:00:00' }],
    ]);
  });

  it('counts the other calendars as busy by default only when the chosen calendar is not the main one', () => {
    const others = { otherCalendarIds: ['work'] };
    const chosen = (otherCalendarsBusy: boolean | null, mainCalendar: boolean) =>
      busyCalendarIds(
        syncSettings({ ...others, mainCalendar, autoplan: { ...on.autoplan, otherCalendarsBusy } }),
      );
    expect(chosen(null, false)).toEqual(['work']);
    expect(chosen(null, true)).toEqual([]);
    // The user's choice stands either way.
    expect(chosen(false, false)).toEqual([]);
    expect(chosen(true, true)).toEqual(['work']);
  });

  it('checks its placed blocks again once the hours, the gap or the busy calendars changed', () => {
    const block = { taskId: 't1', start: nine(1).toISOString(), end: nine(1.5).toISOString() };
    const kept = { placements: [block], unplaced: [], plannedWith: autoplanKey(on) };
    expect(autoplanWork(input({ kept }))?.readWindow).toBe(false);
    const changes = [
      { ...on.autoplan, gapMinutes: 15 },
      { ...on.autoplan, start: '10:00' },
      { ...on.autoplan, days: [1, 2] },
      { ...on.autoplan, otherCalendarsBusy: true },
    ];
    for (const autoplan of changes) {
      const settings = syncSettings({ autoplan, otherCalendarIds: ['work'] });
      expect(autoplanWork(input({ settings, kept }))?.readWindow).toBe(true);
    }
    // A state kept before the settings were recorded: recorded by this run, not taken for a change.
    const { plannedWith: _, ...older } = kept;
    expect(autoplanWork(input({ kept: older }))?.readWindow).toBe(false);
    const work = autoplanWork(input({ kept: older }));
    if (!work) throw new Error('work expected');
    expect(planAutoplan(input(), work, []).kept.plannedWith).toBe(autoplanKey(on));
  });

  it('checks its placed blocks again once an added calendar account (or its calendars) comes or goes, unless other calendars do not count', () => {
    const counting = syncSettings({ autoplan: { ...on.autoplan, otherCalendarsBusy: null } });
    const block = { taskId: 't1', start: nine(1).toISOString(), end: nine(1.5).toISOString() };
    const keptWith = (settings: typeof on) => ({
      placements: [block],
      unplaced: [],
      plannedWith: autoplanKey(settings),
    });
    const work = { id: 'acc-1', calendarIds: ['work-main', 'team'] };
    const added = syncSettings({ ...counting, otherAccounts: [work] });
    // Without added accounts the key is what it was before they existed.
    expect(autoplanKey(counting)).toBe(
      JSON.stringify([[1, 2, 3, 4, 5], '09:00', '17:00', 0, 'Europe/Berlin', []]),
    );
    // Added: blocks settled without it are checked against its meetings at once.
    expect(autoplanKey(added)).not.toBe(autoplanKey(counting));
    expect(autoplanWork(input({ settings: added, kept: keptWith(counting) }))?.readWindow).toBe(true);
    // Removed: checked again too; the same accounts in any order are the same key.
    expect(autoplanWork(input({ settings: counting, kept: keptWith(added) }))?.readWindow).toBe(true);
    const again = syncSettings({
      ...counting,
      otherAccounts: [{ id: 'acc-1', calendarIds: ['team', 'work-main'] }],
    });
    expect(autoplanWork(input({ settings: again, kept: keptWith(added) }))?.readWindow).toBe(false);
    // A calendar added in that account counts from then on.
    const more = syncSettings({
      ...counting,
      otherAccounts: [{ ...work, calendarIds: [...work.calendarIds, 'new'] }],
    });
    expect(autoplanKey(more)).not.toBe(autoplanKey(added));
    // Other calendars unticked: the added accounts do not count, so they do not change the key.
    const unticked = syncSettings({
      otherAccounts: [work],
      autoplan: { ...on.autoplan, otherCalendarsBusy: false },
    });
    expect(autoplanKey(unticked)).toBe(autoplanKey(on));
  });

  it('forgets the blocks whose pairs were left in another account, keeping the others and what did not fit', () => {
    const block = (taskId: string) => ({
      taskId,
      start: nine(1).toISOString(),
      end: nine(1.5).toISOString(),
    });
    const unplaced = [{ taskId: 't3', date: '2026-07-16', minutes: 30, priority: 1, order: 0 }];
    const kept = { placements: [block('t1'), block('t2')], unplaced, plannedWith: autoplanKey(on) };
    expect(forgetPlacements(kept, new Set(['t1']))).toEqual({ ...kept, placements: [block('t2')] });
    // None of them placed: the same kept, so nothing is saved for it.
    expect(forgetPlacements(kept, new Set(['t9']))).toBe(kept);
    expect(forgetPlacements(null, new Set(['t1']))).toBeNull();
  });

  it('moves a placed block the new hours leave out, or the new gap brings too close', () => {
    const block = { taskId: 't1', start: nine(1).toISOString(), end: nine(1.5).toISOString() };
    const kept = { placements: [block], unplaced: [], plannedWith: autoplanKey(on) };
    const plan = (autoplan: typeof on.autoplan) => {
      const settings = syncSettings({ autoplan });
      const work = autoplanWork(input({ settings, kept }));
      if (!work) throw new Error('work expected');
      return planAutoplan(input({ settings }), work, [meeting('m', nine(), 1)]).writes.map((w) => w.due);
    };
    expect(plan({ ...on.autoplan, start: '13:00' })).toEqual([
      { kind: 'floating', local: '2026-07-16T13:00:00' },
    ]);
    expect(plan({ ...on.autoplan, gapMinutes: 15 })).toEqual([
      { kind: 'floating', local: '2026-07-16T10:15:00' },
    ]);
  });

  it('remembers a task that did not fit, and tries it again in a later run', () => {
    const tasks = [taskSnapshot({ labels: ['1h'], due: dated('2026-07-16') })];
    const short = syncSettings({ autoplan: { ...on.autoplan, end: '10:00' } });
    const work = autoplanWork(input({ settings: short, tasks }));
    if (!work) throw new Error('work expected');
    const result = planAutoplan(input({ settings: short }), work, [meeting('m', nine(), 0.5)]);
    expect(result.writes).toEqual([]);
    expect(result.unplacedDays).toEqual([{ date: '2026-07-16', taskIds: ['t1'], minutes: 60 }]);
    const later = autoplanWork(input({ kept: result.kept }));
    expect(later?.tasks).toEqual([{ id: 't1', date: '2026-07-16', minutes: 60, priority: 1, order: 0 }]);
  });
});
