import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { App } from '#server/app.ts';
import { syncStates } from '#server/db/schema/sync.tables.ts';
import { testDatabases } from '#server/test/databases.ts';
import { setUpTestApp } from '#server/test/suite-setup.ts';
import { microsoftSyncingUser, syncingUser, tomorrowAt } from '#server/test/sync-fixtures.ts';

/**
 * The safety brake (docs/product-rules.md §10, decision 014): a run that would remove more than 5 of a
 * user's items and more than 20% of their pairs holds those removals until the user chooses; the rest
 * of the sync goes on.
 */
const calendars = {
  google: async (app: App, email: string) => {
    const user = await syncingUser(app, email);
    return {
      ...user,
      eventIds: async () => (await user.events()).map((event) => event.id ?? ''),
      deleteEvent: (id: string) => user.google.events.delete({ calendarId: user.calendarId, eventId: id }),
    };
  },
  microsoft: async (app: App, email: string) => {
    const user = await microsoftSyncingUser(app, email);
    return {
      ...user,
      eventIds: async () => (await user.events()).map((event) => event.id),
      deleteEvent: (id: string) => user.graph('DELETE', `/me/events/${id}`),
    };
  },
};
type BrakeUser = Awaited<ReturnType<(typeof calendars)[keyof typeof calendars]>>;

