import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { expect } from 'vitest';
import type { App, SyncRunReport } from '#server/app.ts';
import { appAccessToken, berlinAt, emulatorControl } from './sync-fixtures.ts';
import {
  type CalendarChoice,
  expectedEvents,
  expectedTasks,
  initialModel,
  type Model,
  settled,
} from './sync-model.ts';
import { modelUser, type SeenCalendar } from './sync-model-calendars.ts';
import { type Real, reconnect, type UserPlan } from './sync-model-commands.ts';

const BERLIN_HOUR = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/Berlin',
  hour: '2-digit',
  hourCycle: 'h23',
});

/** The local hour of a Todoist due (floating or fixed), or null for a date without a time. */
function dueHour(due: { date: string; datetime?: string | null } | null | undefined): number | null {
  const value = due?.datetime ?? due?.date ?? '';
  if (!value.includes('T')) return null;
  if (/(Z|[+-]\d\d:\d\d)$/.test(value)) return Number(BERLIN_HOUR.format(new Date(value)));
  return Number(value.slice(11, 13));
}

/**
 * Plays model sequences against an app whose queue is worked by a worker (in this process or
 * another): `runs` must receive every sync run the worker ends. `settle` asks for runs as the
 * reconcile would until one writes nothing, then compares both sides with the model. `name` keeps the
 * users (e-mails) and titles of two harnesses on one app apart.
 */
export function createModelHarness(app: App, runs: SyncRunReport[], name = 'model') {
  let users = 0;
  /** The first run of the user that started at or after `since` and got to the end. */
  async function runSince(userId: string, since: number) {
    const deadline = Date.now() + 120_000;
    for (;;) {
      const run = runs.find(
        (each) => each.userId === userId && each.startedAt >= since && each.outcome.status !== 'retry-later',
      );
      if (run) return run;
      if (Date.now() > deadline) {
        const jobs = await app.database.db.execute(
          sql`select state, retry_count, created_on, start_after, started_on, heartbeat_on, completed_on, output
              from pgboss.job where name = 'user-sync' and data->>'userId' = ${userId} order by created_on`,
        );
        throw new Error(`no sync run within 120 s; the user's jobs: ${JSON.stringify(jobs)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Asks for runs, as the reconcile would, until one finds nothing left to write. */
  async function quiet(userId: string) {
    for (let round = 0; round < 8; round++) {
      const since = Date.now();
      await app.sync.service.request(userId);
      const run = await runSince(userId, since);
      if (run.outcome.status !== 'synced') throw new Error(`sync run ended ${JSON.stringify(run.outcome)}`);
      if (run.outcome.writes === 0) return;
    }
    throw new Error('every run wrote something: the sync does not settle (an echo loop?)');
  }

  /**
   * The account's calendars other than the chosen one: none of our events (tagged with a task id) and
   * nothing else the sync made or moved stayed there, only the foreign events the user made there.
   */
  function compareOthers(model: Model, real: Real, calendars: SeenCalendar[]) {
    const { choices, chosen } = real.user.calendar;
    for (const calendar of calendars.filter((each) => each.id !== chosen)) {
      const index = choices.indexOf(calendar.id);
      const label = `calendar “${calendar.name}” (not chosen)`;
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
    const tags = calendars.flatMap((calendar) => calendar.events.flatMap((event) => event.taskTag ?? []));
    expect(
      tags.filter((tag, at) => tags.indexOf(tag) !== at),
      'tasks with more than one event of ours',
    ).toEqual([]);
  }

  async function compare(model: Model, real: Real) {
    const { user } = real;
    const calendars = await user.calendar.listAll();
    const events = calendars.find((calendar) => calendar.id === user.calendar.chosen)?.events;
    if (!events) throw new Error(`the account has no calendar ${user.calendar.chosen}`);
    compareOthers(model, real, calendars);
    const openTasks = (await user.todoist.getTasks({ limit: 200 })).results;
    const wantedEvents = expectedEvents(model);
    const wantedTasks = expectedTasks(model);

    const sorted = (values: (string | null | undefined)[]) => values.map(String).sort();
    expect(sorted(events.map((event) => event.title)), 'the calendar’s events').toEqual(
      sorted(wantedEvents.map((event) => event.summary)),
    );
    expect(sorted(openTasks.map((task) => task.content)), 'the open tasks').toEqual(
      sorted(wantedTasks.filter((task) => !task.checked).map((task) => task.content)),
    );

    for (const wanted of wantedEvents) {
      const event = events.find((each) => each.title === wanted.summary);
      const start = event?.start.getTime() ?? 0;
      const end = event?.end.getTime() ?? 0;
      const label = `event “${wanted.summary}”`;
      expect(start, `${label} starts`).toBe(berlinAt(real.day, wanted.hour).instant.getTime());
      expect((end - start) / 60_000, `${label} lasts`).toBe(wanted.minutes);
      expect(event?.style ?? null, `${label} colour or category`).toBe(user.calendar.styleOf(wanted.foreign));
      if (wanted.linkDescription !== null) {
        const taskId = openTasks.find((task) => task.content === wanted.item.title)?.id ?? '?';
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
        continue;
      }
      const task = openTasks.find((each) => each.content === wanted.content);
      expect(task?.due?.date.slice(0, 10), `${label} day`).toBe(real.day);
      expect(dueHour(task?.due), `${label} hour`).toBe(wanted.hour);
      expect([...(task?.labels ?? [])].sort(), `${label} labels`).toEqual(wanted.labels);
      real.taskIds.set(wanted.item.id, task?.id ?? '');
    }
  }

  async function settle(model: Model, real: Real) {
    // While sync is off nothing moves; the changes wait for it to be switched on.
    if (!model.syncOn) return;
    await emulatorControl(real.user.todoistOrigin, 'notifications/flush', {});
    await emulatorControl(real.user.calendar.origin, 'notifications/flush', {});
    await quiet(real.user.userId);
    await compare(model, real);
    settled(model);
  }

  async function play({ commands, onComplete, calendar }: UserPlan) {
    users += 1;
    const user = await modelUser(app, calendar, `${name}-${users}@example.com`, onComplete);
    const day = new Date(Date.now() + 24 * 3600_000).toISOString().slice(0, 10);
    const model = initialModel(`${name}${users}`, onComplete);
    const real: Real = {
      user,
      day,
      taskIds: new Map(),
      eventIds: new Map(),
      appToken: (kind) => appAccessToken(app, user.userId, kind),
      settle: (current) => settle(current, real),
    };
    await fc.asyncModelRun(() => ({ model, real }), commands);
    if (!model.calendarConnected) await reconnect(model, real);
    if (!model.syncOn) {
      await user.send('PATCH', '/api/settings/onsyncactive', { setting: true });
      model.syncOn = true;
    }
    await settle(model, real);
  }

  return { play };
}
