import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { syncStates } from '#server/db/schema/sync.tables.ts';
import { testDatabases } from '#server/test/databases.ts';
import { setUpTestApp } from '#server/test/suite-setup.ts';
import { emulatorControl, eventually, microsoftSyncingUser, tomorrowAt } from '#server/test/sync-fixtures.ts';

type Delivery = { url: string; body: string };
type Item = { subscriptionId?: string; changeType?: string; lifecycleEvent?: string };

/**
 * The app and a Graph subscription's lifecycle as Microsoft documents it (docs/provider-facts.md §3):
 * after `reauthorizationRequired` Graph sends no change notification until the subscription is renewed,
 * `subscriptionRemoved` comes when access was lost, and a subscription that just expires says nothing.
 * The app renews the subscription in place (which reauthorizes it), or opens a new one where Graph no
 * longer has it, and reads the calendar by delta, so no change is lost.
 */
for (const database of await testDatabases('Graph subscription lifecycle')) {
  describe.skipIf(!database.enabled)(`Graph subscriptions through their lifecycle (${database.name})`, () => {
    const app = setUpTestApp(database, {
      env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000' },
      overrides: { role: 'all' },
      listen: true,
    });
    const graphOrigin = () => app().emulators?.microsoft.origin ?? '';
    const channelOf = async (userId: string) => {
      const [state] = await app().database.db.select().from(syncStates).where(eq(syncStates.userId, userId));
      return state;
    };
    /** What Graph delivered about `subscriptionId`, change and lifecycle notifications alike, in order. */
    const deliveredFor = async (subscriptionId: string | null | undefined): Promise<Item[]> => {
      const { notifications } = (await emulatorControl(graphOrigin(), 'state')) as {
        notifications: Delivery[];
      };
      return notifications.flatMap((delivery) => {
        try {
          const items = (JSON.parse(delivery.body) as { value?: Item[] }).value ?? [];
          return items.filter((item) => item.subscriptionId === subscriptionId);
        } catch {
          return [];
        }
      });
    };
    const liveSubscriptions = async () => {
      const { subscriptions } = await emulatorControl(graphOrigin(), 'state');
      return (subscriptions as { id: string; expired: boolean }[])
        .filter((entry) => !entry.expired)
        .map((entry) => entry.id);
    };
    /** A syncing Microsoft 365 user with one task on the calendar, and the subscription the app opened. */
    const userWithEvent = async (email: string) => {
      const user = await microsoftSyncingUser(app(), email);
      await eventually(async () => expect((await channelOf(user.userId))?.channelId).toBeTruthy());
      const task = await user.addTask('Planned', tomorrowAt(9).day, 9, ['30min']);
      await eventually(async () => expect(await user.eventTitles()).toEqual(['Planned']));
      const [event] = await user.events();
      return { user, task, event, first: (await channelOf(user.userId))?.channelId };
    };

    it('renews a subscription Graph asks to reauthorize, and reads the change its pause kept back', async () => {
      const { user, task, event, first } = await userWithEvent('graph-reauthorize@example.com');
      // The reminder reaches the app a moment late, so the user's move falls in the pause it starts.
      await emulatorControl(graphOrigin(), 'notifications/faults', {
        mode: 'delay',
        delayMs: 1500,
        times: 1,
      });
      await emulatorControl(graphOrigin(), 'subscriptions/expire-soon', { id: first, inSeconds: 60 });
      await user.moveEvent(event?.id, tomorrowAt(15).instant, 30);

      await eventually(async () =>
        expect((await user.todoist.getTask(task.id)).due?.date).toContain('T15:00'),
      );
      // Renewed in place (PATCH, which reauthorizes): the same subscription, days from its end again.
      expect((await channelOf(user.userId))?.channelId).toBe(first);
      const { subscriptions } = await emulatorControl(graphOrigin(), 'state');
      const renewed = (
        subscriptions as { id: string; expirationDateTime: string; reauthorizationRequired: boolean }[]
      ).find((entry) => entry.id === first);
      expect(renewed?.reauthorizationRequired).toBe(false);
      expect(Date.parse(renewed?.expirationDateTime ?? '')).toBeGreaterThan(Date.now() + 24 * 3600_000);
      // The move in the pause was never notified: the app read it by delta.
      const sinceReminder = async () => {
        const items = await deliveredFor(first);
        return items.slice(items.findIndex((item) => item.lifecycleEvent === 'reauthorizationRequired') + 1);
      };
      expect((await sinceReminder()).filter((item) => item.changeType === 'updated')).toEqual([]);

      // Notifications flow again: the next move comes by notification.
      await user.moveEvent(event?.id, tomorrowAt(17).instant, 30);
      await eventually(async () => {
        expect((await sinceReminder()).map((item) => item.changeType)).toContain('updated');
        expect((await user.todoist.getTask(task.id)).due?.date).toContain('T17:00');
      });
    });

    it('opens a new subscription once the old one has just expired, with no word from Graph', async () => {
      const { user, task, event, first } = await userWithEvent('graph-expired@example.com');
      // The subscription's end has come (the app's renewals failed until now, say): Graph stops it silently.
      await emulatorControl(graphOrigin(), `subscriptions/${first}/expire`, {});
      await app()
        .database.db.update(syncStates)
        .set({ channelExpiresAt: new Date(Date.now() - 60_000) })
        .where(eq(syncStates.userId, user.userId));
      await user.moveEvent(event?.id, tomorrowAt(16).instant, 30);

      await app().sync.queue.reconcileNow();
      await eventually(async () =>
        expect((await user.todoist.getTask(task.id)).due?.date).toContain('T16:00'),
      );
      const renewed = (await channelOf(user.userId))?.channelId;
      expect(renewed).toBeTruthy();
      expect(renewed).not.toBe(first);
      expect(await liveSubscriptions()).toContain(renewed);
      expect((await deliveredFor(first)).filter((item) => item.lifecycleEvent)).toEqual([]);
    });

    it('subscribes again when Graph removes the subscription because access was lost', async () => {
      const { user, first } = await userWithEvent('graph-removed@example.com');
      // The user's sessions were revoked (a password change): their refresh tokens stop working.
      const revoked = await emulatorControl(graphOrigin(), 'refresh-tokens/revoke', {
        email: 'graph-removed@example.com',
      });
      expect(revoked.subscriptionsRemoved).toBe(1);
      await eventually(async () => {
        const renewed = (await channelOf(user.userId))?.channelId;
        expect(renewed).toBeTruthy();
        expect(renewed).not.toBe(first);
      });
      expect((await deliveredFor(first)).map((item) => item.lifecycleEvent)).toContain('subscriptionRemoved');
      expect(await liveSubscriptions()).toContain((await channelOf(user.userId))?.channelId);
    });
  });
}
