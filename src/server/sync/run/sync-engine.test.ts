import { createHash } from 'node:crypto';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { UserRow } from '#server/db/schema/users.table.ts';
import { ReconnectRequiredError } from '#server/domain/integrations/token-manager.ts';
import { fakeClock } from '#server/domain/testing/fake-clock.ts';
import { integrationRow } from '#server/domain/testing/in-memory-integrations.ts';
import { calendarRow, todoRow } from '#server/domain/testing/in-memory-settings.ts';
import { userRow } from '#server/domain/testing/in-memory-users.ts';
import { fakeCalendar } from '#server/test/engine-fake-calendar.ts';
import { fakeChannels } from '#server/test/engine-fake-channels.ts';
import { httpError } from '#server/test/engine-fake-faults.ts';
import { fakeTodoist, floatingDue } from '#server/test/engine-fake-todoist.ts';
import { fakeTokens } from '#server/test/engine-fake-tokens.ts';
import { inMemorySyncStore } from '#server/test/in-memory-sync-store.ts';
import { CalendarGoneError } from '../calendar-target.port.ts';
import type { BudgetProvider, BudgetRule } from '../plan/provider-budget.ts';
import type { BrakeThresholds } from '../plan/removal-brake.ts';
import { RateLimitedError } from '../rate-limited-error.ts';
import type { TaskSnapshot } from '../task-source.port.ts';
import { createSyncEngine } from './sync-engine.ts';

/**
 * The sync engine on its own: in-memory repositories, Todoist and the calendar faked
 * (src/server/test/engine-fake-*.ts), the clock in the test's hand. What a run decides for each state of
 * the user and each answer of the providers; the integration tests prove the same against the emulators
 * and PostgreSQL.
 */

const USER = 'user-1';
const CALENDAR = 'primary';
const NOW = '2026-03-02T09:00:00.000Z';
/** Tomorrow 09:00 in Berlin (CET), as Todoist's floating due and as the instant it means. */
const TOMORROW_9 = { local: '2026-03-03T09:00:00', instant: new Date('2026-03-03T08:00:00.000Z') };
const MINUTE = 60_000;
/** The titles of the events left in the calendar, sorted. */
const liveTitles = (sync: { calendar: { live(calendarId: string): { title: string }[] } }) =>
  sync.calendar
    .live(CALENDAR)
    .map((event) => event.title)
    .sort();

/** The key of a create: the same on every attempt for one link and one of its events. */
const createKey = (linkId: string, generation: number) =>
  createHash('sha256').update(`${linkId}:${generation}`).digest('hex').slice(0, 32);

const budgetRule = (capacity: number, perSecond: number): BudgetRule => ({
  capacity,
  perSecond,
  limit: { calls: capacity + perSecond * 60, windowSeconds: 60 },
});

type SetUp = {
  user?: Partial<UserRow>;
  /** No calendar provider configured in this deployment. */
  noCalendar?: boolean;
  brake?: BrakeThresholds;
  budgets?: Record<BudgetProvider, BudgetRule>;
  /** Plan my day switched off while the run is under way (asked again before its times are written). */
  autoplanOffMidRun?: boolean;
};

/**
 * A user who may sync: trial running, sync on, Todoist (Berlin) and Google connected, the primary
 * calendar chosen, 30- and 60-minute timeboxes.
 */
function setUp(options: SetUp = {}) {
  const clock = fakeClock(NOW);
  const store = inMemorySyncStore(clock);
  store.users.rows.set(USER, userRow({ id: USER, syncActive: true, ...options.user }));
  for (const [kind, provider, accountId] of [
    ['todoist', 'todoist', 'todoist-1'],
    ['calendar', 'google', 'ada@example.com'],
  ] as const) {
    store.integrations.rows.set(`${USER}:${kind}`, integrationRow(USER, kind, provider, accountId, clock()));
  }
  store.settings.todo.set(USER, todoRow(USER));
  store.settings.calendar.set(
    USER,
    calendarRow(USER, {
      calendarId: CALENDAR,
      calendars: [{ id: CALENDAR, name: 'Ada', color: null, timeZone: null }],
    }),
  );
  store.settings.timeboxes.push(
    { userId: USER, label: '30min', labelId: 'label-30', duration: 30, createdAt: clock() },
    { userId: USER, label: '1h', labelId: 'label-60', duration: 60, createdAt: clock() },
  );
  const todoist = fakeTodoist(clock);
  todoist.labels.push(
    { id: 'label-30', name: '30min', color: 'red', order: 1, isDeleted: false },
    { id: 'label-60', name: '1h', color: 'blue', order: 2, isDeleted: false },
  );
  const calendar = fakeCalendar(clock);
  const channels = fakeChannels();
  const tokens = fakeTokens();
  const engine = createSyncEngine({
    settings: options.autoplanOffMidRun ? { ...store.reader, autoplanOn: async () => false } : store.reader,
    labels: store.labels,
    links: store.links,
    states: store.states,
    activity: store.activity,
    hints: store.hints,
    channels: channels.channels,
    tasks: todoist,
    calendars: { google: options.noCalendar ? null : calendar, microsoft: null },
    withToken: tokens.withToken,
    clock,
    log: pino({ level: 'silent' }),
    leases: store.leases,
    ...(options.brake && { brake: options.brake }),
    ...(options.budgets && { budgets: options.budgets }),
  });
  const problems = async () => (await store.activity.problems(USER)).map((problem) => problem.code);
  /** The user adds a task due tomorrow at 09:00 with `labels` (a timebox label, by default). */
  const addTask = (content: string, labels = ['30min'], local = TOMORROW_9.local): TaskSnapshot =>
    todoist.add({ content, labels, due: floatingDue(local) });
  return {
    clock,
    store,
    todoist,
    calendar,
    channels,
    tokens,
    problems,
    addTask,
    run: (runOptions?: Parameters<typeof engine.run>[1]) => engine.run(USER, runOptions),
  };
}

