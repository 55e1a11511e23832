import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { providerAppBudgets, syncStates } from '#server/db/schema/sync.tables.ts';
import { testDatabases } from '#server/test/databases.ts';
import { setUpTestApp } from '#server/test/suite-setup.ts';
import { syncingUser, tomorrowAt } from '#server/test/sync-fixtures.ts';
import type { SyncActivity } from '#shared/api/sync.schema.ts';
import { appBudgetRules, PROVIDER_BUDGETS } from './plan/provider-budget.ts';
import { createProviderAppBudgetRepository } from './store/provider-app-budget.repository.ts';

/**
 * The provider budgets (provider-budget.ts) instead of a pause between runs: a user's quick edits each
 * run at once, every run spends the calls it made, and a user who spent their budget waits for it.
 */
for (const database of await testDatabases('provider budgets')) {
  describe.skipIf(!database.enabled)(`provider budgets of sync runs (${database.name})`, () => {
    // The app's time, held still where a test must not see the budgets refill between its runs (a
    // slow machine's seconds refill Google's budget by eight calls each).
    let heldAt: Date | null = null;
    const app = setUpTestApp(database, {
      env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000' },
      overrides: { role: 'web', clock: () => heldAt ?? new Date() },
    });
    const queued = (userId: string) => app().sync.engine.run(userId, { spaced: true });
    const state = async (userId: string) => {
      const [row] = await app().database.db.select().from(syncStates).where(eq(syncStates.userId, userId));
      return row;
    };

    it('runs a user’s quick edits one right after another, each spending its calls', async () => {
      const user = await syncingUser(app(), 'budget-burst@example.com');
      const due = tomorrowAt(9);
      await user.run();
      heldAt = new Date();
      const before = await state(user.userId);
      for (const [index, title] of ['Write', 'Read', 'Call'].entries()) {
        await user.addTask(title, due.day, 9 + index, ['30min']);
        // Queued runs right after each other: none waits (the old pause made each wait a second).
        expect(await queued(user.userId)).toMatchObject({ status: 'synced' });
      }
      expect((await user.events()).map((event) => event.summary).sort()).toEqual(['Call', 'Read', 'Write']);
      const after = await state(user.userId);
      heldAt = null;
      // Each run read Todoist and wrote nothing there, and created one event: three calls a side at
      // least (the clock held still: nothing refilled meanwhile, beyond the moment since the first run).
      expect(after?.todoistBudget).toBeLessThanOrEqual((before?.todoistBudget ?? 0) - 3 + 1);
      expect(after?.calendarBudget).toBeLessThanOrEqual((before?.calendarBudget ?? 0) - 3 + 1);
      expect(after?.todoistBudget).toBeLessThan(PROVIDER_BUDGETS.todoist.capacity);
    });

    it('holds a queued run of a user whose budget is spent until it has refilled, and not a direct one', async () => {
      const user = await syncingUser(app(), 'budget-spent@example.com');
      await user.run();
      await app()
        .database.db.update(syncStates)
        .set({ todoistBudget: -8, todoistBudgetAt: new Date() })
        .where(eq(syncStates.userId, user.userId));
      const outcome = await queued(user.userId);
      expect(outcome.status).toBe('retry-later');
      const wait = outcome.status === 'retry-later' ? outcome.afterMs : 0;
      // About nine calls' worth of refill at Todoist's rate (the clock moved on a little meanwhile).
      expect(wait).toBeGreaterThan((8 / PROVIDER_BUDGETS.todoist.perSecond) * 1000);
      expect(wait).toBeLessThanOrEqual(Math.ceil((9 / PROVIDER_BUDGETS.todoist.perSecond) * 1000));
      expect(await user.run()).toMatchObject({ status: 'synced' });

      // Refilled (as if the time had passed), the queued run goes.
      await app()
        .database.db.update(syncStates)
        .set({ todoistBudgetAt: new Date(Date.now() - 60_000) })
        .where(eq(syncStates.userId, user.userId));
      expect(await queued(user.userId)).toMatchObject({ status: 'synced' });
    });
  });

  describe.skipIf(!database.enabled)(`the app-wide provider budgets (${database.name})`, () => {
    // A project quota of 60 Google calls a minute: a bucket of 6, refilled at 0.8 a second.
    const app = setUpTestApp(database, {
      env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000', GOOGLE_CALENDAR_REQUESTS_PER_MINUTE: '60' },
      overrides: { role: 'web' },
    });
    const rule = appBudgetRules(60).google;

    it('gives each call of the bucket once, however many processes reserve at the same moment', async () => {
      const store = createProviderAppBudgetRepository(app().database.db);
      const other = createProviderAppBudgetRepository(app().database.db);
      const now = new Date();
      const attempts = await Promise.all(
        Array.from({ length: 12 }, (_, index) =>
          (index % 2 ? store : other).reserve('microsoft', 1, now, rule),
        ),
      );
      // Six calls in the bucket, none refilled at the same moment: six of twelve reservations.
      expect(attempts.filter((attempt) => attempt.taken)).toHaveLength(6);
      expect(attempts.find((attempt) => !attempt.taken)).toEqual({ taken: false, balance: 0 });
      // Five seconds later, four calls have refilled.
      const later = new Date(now.getTime() + 5000);
      expect(await store.reserve('microsoft', 5, later, rule)).toEqual({ taken: false, balance: 4 });
      // A routine reservation must leave what it is told to keep.
      expect(await store.reserve('microsoft', 2, later, rule, 2.5)).toEqual({ taken: false, balance: 4 });
      expect(await store.reserve('microsoft', 2, later, rule, 2)).toEqual({ taken: true });
      // A routine batch as large as the bucket waits for a full one.
      expect(await store.reserve('microsoft', 1, later, rule, 6)).toEqual({ taken: false, balance: 2 });
      expect(await store.reserve('microsoft', 2, later, rule)).toEqual({ taken: true });
      // Calls already made are taken whatever the balance, down to one bucket below zero.
      await store.owe('microsoft', 4, later, rule);
      await store.owe('microsoft', 20, later, rule);
      const refilled = new Date(later.getTime() + 10_000);
      expect(await store.reserve('microsoft', 3, refilled, rule)).toEqual({ taken: false, balance: 2 });
    });

    it('holds every user’s queued runs while the app’s Google budget is spent, and not a direct run', async () => {
      const user = await syncingUser(app(), 'app-budget-spent@example.com');
      await user.run();
      await app()
        .database.db.insert(providerAppBudgets)
        .values({ provider: 'google', tokens: -2, spentAt: new Date() })
        .onConflictDoUpdate({
          target: providerAppBudgets.provider,
          set: { tokens: -2, spentAt: new Date() },
        });
      const outcome = await app().sync.engine.run(user.userId, { spaced: true });
      expect(outcome.status).toBe('retry-later');
      const wait = outcome.status === 'retry-later' ? outcome.afterMs : 0;
      // Eight calls short (the bucket's six, and the two owed) at 0.8 a second: ten seconds, and up to
      // half of that again, so that held runs come back spread out.
      expect(wait).toBeGreaterThan(9000);
      expect(wait).toBeLessThanOrEqual(15_000);
      expect(await user.run()).toMatchObject({ status: 'synced' });
    });

    it('tells the user on the dashboard while the app’s budget holds their changes back', async () => {
      const user = await syncingUser(app(), 'app-budget-notice@example.com');
      await user.run();
      const activity = async () =>
        (
          await app().server.inject({ method: 'GET', url: '/api/sync/activity', cookies: user.cookies })
        ).json() as SyncActivity;
      const spentAt = new Date();
      const spend = (tokens: number) =>
        app()
          .database.db.insert(providerAppBudgets)
          .values({ provider: 'google', tokens, spentAt })
          .onConflictDoUpdate({ target: providerAppBudgets.provider, set: { tokens, spentAt } });
      // A bucket's worth owed: twelve calls short of a batch, fifteen seconds at 0.8 a second.
      await spend(-6);
      const busy = (await activity()).providerBusy;
      expect(busy?.provider).toBe('google');
      const waitMs = new Date(busy?.until ?? 0).getTime() - spentAt.getTime();
      expect(waitMs).toBeGreaterThan(14_000);
      // The wait is rounded up to a whole millisecond, from a refill in floating point: one more at most.
      expect(waitMs).toBeLessThanOrEqual(15_001);
      // Refilled: nothing is said.
      await spend(6);
      expect((await activity()).providerBusy).toBeNull();
    });
  });

  describe.skipIf(!database.enabled)(
    `the share of the app's budget kept for changes (${database.name})`,
    () => {
      // A project quota of 600 Google calls a minute: a bucket of 60 (a quarter of it kept for changes).
      const app = setUpTestApp(database, {
        env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000', GOOGLE_CALENDAR_REQUESTS_PER_MINUTE: '600' },
        overrides: { role: 'web' },
      });

      it("holds the reconcile's runs once the bucket is down to the changes' share, and not a change's run", async () => {
        const user = await syncingUser(app(), 'app-budget-kept@example.com');
        await user.run();
        await app()
          .database.db.insert(providerAppBudgets)
          .values({ provider: 'google', tokens: 30, spentAt: new Date() })
          .onConflictDoUpdate({
            target: providerAppBudgets.provider,
            set: { tokens: 30, spentAt: new Date() },
          });
        // A batch of twenty (and what the direct run owes) would leave less than the fifteen kept.
        const routine = await app().sync.engine.run(user.userId, { spaced: true, routine: true });
        expect(routine.status).toBe('retry-later');
        expect(await app().sync.engine.run(user.userId, { spaced: true })).toMatchObject({
          status: 'synced',
        });
      });
    },
  );
}