for (const database of await testDatabases('the safety brake')) {
  describe.skipIf(!database.enabled)(`the safety brake (${database.name})`, () => {
    const app = setUpTestApp(database, {
      env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000' },
      overrides: { role: 'web' },
    });

    /** `count` tasks timeboxed with `label`, tomorrow from 8:00 on, synced. */
    async function withTasks(user: BrakeUser, count: number, label = '30min') {
      const day = tomorrowAt(8).day;
      const tasks = [];
      for (let n = 0; n < count; n += 1) tasks.push(await user.addTask(`Task ${n}`, day, 8 + n, [label]));
      expect(await user.run()).toMatchObject({ status: 'synced' });
      expect(await user.eventIds()).toHaveLength(count);
      return tasks;
    }
    const deleteLabel = async (user: BrakeUser, name: string) => {
      const label = (await user.todoist.getLabels()).results.find((entry) => entry.name === name);
      await user.todoist.deleteLabel(label?.id ?? '');
    };
    const activity = (user: BrakeUser) => user.send('GET', '/api/sync/activity');

    for (const [provider, syncingUserOn] of Object.entries(calendars)) {
      it(`holds the removal of every event when their label is deleted, and keeps both sides on “Keep them” (${provider})`, async () => {
        const user = await syncingUserOn(app(), `brake-keep-${provider}@example.com`);
        await withTasks(user, 7);
        const before = (await user.eventIds()).sort();
        // An unrelated change in the same run still goes through.
        const other = await user.addTask('Other', tomorrowAt(18).day, 18, ['1h']);
        await deleteLabel(user, '30min');
        expect(await user.run()).toMatchObject({ status: 'synced' });
        expect(await user.eventIds()).toHaveLength(8);

        const held = await activity(user);
        expect(held.heldRemovals).toMatchObject({
          events: 7,
          tasks: 0,
          choice: null,
          cause: { kind: 'label-removed', label: '30min', deleted: true },
        });
        // The card names the held items: the seven events, by the ids the names are read for.
        expect(held.heldRemovals.items.map((item: { eventId: string }) => item.eventId).sort()).toEqual(
          before,
        );
        expect(held.problems.map((problem: { code: string }) => problem.code)).toContain('removals-held');
        const heldEntries = held.entries.filter((entry: { action: string }) => entry.action === 'held');
        expect(heldEntries).toHaveLength(7);

        // Asked again, it holds the same, and logs nothing new.
        await user.run();
        expect(await user.eventIds()).toHaveLength(8);
        const again = await activity(user);
        expect(again.entries.filter((entry: { action: string }) => entry.action === 'held')).toHaveLength(7);

        const chosen = await user.send('POST', '/api/sync/held/keep', {});
        expect(chosen.heldRemovals).toMatchObject({ choice: 'keep' });
        await user.run();
        const after = await activity(user);
        expect(after.heldRemovals).toBeNull();
        expect(after.problems).toEqual([]);
        expect(after.entries.filter((entry: { action: string }) => entry.action === 'kept')).toHaveLength(7);
        const kept = (await user.eventIds()).filter((id) => before.includes(id));
        expect(kept.sort()).toEqual(before);
        // Unlinked: the next runs write nothing, and the other task's event is there.
        expect(await user.run()).toMatchObject({ status: 'synced', writes: 0 });
        expect(await user.eventIds()).toHaveLength(8);
        expect((await user.todoist.getTask(other.id)).labels).toEqual(['1h']);
      });
    }

    it('carries the held removals out once on “Remove them”', async () => {
      const user = await calendars.google(app(), 'brake-remove@example.com');
      await withTasks(user, 6);
      await deleteLabel(user, '30min');
      await user.run();
      expect(await user.eventIds()).toHaveLength(6);
      await user.send('POST', '/api/sync/held/remove', {});
      await user.run();
      expect(await user.eventIds()).toEqual([]);
      const after = await activity(user);
      expect(after.heldRemovals).toBeNull();
      expect(after.entries.filter((entry: { action: string }) => entry.action === 'deleted')).toHaveLength(6);
      // Released removals do not count against the next ones.
      expect(await user.run()).toMatchObject({ status: 'synced', writes: 0 });
    });

    it('keeps one held item and removes another on their own, holds the rest, then removes the rest at once', async () => {
      const user = await calendars.google(app(), 'brake-items@example.com');
      const tasks = await withTasks(user, 8);
      await deleteLabel(user, '30min');
      await user.run();
      type Item = { taskId: string; eventId: string; choice: string | null; removes: string };
      const held: Item[] = (await activity(user)).heldRemovals.items;
      expect(held).toHaveLength(8);
      const itemOf = (n: number) => held.find((item) => item.taskId === tasks[n]?.id) as Item;
      const [kept, removed] = [itemOf(0), itemOf(1)];
      expect(kept).toMatchObject({ removes: 'event', choice: null });

      // Two choices sent at once both stay; one for an item not held is refused in our words.
      const ids = ({ taskId, eventId }: Item) => ({ taskId, eventId });
      await Promise.all([
        user.send('POST', '/api/sync/held/keep', { items: [ids(kept)] }),
        user.send('POST', '/api/sync/held/remove', { items: [{ taskId: null, eventId: removed.eventId }] }),
      ]);
      const refused = await app().server.inject({
        method: 'POST',
        url: '/api/sync/held/remove',
        cookies: user.cookies,
        headers: { 'sec-fetch-site': 'same-origin' },
        payload: { items: [{ taskId: 'not-held', eventId: null }] },
      });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe(
        'This item is not held back any more, so your choice was not saved.',
      );
      const chosen = (await activity(user)).heldRemovals;
      expect(chosen.choice).toBeNull();
      const choiceOf = (item: Item) =>
        chosen.items.find((each: Item) => each.eventId === item.eventId)?.choice ?? null;
      expect([choiceOf(kept), choiceOf(removed), choiceOf(itemOf(2))]).toEqual(['keep', 'remove', null]);

      // The run carries both out; the six undecided stay held, listed anew.
      await user.run();
      const events = await user.eventIds();
      expect(events).toHaveLength(7);
      expect(events).toContain(kept.eventId);
      expect(events).not.toContain(removed.eventId);
      const after = await activity(user);
      expect(after.heldRemovals).toMatchObject({ events: 6, tasks: 0, choice: null });
      expect(after.heldRemovals.items.map((item: Item) => item.taskId).sort()).toEqual(
        tasks
          .slice(2)
          .map((task) => task.id)
          .sort(),
      );
      expect(after.problems.map((problem: { code: string }) => problem.code)).toContain('removals-held');
      const entriesOf = (action: string) =>
        after.entries.filter((entry: { action: string }) => entry.action === action);
      expect(entriesOf('kept')).toMatchObject([{ taskId: kept.taskId, eventId: kept.eventId }]);
      expect(entriesOf('deleted')).toMatchObject([{ taskId: removed.taskId, detail: 'released' }]);
      // Asked again, it holds the same six and logs nothing new.
      await user.run();
      expect((await activity(user)).entries).toHaveLength(after.entries.length);

      // The rest at once: removed, the brake ends and its choices go with it.
      await user.send('POST', '/api/sync/held/remove', {});
      await user.run();
      expect(await user.eventIds()).toEqual([kept.eventId]);
      const done = await activity(user);
      expect(done.heldRemovals).toBeNull();
      expect(done.problems).toEqual([]);
      const [state] = await app()
        .database.db.select()
        .from(syncStates)
        .where(eq(syncStates.userId, user.userId));
      expect(state).toMatchObject({ heldSince: null, brakeChoice: null, brakeItems: null });
      // Kept is unlinked: the next run writes nothing.
      expect(await user.run()).toMatchObject({ status: 'synced', writes: 0 });
    });

    it('lets five removals through, and clears the hold by itself when the user undoes the change', async () => {
      const user = await calendars.google(app(), 'brake-undo@example.com');
      const tasks = await withTasks(user, 5, '1h');
      for (const task of tasks) await user.todoist.updateTask(task.id, { labels: [] });
      await user.run();
      expect(await user.eventIds()).toEqual([]);
      expect((await activity(user)).heldRemovals).toBeNull();

      // Six more within the window: held; the label put back on the tasks leaves nothing to hold.
      const more = await withTasks(user, 6);
      for (const task of more) await user.todoist.updateTask(task.id, { labels: [] });
      await user.run();
      expect((await activity(user)).heldRemovals).toMatchObject({ events: 6 });
      for (const task of more) await user.todoist.updateTask(task.id, { labels: ['30min'] });
      await user.run();
      const after = await activity(user);
      expect(after.heldRemovals).toBeNull();
      expect(after.problems).toEqual([]);
      expect(await user.eventIds()).toHaveLength(6);
    });

    it('holds deleting or unscheduling tasks when most of their events are deleted at once', async () => {
      const user = await calendars.google(app(), 'brake-events@example.com');
      const tasks = await withTasks(user, 6);
      for (const id of await user.eventIds()) await user.deleteEvent(id);
      await user.run();
      expect((await activity(user)).heldRemovals).toMatchObject({ events: 0, tasks: 6 });
      for (const task of tasks) {
        const now = await user.todoist.getTask(task.id);
        expect(now.labels).toEqual(['30min']);
        expect(now.due?.datetime ?? now.due?.date).toContain('T');
      }
      await user.send('POST', '/api/sync/held/keep', {});
      await user.run();
      expect((await activity(user)).heldRemovals).toBeNull();
      for (const task of tasks) expect((await user.todoist.getTask(task.id)).labels).toEqual(['30min']);
      // Kept, the tasks are still timeboxed: each gets its event again, at once and once.
      const events = await user.events();
      expect(events.map((event) => event.summary).sort()).toEqual(tasks.map((task) => task.content).sort());
      expect(await user.run()).toMatchObject({ status: 'synced', writes: 0 });
      expect(await user.eventIds()).toHaveLength(6);
    });

    // The rule itself is proven for every count in plan/removal-brake.test.ts (a property); here, end to
    // end through both providers' emulators and the database, both sides of its boundary.
    it('trips exactly above its thresholds: 6 of 8 held, 5 of 12 let through, 6 of 12 held', async () => {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(
          fc
            .integer({ min: 1, max: 12 })
            .chain((pairs) =>
              fc.record({ pairs: fc.constant(pairs), removed: fc.integer({ min: 0, max: pairs }) }),
            ),
          async ({ pairs, removed }) => {
            run += 1;
            const user = await calendars.google(app(), `brake-property-${run}@example.com`);
            const tasks = await withTasks(user, pairs);
            for (const task of tasks.slice(0, removed))
              await user.todoist.updateTask(task.id, { labels: [] });
            await user.run();
            const held = removed > 5 && removed > 0.2 * pairs;
            const activityNow = await activity(user);
            expect(activityNow.heldRemovals?.events ?? 0).toBe(held ? removed : 0);
            // Held: every event is still there; let through: exactly the removed ones are gone.
            expect(await user.eventIds()).toHaveLength(held ? pairs : pairs - removed);
          },
        ),
        // Both sides of the boundary, and nothing else: each case is a user with up to 12 synced pairs.
        {
          numRuns: 3,
          seed: 20261126,
          examples: [[{ pairs: 8, removed: 6 }], [{ pairs: 12, removed: 5 }], [{ pairs: 12, removed: 6 }]],
        },
      );
    });

    it('refuses a choice when nothing is held', async () => {
      const user = await calendars.google(app(), 'brake-nothing@example.com');
      const response = await app().server.inject({
        method: 'POST',
        url: '/api/sync/held/remove',
        cookies: user.cookies,
        headers: { 'sec-fetch-site': 'same-origin' },
        payload: {},
      });
      expect(response.statusCode).toBe(409);
    });
  });
}