describe('when a run may not start', () => {
  it('skips a user whose sync is switched off, stops the push channel and reads nothing', async () => {
    const sync = setUp({ user: { syncActive: false } });
    sync.addTask('Write the report');
    expect(await sync.run()).toEqual({ status: 'skipped', reason: 'switched-off' });
    expect(sync.channels.stopped).toEqual([USER]);
    expect(sync.todoist.calls).toEqual([]);
    expect(await sync.problems()).toEqual([]);
  });

  it('skips a user no longer entitled, raising subscription-ended and stopping the channel', async () => {
    const sync = setUp({ user: { validUntil: new Date('2026-03-01T00:00:00.000Z') } });
    expect(await sync.run()).toEqual({ status: 'skipped', reason: 'not-entitled' });
    expect(await sync.problems()).toEqual(['subscription-ended']);
    expect(sync.channels.stopped).toEqual([USER]);
    expect(sync.todoist.calls).toEqual([]);
  });

  it('skips a user who is gone without touching any channel', async () => {
    const sync = setUp();
    sync.store.users.rows.delete(USER);
    expect(await sync.run()).toEqual({ status: 'skipped', reason: 'no-user' });
    expect(sync.channels.stopped).toEqual([]);
  });

  it('waits while a provider’s backoff lasts, then runs', async () => {
    const sync = setUp();
    await sync.store.states.save(
      USER,
      { backoffUntil: new Date(sync.clock().getTime() + 90_000) },
      sync.clock(),
    );
    expect(await sync.run()).toEqual({ status: 'retry-later', afterMs: 90_000 });
    expect(sync.todoist.calls).toEqual([]);
    sync.clock.advance(90_001);
    expect(await sync.run()).toMatchObject({ status: 'synced' });
    expect(sync.store.states.rows.get(USER)?.backoffUntil).toBeNull();
  });

  it('makes a queued run wait for a spent provider budget; a direct run goes ahead', async () => {
    const rule = budgetRule(10, 1);
    const sync = setUp({ budgets: { todoist: rule, google: rule, microsoft: rule } });
    await sync.store.states.save(USER, { todoistBudget: -1, todoistBudgetAt: sync.clock() }, sync.clock());
    // From -1 at 1 call per second: above zero after 2 s.
    expect(await sync.run({ spaced: true })).toEqual({ status: 'retry-later', afterMs: 2000 });
    expect(sync.todoist.calls).toEqual([]);
    expect(await sync.run()).toMatchObject({ status: 'synced' });
    // The run's own calls were spent from the budget.
    expect(sync.store.states.rows.get(USER)?.todoistBudget).toBeLessThan(-1);
  });

  it('skips a user whose calendar provider is not configured here', async () => {
    const sync = setUp({ noCalendar: true });
    sync.addTask('Write the report');
    expect(await sync.run()).toEqual({ status: 'skipped', reason: 'calendar-not-configured' });
    expect(sync.todoist.calls).toEqual([]);
    expect(sync.channels.ensured).toEqual([]);
  });

  it('does not start while another run holds the user’s lease, and gives its own back', async () => {
    const sync = setUp();
    const now = sync.clock();
    await sync.store.leases.acquire(USER, 'other-worker', new Date(now.getTime() + 600), now);
    expect(await sync.run()).toEqual({ status: 'retry-later', afterMs: 600, anotherRun: true });
    expect(sync.todoist.calls).toEqual([]);

    await sync.store.leases.release(USER, 'other-worker');
    expect(await sync.run()).toMatchObject({ status: 'synced' });
    expect(sync.store.leases.rows.size).toBe(0);
  });
});

