import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { expect } from 'vitest';
import type { App } from '#server/app.ts';
import { syncLinks } from '#server/db/schema/sync.tables.ts';
import type { SyncRunReport } from '#server/sync/worker.ts';
import { appAccessToken, berlinAt, emulatorControl } from './sync-fixtures.ts';
import {
  type CalendarChoice,
  chosenReadOnly,
  type ExpectedEvent,
  expectedEvents,
  initialModel,
  inScope,
  type Model,
  settled,
} from './sync-model.ts';
import { regainWriteAccess } from './sync-model-access-commands.ts';
import type { RefusedLink } from './sync-model-actions.ts';
import { type ModelClock, realClock } from './sync-model-app.ts';
import { checkPlacements, dueHours, learnPlacements } from './sync-model-autoplan.ts';
import { ELSEWHERE, type SeenCalendar, type SeenEvent } from './sync-model-calendars.ts';
import type { Real, UserPlan } from './sync-model-commands.ts';
import { liftRefusal } from './sync-model-fault-commands.ts';
import { eventsWhileRefused, keepBefore, learnRefusals, tasksWhileRefused } from './sync-model-refusals.ts';
import { reconnect, switchAutoplan } from './sync-model-settings-commands.ts';
import { type ModelUser, modelUser } from './sync-model-user.ts';

/**
 * Plays model sequences against an app whose queue is worked by a worker (in this process or
 * another): `runs` must receive every sync run the worker ends. `settle` asks for runs as the
 * reconcile would until one writes nothing, then compares both sides with the model. `name` keeps the
 * users (e-mails) and titles of two harnesses on one app apart; `clock` is the app's (the runs' times
 * are by it), moved forward past a refused write's back-off. `pushChecked`: a settle after a lifecycle
 * event checks the app's push channel delivers again (not where the runs happen in processes that do not
 * know the web server's address, and so open no channel: the crash test's workers).
 */
