import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { syncStates } from '#server/db/schema/sync.tables.ts';
import { testDatabases } from '#server/test/databases.ts';
import { setUpTestApp } from '#server/test/suite-setup.ts';
import {
  appAccessToken,
  emulatorControl,
  microsoftSyncingUser,
  type SyncingUser,
  syncingUser,
  tomorrowAt,
} from '#server/test/sync-fixtures.ts';

/**
 * A run from the queue reads only the side whose notification asked for it, so a change costs one read
 * of its own side. The other side is not read, so an update of an event names the event's last known
 * version: when the user changed that event meanwhile (its notification still on the way), the
 * provider refuses, and the run is done again with both sides read, so no change of the user is lost.
 */
for (const database of await testDatabases('sync reads')) {
  describe.skipIf(!database.enabled)(`one read per change (${database.name})`, () => {
    const app = setUpTestApp(database, {
      env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000' },
      overrides: { role: 'web' },
    });
    const HOUR = 3600_000;

    /** What a notification records (no app listening here, so none arrive by themselves). */
    const notified = (userId: string, side: 'todoist' | 'calendar') =>
      app()
        .database.db.update(syncStates)
        .set(side === 'todoist' ? { todoistReadsPending: 1 } : { calendarReadsPending: 1 })
        .where(eq(syncStates.userId, userId));
    const queueRun = (userId: string) => app().sync.engine.run(userId, { requestedSidesOnly: true });
    const pending = async (userId: string) => {
      const [state] = await app().database.db.select().from(syncStates).where(eq(syncStates.userId, userId));
      return { todoist: state?.todoistReadsPending, calendar: state?.calendarReadsPending };
    };
    /** Requests the emulator counted, by route pattern. */
    const requestsTo = async (origin: string, route: RegExp) => {
      const { requests } = await emulatorControl(origin, 'state');
      return Object.entries(requests as Record<string, number>)
        .filter(([name]) => route.test(name))
        .reduce((sum, [, count]) => sum + count, 0);
    };

    it('reads only the notified side: a task change reads Todoist, its echo reads the calendar', async () => {
      const user = await syncingUser(app(), 'one-read@example.com');
      const due = tomorrowAt(9);
      const task = await user.addTask('Draft', due.day, 9, ['30min']);
      expect(await user.run()).toMatchObject({ status: 'synced', reads: ['todoist', 'calendar'] });
      expect(await pending(user.userId)).toEqual({ todoist: 0, calendar: 0 });
      const calendarReads = () => requestsTo(user.origins.google, /^GET .*\/events$/);
      const todoistReads = () => requestsTo(user.origins.todoist, /sync/);

      await user.todoist.updateTask(task.id, { content: 'Draft the plan' });
      await notified(user.userId, 'todoist');
      const calendarBefore = await calendarReads();
      expect(await queueRun(user.userId)).toMatchObject({ status: 'synced', writes: 1, reads: ['todoist'] });
      expect(await calendarReads()).toBe(calendarBefore);
      expect((await user.events()).map((event) => event.summary)).toEqual(['Draft the plan']);

      // The calendar's notification of our own write: one read of the calendar, no write, no Todoist call.
      await notified(user.userId, 'calendar');
      const todoistBefore = await todoistReads();
      expect(await queueRun(user.userId)).toMatchObject({ status: 'synced', writes: 0, reads: ['calendar'] });
      expect(await todoistReads()).toBe(todoistBefore);
      expect(await pending(user.userId)).toEqual({ todoist: 0, calendar: 0 });

      // Nothing asked for: nothing read.
      expect(await queueRun(user.userId)).toMatchObject({ status: 'synced', writes: 0, reads: [] });
    });

    it('keeps a Google event the user moved while a one-side run wrote the task’s new title to it', async () => {
      const user = await syncingUser(app(), 'guarded@example.com');
      const due = tomorrowAt(9);
      const task = await user.addTask('Review', due.day, 9, ['30min']);
      await user.run();
      const [event] = await user.events();
      // Both change at once; only Todoist's notification has arrived when the run starts.
      await user.todoist.updateTask(task.id, { content: 'Review the budget' });
      const moved = tomorrowAt(14).instant;
      await user.moveEvent(event?.id, moved, 30);
      await notified(user.userId, 'todoist');

      // The guarded update is refused; the run is done again reading both sides.
      expect(await queueRun(user.userId)).toMatchObject({ status: 'synced', reads: ['todoist', 'calendar'] });
      const [after, ...others] = await user.events();
      expect(others).toEqual([]);
      expect(after?.summary).toBe('Review the budget');
      expect(new Date(after?.start?.dateTime ?? '').toISOString()).toBe(moved.toISOString());
      const taskAfter = await user.todoist.getTask(task.id);
      expect(taskAfter.content).toBe('Review the budget');
      expect(taskAfter.due?.datetime ?? taskAfter.due?.date).toContain('T14:00');
    });

    it('keeps a Microsoft 365 event the user moved while a one-side run wrote the task’s new title to it', async () => {
      const user = await microsoftSyncingUser(app(), 'guarded-graph@example.com');
      const due = tomorrowAt(9);
      const task = await user.addTask('Call', due.day, 9, ['30min']);
      await user.run();
      const [event] = await user.events();
      await user.todoist.updateTask(task.id, { content: 'Call the bank' });
      const moved = tomorrowAt(15).instant;
      const graphTime = (at: Date) => ({ dateTime: at.toISOString().replace('Z', ''), timeZone: 'UTC' });
      await user.graph('PATCH', `${user.calendarPath}/events/${event?.id}`, {
        start: graphTime(moved),
        end: graphTime(new Date(moved.getTime() + HOUR / 2)),
      });
      await notified(user.userId, 'todoist');

      expect(await queueRun(user.userId)).toMatchObject({ status: 'synced', reads: ['todoist', 'calendar'] });
      const [after, ...others] = await user.events();
      expect(others).toEqual([]);
      expect(after?.subject).toBe('Call the bank');
      expect(new Date(`${after?.start.dateTime.slice(0, 19)}Z`).toISOString()).toBe(moved.toISOString());
      const taskAfter = await user.todoist.getTask(task.id);
      expect(taskAfter.due?.datetime ?? taskAfter.due?.date).toContain('T15:00');
    });

    /**
     * The run reads both sides (a setting changed), and the user renames the event while the run's
     * update is on its way: held 1.5 s by the emulator, it must not overwrite the new title.
     */
    const renamedBetweenReadAndWrite = async (
      user: Pick<SyncingUser, 'userId' | 'run' | 'send'>,
      origin: string,
      rename: () => Promise<unknown>,
    ) => {
      await user.send('PATCH', '/api/calendar/todoistlinkdescription', { todoistLinkDescription: true });
      const held = await emulatorControl(origin, 'faults', {
        kind: 'latency',
        latencyMs: 1500,
        method: 'PATCH',
        times: 1,
        bearer: await appAccessToken(app(), user.userId, 'calendar'),
      });
      const running = user.run();
      // The run has read both sides and sent its update, which the emulator holds.
      for (;;) {
        const { rules } = await emulatorControl(origin, 'faults');
        if (!rules.some((rule: { id: number }) => rule.id === held.id)) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await rename();
      expect(await running).toMatchObject({ status: 'synced' });
      expect(await user.run()).toMatchObject({ status: 'synced', writes: 0 });
    };

    it('keeps a Google event the user renamed between a run’s read and its write', async () => {
      const user = await syncingUser(app(), 'renamed-between@example.com');
      const task = await user.addTask('Plan', tomorrowAt(9).day, 9, ['30min']);
      await user.run();
      const [event] = await user.events();
      await renamedBetweenReadAndWrite(user, user.origins.google, () =>
        user.google.events.patch({
          calendarId: user.calendarId,
          eventId: event?.id ?? '',
          requestBody: { summary: 'Plan the launch' },
        }),
      );
      const [after, ...others] = await user.events();
      expect(others).toEqual([]);
      expect(after?.summary).toBe('Plan the launch');
      expect(after?.description).toBe(`https://app.todoist.com/app/task/${task.id}`);
      expect((await user.todoist.getTask(task.id)).content).toBe('Plan the launch');
    });

    it('keeps a Microsoft 365 event the user renamed between a run’s read and its write', async () => {
      const user = await microsoftSyncingUser(app(), 'renamed-between-graph@example.com');
      const task = await user.addTask('Pay', tomorrowAt(9).day, 9, ['30min']);
      await user.run();
      const [event] = await user.events();
      await renamedBetweenReadAndWrite(user, app().emulators?.microsoft.origin ?? '', () =>
        user.graph('PATCH', `/me/events/${event?.id}`, { subject: 'Pay the rent' }),
      );
      const [after, ...others] = await user.events();
      expect(others).toEqual([]);
      expect(after?.subject).toBe('Pay the rent');
      expect((await user.todoist.getTask(task.id)).content).toBe('Pay the rent');
    });
  });
}