describe('a run', () => {
  it('gives a timeboxed task an event with a keyed create, records the link and the read positions', async () => {
    const sync = setUp();
    const task = sync.addTask('Write the report');
    sync.addTask('No timebox here', []);

    expect(await sync.run()).toEqual({
      status: 'synced',
      plans: 1,
      writes: 1,
      reads: ['todoist', 'calendar'],
      // The in-memory settings do not know the user's problems: taken as open, notices are checked.
      problems: true,
    });
    const [event, ...others] = sync.calendar.live(CALENDAR);
    expect(others).toEqual([]);
    expect(event).toMatchObject({
      title: 'Write the report',
      start: TOMORROW_9.instant,
      end: new Date(TOMORROW_9.instant.getTime() + 30 * MINUTE),
      taskTag: task.id,
    });
    const [link, ...moreLinks] = await sync.store.links.all(USER);
    expect(moreLinks).toEqual([]);
    expect(link).toMatchObject({
      taskId: task.id,
      eventId: event?.id,
      eventVersion: event?.version,
      calendarId: CALENDAR,
      origin: 'task',
      pendingKey: null,
      generation: 0,
      startAt: TOMORROW_9.instant,
      taskMinutes: 30,
    });
    // The key is new in this run: the provider is told so, and spares the search for an earlier event.
    expect(sync.calendar.writes()).toEqual([
      { method: 'create', key: createKey(link?.id ?? '', 0), attempt: 'first' },
    ]);
    expect(sync.store.states.rows.get(USER)).toMatchObject({
      todoistToken: expect.any(String),
      calendarToken: expect.any(String),
      calendarId: CALENDAR,
      calendarProvider: 'google',
      calendarAccountId: 'ada@example.com',
      lastRunAt: sync.clock(),
      titleSalt: expect.any(String),
    });
    expect(await sync.store.activity.recent(USER, 10)).toMatchObject([
      { direction: 'todoist-to-calendar', action: 'created', taskId: task.id, eventId: event?.id },
    ]);
    expect(sync.channels.ensured).toEqual([USER]);
  });

  it('writes nothing on a second run when nothing changed, reading from the saved positions', async () => {
    const sync = setUp();
    sync.addTask('Write the report');
    await sync.run();
    const links = await sync.store.links.all(USER);
    const writes = sync.calendar.writes().length;
    const state = sync.store.states.rows.get(USER);

    expect(await sync.run()).toMatchObject({ status: 'synced', writes: 0 });
    expect(sync.calendar.writes()).toHaveLength(writes);
    expect(sync.todoist.calls.filter((call) => call.method === 'apply')).toEqual([]);
    expect(await sync.store.links.all(USER)).toEqual(links);
    expect(sync.todoist.calls.at(-1)).toEqual({ method: 'changes', syncToken: state?.todoistToken });
    expect(sync.calendar.calls.at(-1)).toEqual({ method: 'changes', syncToken: state?.calendarToken });
  });

  it('turns a new event of the user into a task with the timebox label of its length', async () => {
    const sync = setUp();
    const event = sync.calendar.addEvent(CALENDAR, 'Dentist', new Date('2026-03-03T14:00:00.000Z'), 60);
    expect(await sync.run()).toMatchObject({ status: 'synced', writes: 1 });
    const [task, ...others] = sync.todoist.live();
    expect(others).toEqual([]);
    expect(task).toMatchObject({
      content: 'Dentist',
      labels: ['1h'],
      due: floatingDue('2026-03-03T15:00:00'),
    });
    expect(await sync.store.links.all(USER)).toMatchObject([
      { taskId: task?.id, eventId: event.id, origin: 'event', pendingKey: null },
    ]);
    expect(await sync.run()).toMatchObject({ status: 'synced', writes: 0 });
  });

  it('reads the calendar in full when the provider no longer honours its sync token', async () => {
    const sync = setUp();
    const task = sync.addTask('Review');
    await sync.run();
    const [event] = sync.calendar.live(CALENDAR);
    const token = sync.store.states.rows.get(USER)?.calendarToken;
    sync.clock.advance(MINUTE);
    sync.calendar.moveEvent(event?.id ?? '', new Date('2026-03-03T12:00:00.000Z'), 30);
    sync.calendar.expireSyncTokens();

    expect(await sync.run()).toMatchObject({ status: 'synced' });
    const reads = sync.calendar.calls.filter((call) => call.method === 'changes').slice(-2);
    expect(reads).toEqual([
      { method: 'changes', syncToken: token },
      { method: 'changes', syncToken: null },
    ]);
    // The move came with the full read and went on to the task.
    expect(sync.todoist.tasks.get(task.id)?.due?.date).toBe('2026-03-03T13:00:00');
  });

  it('goes on without a push channel when the provider refuses one, but not without the account', async () => {
    const sync = setUp();
    sync.addTask('Write the report');
    sync.channels.failEnsure(new Error('webhook address unreachable'));
    expect(await sync.run()).toMatchObject({ status: 'synced', writes: 1 });
    expect(sync.calendar.live(CALENDAR)).toHaveLength(1);

    sync.channels.failEnsure(new ReconnectRequiredError('calendar'));
    expect(await sync.run()).toEqual({ status: 'blocked', problem: 'reconnect-calendar' });
  });
});

describe('creates left unfinished by a run', () => {
  it('repeats an event create whose answer was lost with the same key, making no second event', async () => {
    const sync = setUp();
    const task = sync.addTask('Write the report');
    sync.calendar.fail('create', new Error('socket hang up'), { afterApplying: true });
    await expect(sync.run()).rejects.toThrow('socket hang up');
    const [pending] = await sync.store.links.all(USER);
    expect(pending).toMatchObject({ taskId: task.id, eventId: null, pendingKey: expect.any(String) });
    expect(sync.calendar.live(CALENDAR)).toHaveLength(1);

    expect(await sync.run()).toMatchObject({ status: 'synced' });
    const [event, ...others] = sync.calendar.live(CALENDAR);
    expect(others).toEqual([]);
    const creates = sync.calendar.calls.filter((call) => call.method === 'create');
    expect(creates).toEqual([
      { method: 'create', key: pending?.pendingKey, attempt: 'first' },
      { method: 'create', key: pending?.pendingKey, attempt: 'repeat' },
    ]);
    expect(await sync.store.links.all(USER)).toMatchObject([
      { id: pending?.id, taskId: task.id, eventId: event?.id, pendingKey: null },
    ]);
  });

  it('repeats a task create from an event with the same command uuid, making no second task', async () => {
    const sync = setUp();
    const event = sync.calendar.addEvent(CALENDAR, 'Dentist', new Date('2026-03-03T14:00:00.000Z'), 30);
    sync.todoist.fail('apply', new Error('timeout'), { afterApplying: true });
    await expect(sync.run()).rejects.toThrow('timeout');
    const [pending] = await sync.store.links.all(USER);
    expect(pending).toMatchObject({ taskId: null, eventId: event.id, pendingKey: expect.any(String) });
    expect(sync.todoist.live()).toHaveLength(1);

    expect(await sync.run()).toMatchObject({ status: 'synced' });
    const [task, ...others] = sync.todoist.live();
    expect(others).toEqual([]);
    const adds = sync.todoist.commands.filter((command) => command.kind === 'add');
    expect(adds).toHaveLength(2);
    expect(adds[1]?.uuid).toBe(adds[0]?.uuid);
    expect(await sync.store.links.all(USER)).toMatchObject([
      { id: pending?.id, taskId: task?.id, eventId: event.id, pendingKey: null },
    ]);
  });
});

