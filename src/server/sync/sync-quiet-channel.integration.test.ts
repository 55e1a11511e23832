import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { syncStates } from '#server/db/schema/sync.tables.ts';
import { testDatabases } from '#server/test/databases.ts';
import { setUpTestApp } from '#server/test/suite-setup.ts';
import { emulatorControl, eventually, SYNCING_USERS, tomorrowAt } from '#server/test/sync-fixtures.ts';
import { PUSH_GRACE_MS } from './plan/quiet-channel.ts';

/**
 * A push channel that goes quiet without a word (Google stops a channel, Graph removes a subscription
 * and its lifecycle event is lost): the reconcile still brings the user's change, and sees that no
 * notification told of it, so the app opens the channel again there and then; the next change arrives
 * by push within seconds, not after the channel's stated expiry days later.
 */
for (const database of await testDatabases('quiet push channels')) {
  describe.skipIf(!database.enabled)(`a push channel gone quiet (${database.name})`, () => {
    /** The app's clock runs ahead by this much: the change it reads becomes old enough to judge. */
    let ahead = 0;
    const app = setUpTestApp(database, {
      env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000' },
      overrides: { role: 'all', clock: () => new Date(Date.now() + ahead) },
      listen: true,
    });
    const stateOf = async (userId: string) => {
      const [state] = await app().database.db.select().from(syncStates).where(eq(syncStates.userId, userId));
      return state;
    };

    for (const [provider, syncingUserOn] of Object.entries(SYNCING_USERS)) {
      it(`is opened again by the run that finds a change no notification told of (${provider})`, async () => {
        ahead = 0;
        const user = await syncingUserOn(app(), `quiet-${provider}@example.com`);
        await eventually(async () => expect((await stateOf(user.userId))?.channelId).toBeTruthy());
        const task = await user.addTask('Plan the week', tomorrowAt(9).day, 9, ['30min']);
        await eventually(async () => expect(await user.eventTitles()).toEqual(['Plan the week']));
        const quiet = (await stateOf(user.userId))?.channelId ?? '';

        // The channel goes quiet: the provider keeps it no longer and tells no one.
        if (provider === 'google') {
          await emulatorControl(app().emulators?.googleCalendar.origin ?? '', 'channels/expire', {
            id: quiet,
          });
        } else {
          const origin = app().emulators?.microsoft.origin ?? '';
          expect(
            (await fetch(`${origin}/_emulator/subscriptions/${quiet}/expire`, { method: 'POST' })).ok,
          ).toBe(true);
        }
        const [event] = await user.events();
        await user.moveEvent(event?.id, tomorrowAt(15).instant, 30);
        await new Promise((resolve) => setTimeout(resolve, 1500));
        expect((await user.todoist.getTask(task.id)).due?.date, 'no notification came').toContain('T09:00');

        // The reconcile, past the grace a notification has: the move arrives, and the channel is new.
        ahead = PUSH_GRACE_MS + 60_000;
        await app().sync.queue.reconcileNow();
        await eventually(async () =>
          expect((await user.todoist.getTask(task.id)).due?.date).toContain('T15:00'),
        );
        await eventually(async () => {
          const channelId = (await stateOf(user.userId))?.channelId;
          expect(channelId).toBeTruthy();
          expect(channelId).not.toBe(quiet);
        });

        // Delivering again: the next move comes by push, with no reconcile.
        await user.moveEvent(event?.id, tomorrowAt(16).instant, 30);
        await eventually(async () =>
          expect((await user.todoist.getTask(task.id)).due?.date).toContain('T16:00'),
        );
        expect(await user.eventTitles()).toEqual(['Plan the week']);
      });
    }

    it('is left as it is when the change was told of, however late its run', async () => {
      ahead = 0;
      const user = await SYNCING_USERS.google(app(), 'told-late@example.com');
      await eventually(async () => expect((await stateOf(user.userId))?.channelId).toBeTruthy());
      const task = await user.addTask('Review', tomorrowAt(9).day, 9, ['30min']);
      await eventually(async () => expect(await user.eventTitles()).toEqual(['Review']));
      const live = (await stateOf(user.userId))?.channelId;
      const [event] = await user.events();
      await user.moveEvent(event?.id, tomorrowAt(11).instant, 30);
      await eventually(async () =>
        expect((await user.todoist.getTask(task.id)).due?.date).toContain('T11:00'),
      );
      ahead = PUSH_GRACE_MS + 60_000;
      await app().sync.queue.reconcileNow();
      await eventually(async () =>
        expect((await stateOf(user.userId))?.lastRunAt?.getTime() ?? 0).toBeGreaterThan(Date.now() + 60_000),
      );
      expect((await stateOf(user.userId))?.channelId).toBe(live);
    });
  });
}