export function createModelHarness(
  app: App,
  runs: SyncRunReport[],
  name = 'model',
  clock: ModelClock = realClock,
  { pushChecked = true }: { pushChecked?: boolean } = {},
) {
  let users = 0;
  /**
   * The first run of the user that read from `since` on (its settings and state read after it: a run
   * that read them before, even one whose lease came after, may still see sync as it was) and got to
   * the end.
   */
  async function runSince(userId: string, since: number) {
    const deadline = Date.now() + 120_000;
    for (;;) {
      const run = runs.find(
        (each) => each.userId === userId && each.readFrom >= since && each.outcome.status !== 'retry-later',
      );
      if (run) return run;
      if (Date.now() > deadline) {
        const jobs = await app.database.db.execute(
          sql`select state, retry_count, created_on, start_after, started_on, heartbeat_on, completed_on, output
              from pgboss.job where name = 'user-runs' and data->>'userId' = ${userId} order by created_on`,
        );
        throw new Error(`no sync run within 120 s; the user's jobs: ${JSON.stringify(jobs)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /**
   * Asks for runs, as the reconcile would, until one that read both sides finds nothing left to write.
   * The first run to start after a request may be a late notification's, reading one side only (a
   * move made on the other is not yet read): a quiet one-sided run asks for another round. When the
   * rounds run out on quiet one-sided runs (a user whose runs read one side, as with no calendar), the
   * last quiet run is the answer; a run that still wrote something then is an echo loop.
   */
  async function quiet(userId: string) {
    let lastWrote = true;
    for (let round = 0; round < 8; round++) {
      const since = clock.now();
      await app.sync.service.request(userId);
      const run = await runSince(userId, since);
      if (run.outcome.status !== 'synced') throw new Error(`sync run ended ${JSON.stringify(run.outcome)}`);
      lastWrote = run.outcome.writes > 0;
      if (!lastWrote && run.outcome.reads.length === 2) return;
    }
    if (lastWrote) throw new Error('every run wrote something: the sync does not settle (an echo loop?)');
  }

  /**
   * The account's calendars other than the chosen one: none of our events (tagged with a task id) and
   * nothing else the sync made or moved stayed there, only the foreign events the user made there.
   */
  function compareOthers(model: Model, real: Real, calendars: SeenCalendar[]) {
    const { choices, chosen } = real.user.calendar;
    // A calendar the account can only read keeps every event it held then, ours too.
    const frozen = model.readOnly?.account === model.account ? real.frozen : null;
    // The events the user moved away stay there as they were moved, ours (tagged) or not.
    const away = model.items.flatMap((item) => (item.movedAway === null ? [] : [item.movedAway]));
    for (const calendar of calendars.filter((each) => each.id !== chosen)) {
      const index = choices.indexOf(calendar.id);
      const label = `calendar “${calendar.name}” (not chosen)`;
      if (calendar.id === frozen?.calendarId) {
        expect(calendar.events.map(eventAsSeen).sort(byId), `${label}, read only: its events`).toEqual(
          frozen.events.map(eventAsSeen).sort(byId),
        );
        continue;
      }
      if (calendar.name === ELSEWHERE && index === -1) {
        expect(
          calendar.events.map((event) => event.title).sort(),
          `${label}: the events moved there`,
        ).toEqual([...away].sort());
        continue;
      }
      expect(
        calendar.events.filter((event) => event.taskTag !== null).map((event) => event.title),
        `${label}: events of ours`,
      ).toEqual([]);
      expect(calendar.events.map((event) => event.title).sort(), `${label}: its events`).toEqual(
        expectedEvents(model, index === -1 ? null : (index as CalendarChoice))
          .map((event) => event.summary)
          .sort(),
      );
    }
    const tags = calendars
      .filter((calendar) => calendar.id !== frozen?.calendarId && calendar.name !== ELSEWHERE)
      .flatMap((calendar) => calendar.events.flatMap((event) => event.taskTag ?? []));
    expect(
      tags.filter((tag, at) => tags.indexOf(tag) !== at),
      'tasks with more than one event of ours',
    ).toEqual([]);
  }

  /** Nothing was written to an account connected before (its events are as when another was connected). */
  async function compareRetired(real: Real) {
    const seen = (calendars: SeenCalendar[]) =>
      calendars.map(({ id, events }) => ({ id, events: events.map(eventAsSeen).sort(byId) })).sort(byId);
    for (const { calendar, calendars } of real.retired) {
      expect(
        seen(await calendar.listAll()),
        `the ${calendar.kind} account ${calendar.email}, no longer connected`,
      ).toEqual(seen(calendars));
    }
  }

  /**
   * The links agree with both sides: one per pair, none in flight, each naming a task of the model (in
   * scope, or done) and the event it has in the chosen calendar (none: done, its event removed), and every
   * event the sync keeps for a task named by exactly one.
   */
  async function compareLinks(model: Model, real: Real, wantedEvents: ExpectedEvent[]) {
    const links = await app.database.db
      .select({
        taskId: syncLinks.taskId,
        eventId: syncLinks.eventId,
        calendarId: syncLinks.calendarId,
        pendingKey: syncLinks.pendingKey,
        completed: syncLinks.completed,
        refusedWrite: syncLinks.refusedWrite,
      })
      .from(syncLinks)
      .where(and(eq(syncLinks.userId, real.user.userId), isNull(syncLinks.parkedIn)));
    const itemOfTask = new Map(
      model.items.flatMap((item) => {
        const id = real.taskIds.get(item.id);
        return id && item.outOfScope === null && !item.taskDeleted ? [[id, item] as const] : [];
      }),
    );
    for (const link of links) {
      const item = link.taskId === null ? undefined : itemOfTask.get(link.taskId);
      const label = `link of task ${link.taskId} / event ${link.eventId}`;
      expect(link.pendingKey, `${label}: no create in flight`).toBeNull();
      expect(link.calendarId, `${label}: in the chosen calendar`).toBe(real.user.calendar.chosen);
      expect(item?.title, `${label}: a task of the model`).toBeDefined();
      if (!item) continue;
      const refused = model.refusal?.items.has(item.id) ?? false;
      expect(link.refusedWrite !== null, `${label} (“${item.title}”): a write refused`).toBe(refused);
      expect(link.completed, `${label} (“${item.title}”): done as the task`).toBe(item.completed);
      const wanted = wantedEvents.some((event) => event.item === item);
      expect(item.completed || inScope(model, item), `${label} (“${item.title}”): in scope`).toBe(true);
      expect(link.eventId, `${label} (“${item.title}”): its event`).toBe(
        wanted ? (real.eventIds.get(item.id) ?? '?') : null,
      );
    }
    for (const wanted of wantedEvents) {
      if (wanted.item.outOfScope !== null) continue;
      const eventId = real.eventIds.get(wanted.item.id);
      expect(
        links.filter((link) => link.eventId === eventId).length,
        `links of the event “${wanted.summary}”`,
      ).toBe(1);
    }
  }

  async function compare(model: Model, real: Real) {
    const { user } = real;
    const calendars = await user.calendar.listAll();
    const events = calendars.find((calendar) => calendar.id === user.calendar.chosen)?.events;
    if (!events) throw new Error(`the account has no calendar ${user.calendar.chosen}`);
    compareOthers(model, real, calendars);
    // Todoist's active tasks: not those of an archived project (read one by one below).
    const openTasks = (await user.todoist.getTasks({ limit: 200 })).results;
    // While a provider refuses writes, a refused item's refused side may be as before (sync-model-refusals.ts).
    const wantedEvents = eventsWhileRefused(model, real, events);
    const wantedTasks = tasksWhileRefused(model, real, openTasks);

    const sorted = (values: (string | null | undefined)[]) => values.map(String).sort();
    expect(sorted(events.map((event) => event.title)), 'the calendar’s events').toEqual(
      sorted(wantedEvents.map((event) => event.summary)),
    );
    expect(sorted(openTasks.map((task) => task.content)), 'the open tasks').toEqual(
      sorted(wantedTasks.filter((task) => !task.checked && task.listed).map((task) => task.content)),
    );

    for (const wanted of wantedEvents) {
      const event = events.find((each) => each.title === wanted.summary);
      const start = event?.start.getTime() ?? 0;
      const end = event?.end.getTime() ?? 0;
      const label = `event “${wanted.summary}”`;
      if (wanted.hour === null) {
        expect(event?.date, `${label} is all day on`).toBe(real.day);
      } else {
        expect(event?.date ?? null, `${label} is all day on`).toBeNull();
        expect(start, `${label} starts`).toBe(berlinAt(real.day, wanted.hour).instant.getTime());
        expect((end - start) / 60_000, `${label} lasts`).toBe(wanted.minutes);
      }
      if (wanted.style !== null)
        expect(event?.style ?? null, `${label} colour or category`).toBe(user.calendar.styleOf(wanted.style));
      if (wanted.linkDescription !== null) {
        const taskId =
          openTasks.find((task) => task.content === wanted.item.title)?.id ??
          real.taskIds.get(wanted.item.id) ??
          '?';
        expect(event?.description ?? null, `${label} description`).toBe(
          wanted.linkDescription ? `https://app.todoist.com/app/task/${taskId}` : null,
        );
      }
      real.eventIds.set(wanted.item.id, event?.id ?? '');
    }
    for (const wanted of wantedTasks) {
      const label = `task “${wanted.content}”`;
      if (wanted.checked) {
        const task = await user.todoist.getTask(real.taskIds.get(wanted.item.id) ?? '');
        expect(task.checked, `${label} is done`).toBe(true);
        expect(task.projectId, `${label} project`).toBe(real.projects[wanted.project]);
        continue;
      }
      // A task of an archived project is not in the active list: it is read by its id (known, as it was
      // made in Todoist or shown by a settle before its project was archived).
      const task = wanted.listed
        ? openTasks.find((each) => each.content === wanted.content)
        : await user.todoist.getTask(real.taskIds.get(wanted.item.id) ?? '');
      if (!wanted.listed) {
        expect(task?.content, `${label} (its project archived)`).toBe(wanted.content);
        expect(task?.checked, `${label} is open`).toBe(false);
      }
      expect(task?.projectId, `${label} project`).toBe(real.projects[wanted.project]);
      expect(task?.due?.date.slice(0, 10), `${label} day`).toBe(real.day);
      expect(dueHours(task?.due), `${label} hour`).toBe(wanted.hour);
      expect([...(task?.labels ?? [])].sort(), `${label} labels`).toEqual(wanted.labels);
      expect(task?.duration?.amount ?? null, `${label} duration`).toBe(wanted.duration);
      real.taskIds.set(wanted.item.id, task?.id ?? '');
    }
    await compareLinks(model, real, wantedEvents);
    await compareRetired(real);
  }

  /**
   * While the chosen calendar can only be read, a run that has something to write there stops with the
   * "calendar missing" problem (not a failure the queue retries), one with nothing to write goes through;
   * nothing is compared, and what the user did waits for the access to come back.
   */
  async function stopped(real: Real) {
    const since = clock.now();
    await app.sync.service.request(real.user.userId);
    const { outcome } = await runSince(real.user.userId, since);
    if (outcome.status === 'synced') return;
    expect(outcome, 'a run while the chosen calendar can only be read').toEqual({
      status: 'blocked',
      problem: 'calendar-missing',
    });
    const { problems } = await app.sync.service.activity(real.user.userId);
    expect(
      problems.map((problem) => problem.code),
      'the problems shown',
    ).toContain('calendar-missing');
  }

  async function settle(model: Model, real: Real) {
    // While sync is off nothing moves; the changes wait for it to be switched on.
    if (!model.syncOn) return;
    await emulatorControl(real.user.todoistOrigin, 'notifications/flush', {});
    await emulatorControl(real.user.calendar.origin, 'notifications/flush', {});
    if (chosenReadOnly(model)) return stopped(real);
    await quiet(real.user.userId);
    await learnPlacements(app, model, real);
    await learnRefusals(model, real, runs);
    await compare(model, real);
    // Told its channel needs it, the app has it delivering again: no change waits for the next poll.
    // Not when the event was lost on the way (a notification fault of the shared emulator): the app was
    // never told, as when a channel goes quiet without a word.
    if (
      pushChecked &&
      real.pushTold &&
      model.calendarConnected &&
      (await real.user.calendar.lifecycleHeard(real.pushTold))
    )
      expect(await real.user.calendar.pushTrouble(), 'the calendar’s push channel').toBeNull();
    real.pushTold = null;
    checkPlacements(model);
    settled(model);
    keepBefore(model, real);
  }

  /** The user's pairs whose write a provider refused for good. */
  /** The user's sync jobs' failed attempts so far, as the queue counts them (its retries and failures). */
  async function failedAttempts(userId: string): Promise<number> {
    const rows = await app.database.db.execute(
      sql`select coalesce(sum(retry_count + case when state = 'failed' then 1 else 0 end), 0)::int as failed
          from pgboss.job where name = 'user-runs' and data->>'userId' = ${userId}`,
    );
    const list = (Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows) as { failed: number }[];
    return Number(list[0]?.failed ?? 0);
  }

  async function refusedLinks(userId: string): Promise<RefusedLink[]> {
    const rows = await app.database.db
      .select({
        taskId: syncLinks.taskId,
        eventId: syncLinks.eventId,
        refusedWrite: syncLinks.refusedWrite,
        refusedAt: syncLinks.refusedAt,
        refusedCount: syncLinks.refusedCount,
      })
      .from(syncLinks)
      .where(
        and(eq(syncLinks.userId, userId), isNull(syncLinks.parkedIn), isNotNull(syncLinks.refusedWrite)),
      );
    return rows.flatMap((row) =>
      row.refusedWrite === null ? [] : [{ ...row, refusedWrite: row.refusedWrite }],
    );
  }

  /**
   * Adds Work to the user's Todoist beside the Inbox and has the app read the project list, as the
   * dashboard's refresh does (§7): every project syncs, new tasks from events go to the Inbox.
   */
  async function workProject(user: ModelUser): Promise<Real['projects']> {
    const work = await user.todoist.addProject({ name: 'Work' });
    const inbox = (await user.todoist.getProjects()).results.find(
      (project) => 'inboxProject' in project && project.inboxProject,
    );
    if (!inbox) throw new Error('the Todoist account has no Inbox');
    const current = await user.send('GET', '/api/todoist/updateuserprofile');
    expect(
      current.todoSettings.projects.map((project: { id: string }) => project.id),
      'the projects the app knows',
    ).toEqual([inbox.id, work.id]);
    return { inbox: inbox.id, work: work.id };
  }

  async function play({ commands, onComplete, calendar, autoplan }: UserPlan) {
    users += 1;
    // Taken now: users played at once count on while this one is made.
    const number = users;
    const user = await modelUser(app, calendar, `${name}-${number}@example.com`, onComplete);
    const day = new Date(Date.now() + 24 * 3600_000).toISOString().slice(0, 10);
    const model = { ...initialModel(`${name}${number}`, onComplete), clockMovable: clock.movable };
    const real: Real = {
      user,
      day,
      taskIds: new Map(),
      eventIds: new Map(),
      projects: await workProject(user),
      appToken: (kind) => appAccessToken(app, user.userId, kind),
      settle: (current) => settle(current, real),
      async idle() {
        const since = clock.now();
        await app.sync.service.request(user.userId);
        await runSince(user.userId, since);
      },
      runAfter: (since) => runSince(user.userId, since),
      retired: [],
      frozen: null,
      pushTold: null,
      clock,
      refusal: null,
      refusedLinks: () => refusedLinks(user.userId),
      failedAttempts: () => failedAttempts(user.userId),
    };
    if (autoplan) await switchAutoplan(model, real, true);
    await fc.asyncModelRun(() => ({ model, real }), commands);
    if (model.refusal) await liftRefusal(model, real);
    if (!model.calendarConnected) await reconnect(model, real);
    if (chosenReadOnly(model)) await regainWriteAccess(model, real);
    if (!model.syncOn) {
      await user.send('PATCH', '/api/settings/onsyncactive', { setting: true });
      model.syncOn = true;
    }
    await settle(model, real);
  }

  return { play };
}

/** An event as compared across two readings: its times as numbers. */
const eventAsSeen = (event: SeenEvent) => ({
  ...event,
  start: event.start.getTime(),
  end: event.end.getTime(),
});
const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