describe('an event changed since the run planned its update', () => {
  it('runs again reading both sides, keeping the user’s change of the event', async () => {
    const sync = setUp();
    const task = sync.addTask('Write the report');
    await sync.run();
    const [event] = sync.calendar.live(CALENDAR);
    const [link] = await sync.store.links.all(USER);
    sync.clock.advance(MINUTE);
    // The title changes in Todoist (its webhook asks for a read); the user moves the event meanwhile,
    // its push still on the way.
    sync.todoist.edit(task.id, { content: 'Write the final report' });
    await sync.store.states.requestReads([USER], ['todoist'], sync.clock());
    sync.calendar.moveEvent(event?.id ?? '', new Date('2026-03-03T10:00:00.000Z'), 30);

    expect(await sync.run({ requestedSidesOnly: true })).toMatchObject({
      status: 'synced',
      reads: ['todoist', 'calendar'],
    });
    const updates = sync.calendar.calls.filter((call) => call.method === 'update');
    expect(updates).toHaveLength(2);
    // The first named the version the run knew, and was refused.
    expect(updates[0]?.ifVersion).toBe(link?.eventVersion);
    expect(sync.calendar.live(CALENDAR)).toMatchObject([
      { title: 'Write the final report', start: new Date('2026-03-03T10:00:00.000Z') },
    ]);
    expect(sync.todoist.tasks.get(task.id)?.due?.date).toBe('2026-03-03T11:00:00');
  });
});

describe('problems only the user or time can solve', () => {
  it('blocks on a Todoist account to connect again, raising the problem', async () => {
    const sync = setUp();
    sync.tokens.revoke('todoist');
    expect(await sync.run()).toEqual({ status: 'blocked', problem: 'reconnect-todoist' });
    expect(await sync.problems()).toEqual(['reconnect-todoist']);
    expect(sync.store.states.rows.get(USER)?.todoistToken).toBeNull();
  });

  it('blocks on a calendar account to connect again, raising the problem', async () => {
    const sync = setUp();
    sync.addTask('Write the report');
    sync.tokens.revoke('calendar');
    expect(await sync.run()).toEqual({ status: 'blocked', problem: 'reconnect-calendar' });
    expect(await sync.problems()).toEqual(['reconnect-calendar']);
    expect(await sync.store.links.all(USER)).toEqual([]);
  });

  it('blocks on a calendar gone, raising calendar-missing, and keeps the read positions', async () => {
    const sync = setUp();
    sync.addTask('Write the report');
    sync.calendar.fail('changes', new CalendarGoneError('calendar deleted'));
    expect(await sync.run()).toEqual({ status: 'blocked', problem: 'calendar-missing' });
    expect(await sync.problems()).toEqual(['calendar-missing']);
    expect(sync.store.states.rows.get(USER)?.todoistToken).toBeNull();
  });

  it('backs off when rate limited, raising quota-reached until a run gets through', async () => {
    const sync = setUp();
    sync.todoist.fail('changes', new RateLimitedError('too many requests', 30_000));
    expect(await sync.run()).toEqual({ status: 'retry-later', afterMs: 30_000 });
    expect(sync.store.states.rows.get(USER)?.backoffUntil).toEqual(new Date(sync.clock().getTime() + 30_000));
    expect(await sync.problems()).toEqual(['quota-reached']);

    sync.clock.advance(10_000);
    expect(await sync.run()).toEqual({ status: 'retry-later', afterMs: 20_000 });
    sync.clock.advance(20_001);
    expect(await sync.run()).toMatchObject({ status: 'synced' });
    expect(await sync.problems()).toEqual([]);
  });

  it('backs off a minute when the provider names no time, and at least a second', async () => {
    const sync = setUp();
    sync.calendar.fail('changes', new RateLimitedError('quota', null));
    expect(await sync.run()).toEqual({ status: 'retry-later', afterMs: 60_000 });
    sync.clock.advance(60_001);
    sync.calendar.fail('changes', new RateLimitedError('quota', 10));
    expect(await sync.run()).toEqual({ status: 'retry-later', afterMs: 1000 });
  });

  it('logs an event write refused for good as skipped, and carries out the rest of the run', async () => {
    const sync = setUp();
    const refused = sync.addTask('Write the report');
    const other = sync.addTask('Plan the week', ['1h'], '2026-03-03T11:00:00');
    sync.calendar.fail('create', httpError(400));

    expect(await sync.run()).toMatchObject({ status: 'synced', plans: 2 });
    expect(sync.calendar.live(CALENDAR)).toMatchObject([{ title: 'Plan the week', taskTag: other.id }]);
    const activity = await sync.store.activity.recent(USER, 10);
    expect(activity).toContainEqual(
      expect.objectContaining({
        direction: 'todoist-to-calendar',
        action: 'skipped',
        detail: 'refused',
        taskId: refused.id,
        eventId: null,
      }),
    );
    expect(activity).toContainEqual(expect.objectContaining({ action: 'created', taskId: other.id }));
  });

  it('does not ask again for an event refused for good until its task changes', async () => {
    const sync = setUp();
    const task = sync.addTask('Write the report');
    sync.calendar.fail('create', httpError(400));
    expect(await sync.run()).toMatchObject({ status: 'synced' });
    const [refusedLink] = await sync.store.links.all(USER);
    expect(refusedLink).toMatchObject({
      taskId: task.id,
      eventId: null,
      pendingKey: null,
      refusedTaskVersion: task.updatedAt,
    });

    // Runs reading the task again (the calendar would take it now) neither repeat the create nor log it.
    const creates = () => sync.calendar.calls.filter((call) => call.method === 'create').length;
    const before = { creates: creates(), activity: (await sync.store.activity.recent(USER, 50)).length };
    sync.clock.advance(MINUTE);
    expect(await sync.run()).toMatchObject({ status: 'synced', writes: 0 });
    // A full read of Todoist (its sync token forgotten) brings the unchanged task: still not asked for.
    await sync.store.states.save(USER, { todoistToken: null }, sync.clock());
    expect(await sync.run()).toMatchObject({ status: 'synced', writes: 0 });
    expect(sync.todoist.calls.filter((call) => call.method === 'changes').at(-1)).toEqual({
      method: 'changes',
      syncToken: null,
    });
    expect(creates()).toBe(before.creates);
    expect((await sync.store.activity.recent(USER, 50)).length).toBe(before.activity);

    // The user changes the task: its event is asked for again, under a new key.
    sync.clock.advance(MINUTE);
    sync.todoist.edit(task.id, { content: 'Write the short report' });
    expect(await sync.run()).toMatchObject({ status: 'synced', writes: 1 });
    expect(sync.calendar.live(CALENDAR)).toMatchObject([
      { title: 'Write the short report', taskTag: task.id },
    ]);
    expect(await sync.store.links.all(USER)).toMatchObject([
      { id: refusedLink?.id, refusedTaskVersion: null, pendingKey: null, generation: 1 },
    ]);
  });
});

describe('writes refused for good', () => {
  const refusedGoogle = (status: number, reason: string) => Object.assign(httpError(status), { reason });
  const calls = (sync: ReturnType<typeof setUp>, method: string) =>
    sync.calendar.calls.filter((call) => call.method === method).length;

  it('tries a refused create again 15 minutes, then an hour after, not at every run, and keeps one event', async () => {
    const sync = setUp();
    const task = sync.addTask('Write the report');
    for (let i = 0; i < 3; i += 1)
      sync.calendar.fail('create', refusedGoogle(403, 'forbiddenForNonOrganizer'));

    expect(await sync.run()).toMatchObject({ status: 'synced' });
    const [link] = await sync.store.links.all(USER);
    expect(link).toMatchObject({
      eventId: null,
      pendingKey: null,
      refusedWrite: 'event-create',
      refusedStatus: 403,
      refusedReason: 'forbiddenForNonOrganizer',
      refusedCount: 1,
      refusedAt: new Date(NOW),
    });
    expect(calls(sync, 'create')).toBe(1);
    // Runs before the back-off is over, a full Todoist read among them, ask nothing of the calendar.
    sync.clock.advance(10 * MINUTE);
    expect(await sync.run()).toMatchObject({ status: 'synced', writes: 0 });
    await sync.store.states.save(USER, { todoistToken: null }, sync.clock());
    expect(await sync.run()).toMatchObject({ status: 'synced', writes: 0 });
    expect(calls(sync, 'create')).toBe(1);

    // 15 minutes after: tried (its task read again by id), refused again; now an hour's wait.
    sync.clock.advance(5 * MINUTE);
    await sync.run();
    expect(calls(sync, 'create')).toBe(2);
    expect((await sync.store.links.all(USER))[0]).toMatchObject({ refusedCount: 2 });
    sync.clock.advance(59 * MINUTE);
    await sync.run();
    expect(calls(sync, 'create')).toBe(2);
    sync.clock.advance(MINUTE);
    await sync.run();
    expect(calls(sync, 'create')).toBe(3);
    // The refusal is lifted: four hours after the third, the create goes through and the mark is gone.
    sync.clock.advance(4 * 60 * MINUTE);
    await sync.run();
    expect(calls(sync, 'create')).toBe(4);
    expect(sync.calendar.live(CALENDAR)).toMatchObject([{ title: 'Write the report', taskTag: task.id }]);
    expect((await sync.store.links.all(USER))[0]).toMatchObject({
      refusedWrite: null,
      refusedCount: 0,
      refusedReason: null,
    });
    // The activity said "skipped" once, not at every try.
    const skipped = (await sync.store.activity.recent(USER, 50)).filter(
      (entry) => entry.action === 'skipped',
    );
    expect(skipped).toHaveLength(1);
  });

  it('keeps the pair as it was when an event update is refused, and tries at once when the task changes', async () => {
    const sync = setUp();
    const task = sync.addTask('Write the report');
    await sync.run();
    const [before] = await sync.store.links.all(USER);
    sync.clock.advance(MINUTE);
    sync.todoist.edit(task.id, { content: 'Write the long report' });
    sync.calendar.fail('update', refusedGoogle(403, 'forbiddenForNonOrganizer'));
    await sync.run();
    expect((await sync.store.links.all(USER))[0]).toMatchObject({
      titleHash: before?.titleHash,
      refusedWrite: 'event-update',
      refusedCount: 1,
    });
    expect(liveTitles(sync)).toEqual(['Write the report']);

    // Not due yet, but the user changed the task again: tried at once.
    sync.clock.advance(MINUTE);
    sync.todoist.edit(task.id, { content: 'Write the short report' });
    await sync.run();
    expect(liveTitles(sync)).toEqual(['Write the short report']);
    expect((await sync.store.links.all(USER))[0]).toMatchObject({ refusedWrite: null });
  });

  it('keeps the event a create made when its follow-up update is refused, and makes no second one', async () => {
    const sync = setUp();
    const task = sync.addTask('Write the report');
    // The create is made and its answer lost: the run fails, the key stays pending.
    sync.calendar.fail('create', httpError(503), { afterApplying: true });
    await expect(sync.run()).rejects.toThrow('HTTP 503');
    // Meanwhile the task is renamed: the repeated create answers the first event, the update is refused.
    sync.clock.advance(MINUTE);
    sync.todoist.edit(task.id, { content: 'Write the long report' });
    sync.calendar.fail('update', httpError(400));
    await sync.run();
    const [link] = await sync.store.links.all(USER);
    expect(link).toMatchObject({ refusedWrite: 'event-update', pendingKey: null });
    expect(link?.eventId).toBe(sync.calendar.live(CALENDAR)[0]?.id);

    sync.clock.advance(15 * MINUTE);
    await sync.run();
    expect(sync.calendar.live(CALENDAR)).toMatchObject([
      { title: 'Write the long report', taskTag: task.id },
    ]);
    expect((await sync.store.links.all(USER))[0]).toMatchObject({ refusedWrite: null });
  });

  it('does not record a task update Todoist refused as written, and tries it on the back-off', async () => {
    const sync = setUp();
    const task = sync.addTask('Write the report');
    await sync.run();
    const [before] = await sync.store.links.all(USER);
    const [event] = sync.calendar.live(CALENDAR);
    if (!event) throw new Error('no event');
    sync.clock.advance(MINUTE);
    sync.calendar.moveEvent(event.id, new Date(TOMORROW_9.instant.getTime() + 60 * MINUTE), 30);
    sync.todoist.refuse(task.id, { tag: 'INVALID_ARGUMENT_VALUE', httpCode: 400 });
    await sync.run();
    expect((await sync.store.links.all(USER))[0]).toMatchObject({
      startAt: before?.startAt,
      refusedWrite: 'task-update',
      refusedStatus: 400,
      refusedReason: 'INVALID_ARGUMENT_VALUE',
    });
    const updates = () => sync.todoist.commands.filter((command) => command.kind === 'update').length;
    const tried = updates();
    sync.clock.advance(10 * MINUTE);
    await sync.run();
    expect(updates()).toBe(tried);

    // Lifted; 15 minutes after the refusal the calendar is read in full and the update goes through.
    sync.todoist.refuse(task.id, null);
    sync.clock.advance(5 * MINUTE);
    await sync.run();
    expect(sync.todoist.tasks.get(task.id)?.due?.date).toBe('2026-03-03T10:00:00');
    expect((await sync.store.links.all(USER))[0]).toMatchObject({ refusedWrite: null });
  });
});

describe('the safety brake', () => {
  it('holds a mass removal at the thresholds given, until the user releases it', async () => {
    const sync = setUp({ brake: { minItems: 1, share: 0.2, windowMs: 10 * MINUTE } });
    const tasks = ['One', 'Two', 'Three'].map((title) => sync.addTask(title));
    await sync.run();
    expect(sync.calendar.live(CALENDAR)).toHaveLength(3);
    sync.clock.advance(MINUTE);
    sync.todoist.remove(tasks[0]?.id ?? '');
    sync.todoist.remove(tasks[1]?.id ?? '');

    // Two removals of three pairs: held at these thresholds (the default's five would let them through).
    expect(await sync.run()).toMatchObject({ status: 'synced' });
    expect(sync.calendar.live(CALENDAR)).toHaveLength(3);
    expect(sync.calendar.calls.filter((call) => call.method === 'remove')).toEqual([]);
    expect(sync.store.states.rows.get(USER)).toMatchObject({ heldEvents: 2, heldTasks: 0 });
    expect(await sync.problems()).toEqual(['removals-held']);
    const held = (await sync.store.activity.recent(USER, 10)).filter((entry) => entry.action === 'held');
    expect(held.map((entry) => entry.taskId).sort()).toEqual([tasks[0]?.id, tasks[1]?.id].sort());

    await sync.store.states.save(USER, { brakeChoice: 'remove' }, sync.clock());
    expect(await sync.run()).toMatchObject({ status: 'synced' });
    expect(sync.calendar.live(CALENDAR)).toMatchObject([{ title: 'Three' }]);
    expect(sync.store.states.rows.get(USER)).toMatchObject({ heldEvents: 0, brakeChoice: null });
    expect(await sync.problems()).toEqual([]);
    expect(await sync.store.links.all(USER)).toHaveLength(1);
  });

  it('carries out the choices for single items, holds the rest and logs them anew, and ends with the last', async () => {
    const sync = setUp({ brake: { minItems: 1, share: 0.2, windowMs: 10 * MINUTE } });
    const tasks = ['One', 'Two', 'Three', 'Four'].map((title) => sync.addTask(title));
    await sync.run();
    const links = await sync.store.links.all(USER);
    const pair = (n: number) => {
      const link = links.find((each) => each.taskId === tasks[n]?.id);
      return { taskId: link?.taskId ?? null, eventId: link?.eventId ?? null };
    };
    sync.clock.advance(MINUTE);
    for (const task of tasks.slice(0, 3)) sync.todoist.remove(task.id);
    await sync.run();
    expect(sync.store.states.rows.get(USER)).toMatchObject({ heldEvents: 3 });
    const since = sync.store.states.rows.get(USER)?.heldSince ?? new Date();

    // Keep One, remove Two; Three has no choice yet.
    sync.clock.advance(MINUTE);
    const items = {
      items: [
        { ...pair(0), choice: 'keep' as const },
        { ...pair(1), choice: 'remove' as const },
      ],
    };
    expect(await sync.store.states.saveHeldChoice(USER, since, items, sync.clock())).toBe(true);
    await sync.run();
    expect(liveTitles(sync)).toEqual(['Four', 'One', 'Three']);
    expect(sync.store.states.rows.get(USER)).toMatchObject({ heldEvents: 1, heldSince: since });
    expect(await sync.problems()).toEqual(['removals-held']);
    expect(await sync.store.activity.lastHeld(USER)).toEqual([
      { ...pair(2), direction: 'todoist-to-calendar' },
    ]);
    const recent = await sync.store.activity.recent(USER, 20);
    expect(recent.filter((entry) => entry.action === 'kept').map((entry) => entry.taskId)).toEqual([
      tasks[0]?.id,
    ]);
    expect(recent.find((entry) => entry.action === 'deleted')).toMatchObject({
      ...pair(1),
      detail: 'released',
    });
    // Released by the user, Two does not count in the window.
    expect(sync.store.states.rows.get(USER)?.removalWindowCount).toBe(0);

    // Asked again, the run holds Three and logs nothing new.
    sync.clock.advance(MINUTE);
    await sync.run();
    expect((await sync.store.activity.recent(USER, 20)).length).toBe(recent.length);

    // Removing the last held item ends the brake, and its choices go with it.
    await sync.store.states.saveHeldChoice(
      USER,
      since,
      { items: [{ ...pair(2), choice: 'remove' }] },
      sync.clock(),
    );
    await sync.run();
    expect(liveTitles(sync)).toEqual(['Four', 'One']);
    expect(sync.store.states.rows.get(USER)).toMatchObject({
      heldEvents: 0,
      heldTasks: 0,
      heldSince: null,
      heldCause: null,
      brakeChoice: null,
      brakeItems: null,
    });
    expect(await sync.problems()).toEqual([]);
    expect(await sync.store.states.saveHeldChoice(USER, since, { all: 'remove' }, sync.clock())).toBe(false);
  });
});

describe('projects', () => {
  /** Ada's Todoist with a Work project (a Clients project under it) and a Home project, all read once. */
  async function withProjects(scope?: { mode: 'chosen'; ids: string[] }) {
    const sync = setUp();
    sync.todoist.project('work');
    sync.todoist.project('clients', { parentId: 'work' });
    sync.todoist.project('home');
    if (scope) {
      const projects = scope.ids.map((id) => ({ id, name: id }));
      sync.store.settings.todo.set(USER, todoRow(USER, { projectScope: { mode: 'chosen', projects } }));
    }
    expect(await sync.run()).toMatchObject({ status: 'synced' });
    return sync;
  }
  const taskIn = (sync: Awaited<ReturnType<typeof withProjects>>, content: string, projectId: string) =>
    sync.todoist.add({ content, labels: ['30min'], due: floatingDue(TOMORROW_9.local), projectId });
  const titles = (sync: Awaited<ReturnType<typeof withProjects>>) =>
    sync.calendar.live(CALENDAR).map((event) => event.title);

  it('keeps the account’s projects for the settings screen after the first run', async () => {
    const sync = await withProjects();
    const kept = sync.store.settings.todo.get(USER)?.projects.map((project) => project.id);
    expect(kept?.sort()).toEqual(['clients', 'home', 'inbox', 'work']);
  });

  it('gives events only to tasks of the chosen projects and their sub-projects', async () => {
    const sync = await withProjects({ mode: 'chosen', ids: ['work'] });
    taskIn(sync, 'Plan', 'work');
    taskIn(sync, 'Call Acme', 'clients');
    taskIn(sync, 'Paint', 'home');
    await sync.run();
    expect(titles(sync).sort()).toEqual(['Call Acme', 'Plan']);
  });

  it('removes the event of a task moved out of the chosen projects, and makes it again when it moves back', async () => {
    const sync = await withProjects({ mode: 'chosen', ids: ['work'] });
    const task = taskIn(sync, 'Plan', 'work');
    await sync.run();
    sync.todoist.edit(task.id, { projectId: 'home' });
    await sync.run();
    expect(titles(sync)).toEqual([]);
    sync.todoist.edit(task.id, { projectId: 'work' });
    await sync.run();
    expect(titles(sync)).toEqual(['Plan']);
  });

  it('takes the events of an archived project’s tasks away, and brings them back when it is unarchived', async () => {
    const sync = await withProjects();
    taskIn(sync, 'Paint', 'home');
    taskIn(sync, 'Plan', 'work');
    await sync.run();
    expect(titles(sync).sort()).toEqual(['Paint', 'Plan']);

    // An incremental read names the project, not its tasks: the run reads every task again.
    sync.todoist.project('home', { isArchived: true });
    sync.todoist.calls.length = 0;
    await sync.run();
    expect(titles(sync)).toEqual(['Plan']);
    expect(
      sync.todoist.calls.filter((call) => call.method === 'changes').map((call) => call.syncToken),
    ).toEqual([expect.any(String), null]);

    sync.todoist.project('home', { isArchived: false });
    await sync.run();
    expect(titles(sync).sort()).toEqual(['Paint', 'Plan']);
  });

  it('puts tasks made from events into the project chosen for them', async () => {
    const sync = await withProjects();
    sync.store.settings.todo.set(USER, { ...todoRowOf(sync), eventProjectId: 'home' });
    sync.calendar.addEvent(CALENDAR, 'Dentist', TOMORROW_9.instant, 30);
    await sync.run();
    expect(sync.todoist.live().map((task) => [task.content, task.projectId])).toEqual([['Dentist', 'home']]);
  });
});

const todoRowOf = (sync: ReturnType<typeof setUp>) => {
  const row = sync.store.settings.todo.get(USER);
  if (!row) throw new Error('no todo settings');
  return row;
};

describe('Plan my day switched off during a run', () => {
  const planMyDay = {
    active: true,
    days: [1, 2, 3, 4, 5, 6, 7],
    start: '09:00',
    end: '17:00',
    gapMinutes: 0,
    otherCalendarsBusy: false,
  };
  function withDatedTask(autoplanOffMidRun: boolean) {
    const sync = setUp({ autoplanOffMidRun });
    const row = sync.store.settings.calendar.get(USER);
    if (row) row.autoplan = planMyDay;
    const task = sync.todoist.add({
      content: 'Draft the plan',
      labels: ['30min'],
      due: { date: '2026-03-03', timezone: null, isRecurring: false, string: '' },
    });
    return { sync, task };
  }

  it('places a dated task while it is on', async () => {
    const { sync, task } = withDatedTask(false);
    await sync.run();
    expect(sync.todoist.tasks.get(task.id)?.due?.date).toBe('2026-03-03T09:00:00');
    expect(liveTitles(sync)).toEqual(['Draft the plan']);
  });

  it('places nothing once it was switched off, though the run read it on', async () => {
    const { sync, task } = withDatedTask(true);
    await sync.run();
    expect(sync.todoist.tasks.get(task.id)?.due?.date).toBe('2026-03-03');
    expect(liveTitles(sync)).toEqual([]);
  });
});

describe('a push channel gone quiet', () => {
  /** A user synced once, whose channel last delivered at `heardAt` minutes after the start. */
  async function withChannel(heardMinutes: number) {
    const sync = setUp();
    const task = sync.addTask('Write the report');
    await sync.run();
    const [event] = sync.calendar.live(CALENDAR);
    const state = sync.store.states.rows.get(USER);
    if (!state) throw new Error('no state after the first run');
    state.channelId = 'channel-1';
    state.channelExpiresAt = new Date(Date.parse(NOW) + 3 * 24 * 3600_000);
    state.pushHeardAt = new Date(Date.parse(NOW) + heardMinutes * MINUTE);
    return { sync, task, event };
  }

  it('is opened again by the run that reads a change no notification told of', async () => {
    const { sync, event } = await withChannel(0);
    sync.clock.advance(MINUTE);
    sync.calendar.moveEvent(event?.id ?? '', new Date(TOMORROW_9.instant.getTime() + 2 * 3600_000), 30);
    // The reconcile's run, ten minutes on: nothing told of the move.
    sync.clock.advance(10 * MINUTE);
    await sync.run();
    expect(sync.channels.reopened).toEqual([USER]);
  });

  it('is left alone by the sync’s own write, read back later at the version it wrote', async () => {
    // Heard before the first run made the event; its echo was spared, as the intake spares it.
    const { sync } = await withChannel(-1);
    sync.clock.advance(10 * MINUTE);
    expect(await sync.run()).toMatchObject({ status: 'synced', reads: ['todoist', 'calendar'] });
    expect(sync.channels.reopened).toEqual([]);
  });

  it('is left alone when the change was told of, or is too recent to judge', async () => {
    const told = await withChannel(2);
    told.sync.clock.advance(MINUTE);
    told.sync.calendar.moveEvent(told.event?.id ?? '', new Date(TOMORROW_9.instant.getTime() + 3600_000), 30);
    told.sync.clock.advance(10 * MINUTE);
    await told.sync.run();
    expect(told.sync.channels.reopened).toEqual([]);

    const recent = await withChannel(0);
    recent.sync.clock.advance(MINUTE);
    recent.sync.calendar.moveEvent(
      recent.event?.id ?? '',
      new Date(TOMORROW_9.instant.getTime() + 3600_000),
      30,
    );
    recent.sync.clock.advance(MINUTE);
    await recent.sync.run();
    expect(recent.sync.channels.reopened).toEqual([]);
  });
});
