import fc from 'fast-check';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { type CallsMade, mostInAnyWindow } from '../plan/provider-budget.fixture.ts';
import {
  type AppBudgetProvider,
  appBudgetRules,
  type BudgetRule,
  balanceAt,
  type StoredBudget,
} from '../plan/provider-budget.ts';
import type { ProviderAppBudgetRepository } from '../store/provider-app-budget.repository.ts';
import { createAppBudget } from './app-budget.ts';

/** The repository's statement, in memory: refilled, then taken only when covered. */
function memoryStore() {
  const rows = new Map<AppBudgetProvider, StoredBudget>();
  let statements = 0;
  const store: ProviderAppBudgetRepository = {
    async reserve(provider, calls, now, rule, keep = 0) {
      statements += 1;
      const row = rows.get(provider) ?? { tokens: rule.capacity, at: now };
      const balance = balanceAt(row, now, rule);
      if (balance < Math.min(calls + keep, rule.capacity)) {
        rows.set(provider, row);
        return { taken: false, balance };
      }
      const at = row.at > now ? row.at : now;
      rows.set(provider, { tokens: Math.max(-rule.capacity, balance - calls), at });
      return { taken: true };
    },
    async owe(provider, calls, now, rule) {
      statements += 1;
      const row = rows.get(provider) ?? { tokens: rule.capacity, at: now };
      const at = row.at > now ? row.at : now;
      rows.set(provider, { tokens: Math.max(-rule.capacity, balanceAt(row, now, rule) - calls), at });
    },
    async balance(provider, now, rule) {
      const row = rows.get(provider);
      return row ? balanceAt(row, now, rule) : null;
    },
  };
  return { store, statements: () => statements };
}

const silent = pino({ level: 'silent' });
const start = Date.UTC(2026, 10, 28, 9);
const tiny: BudgetRule = { capacity: 10, perSecond: 1, limit: { calls: 100, windowSeconds: 90 } };
const rules = { google: tiny, microsoft: appBudgetRules().microsoft };

/** A process's app budget over `store`, at the clock's time, with no jitter unless told. */
function budgetOn(
  store: ProviderAppBudgetRepository,
  clock: () => Date,
  more: Partial<Parameters<typeof createAppBudget>[0]> = {},
) {
  return createAppBudget({ store, rules, clock, log: silent, random: () => 0, ...more });
}

describe('app-wide provider budgets', () => {
  it('reserve a batch of calls in one statement, and let runs go on it without another', async () => {
    const { store, statements } = memoryStore();
    const now = new Date(start);
    const budget = budgetOn(store, () => now);
    for (let run = 0; run < 20; run += 1) {
      expect(await budget.waitMs('google', now)).toBe(0);
      budget.spent('google', 1);
    }
    // A batch of twenty, more than the bucket's ten, is taken whole (as a debt): one statement.
    expect(statements()).toBe(1);
  });

  it('hold queued runs while the balance cannot cover a batch, each for a wait of its own', async () => {
    const { store, statements } = memoryStore();
    let now = new Date(start);
    let jitter = 0.25;
    const shorts: string[] = [];
    const budget = budgetOn(store, () => now, {
      reservedAtATime: { google: 5, microsoft: 100 },
      random: () => jitter,
      onShort: (provider) => shorts.push(provider),
    });
    // Ten calls in the bucket: two batches of five, then nothing.
    for (let run = 0; run < 10; run += 1) {
      expect(await budget.waitMs('google', now)).toBe(0);
      budget.spent('google', 1);
    }
    expect(statements()).toBe(2);
    // Five calls at one a second, and a quarter of half of that.
    expect(await budget.waitMs('google', now)).toBe(5000 + 625);
    expect(statements()).toBe(3);
    expect(shorts).toEqual(['google']);
    // Meanwhile no statement is made, and each run waits its own share longer.
    jitter = 0.75;
    now = new Date(start + 2000);
    expect(await budget.waitMs('google', now)).toBe(3000 + 1125);
    expect(statements()).toBe(3);
    // Refilled: the runs go again; Microsoft's budget was never touched.
    now = new Date(start + 5000);
    expect(await budget.waitMs('google', now)).toBe(0);
    expect(await budget.waitMs('microsoft', now)).toBe(0);
  });

  it('make up for calls made beyond the reservation with the next one', async () => {
    const { store } = memoryStore();
    let now = new Date(start);
    const budget = budgetOn(store, () => now, { reservedAtATime: { google: 2, microsoft: 100 } });
    expect(await budget.waitMs('google', now)).toBe(0);
    // A run that called eight times on a reservation of two: six owed, plus the next two.
    budget.spent('google', 8);
    expect(await budget.waitMs('google', now)).toBe(0);
    // 10 − 2 − 8 = 0 left: the next batch waits two seconds.
    budget.spent('google', 2);
    expect(await budget.waitMs('google', now)).toBe(2000);
    now = new Date(start + 2000);
    expect(await budget.waitMs('google', now)).toBe(0);
  });

  it('count the calls of a process whose runs never wait, a batch at a time', async () => {
    const { store, statements } = memoryStore();
    const now = new Date(start);
    const options = { reservedAtATime: { google: 4, microsoft: 100 } };
    const web = budgetOn(store, () => now, options);
    const worker = budgetOn(store, () => now, options);
    // Direct runs call eight times: two debts of four, recorded as they reach a batch.
    for (let run = 0; run < 8; run += 1) {
      web.spent('google', 1);
      await new Promise(setImmediate);
    }
    expect(statements()).toBe(2);
    // Of the bucket's ten, two are left: the worker's batch of four waits for two more.
    expect(await worker.waitMs('google', now)).toBe(2000);
  });

  it('say when queued runs are held long enough to tell the user, from the bucket itself', async () => {
    const { store } = memoryStore();
    let now = new Date(start);
    const worker = budgetOn(store, () => now, { reservedAtATime: { google: 10, microsoft: 100 } });
    const web = budgetOn(store, () => now, { reservedAtATime: { google: 10, microsoft: 100 } });
    expect(await web.heldUntil('google', now)).toBeNull();
    // The worker takes the bucket's ten and makes them: a batch needs ten more, ten seconds away.
    expect(await worker.waitMs('google', now)).toBe(0);
    worker.spent('google', 10);
    expect(await worker.waitMs('google', now)).toBeGreaterThan(0);
    expect(await web.heldUntil('google', now)).toEqual(new Date(start + 10_000));
    // A second later nine are missing: under the ten seconds a user would notice, so nothing is said.
    now = new Date(start + 1000);
    expect(await web.heldUntil('google', now)).toBeNull();
    expect(await web.heldUntil('microsoft', now)).toBeNull();
  });

  it("leave users' changes their share: reconcile runs wait once the bucket is down to it, a change's run goes on", async () => {
    const { store } = memoryStore();
    let now = new Date(start);
    const budget = budgetOn(store, () => now, { reservedAtATime: { google: 2, microsoft: 100 } });
    // Of the bucket's ten, a quarter (2.5) is kept: routine batches of two go while 4.5 are left.
    for (let run = 0; run < 3; run += 1) {
      expect(await budget.waitMs('google', now, true)).toBe(0);
      budget.spent('google', 2);
    }
    // Four left: the reconcile's next run waits until 4.5 are there again, half a second.
    expect(await budget.waitMs('google', now, true)).toBe(500);
    // A change's runs take what is kept, down to nothing; then they wait too.
    for (let run = 0; run < 2; run += 1) {
      expect(await budget.waitMs('google', now)).toBe(0);
      budget.spent('google', 2);
    }
    expect(await budget.waitMs('google', now)).toBe(2000);
    // The reconcile's runs now wait until the kept share is back as well: the refill goes to it first.
    now = new Date(start + 400);
    expect(await budget.waitMs('google', now, true)).toBe(4100);
    now = new Date(start + 2000);
    expect(await budget.waitMs('google', now, true)).toBe(2500);
    now = new Date(start + 4500);
    expect(await budget.waitMs('google', now, true)).toBe(0);
  });

  it("let a change's run that found a reconcile run's reservation refused ask for itself", async () => {
    const { store, statements } = memoryStore();
    const now = new Date(start);
    const budget = budgetOn(store, () => now, { reservedAtATime: { google: 3, microsoft: 100 } });
    const other = budgetOn(store, () => now, { reservedAtATime: { google: 7, microsoft: 100 } });
    // Another process leaves three: enough for a change's batch of three, not for the reconcile's.
    expect(await other.waitMs('google', now)).toBe(0);
    other.spent('google', 7);
    const [routine, live] = await Promise.all([
      budget.waitMs('google', now, true),
      budget.waitMs('google', now),
    ]);
    expect(routine).toBeGreaterThan(0);
    expect(live).toBe(0);
    expect(statements()).toBe(3);
  });

  it('keep all processes together within the limit over every window (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }),
        fc.array(
          fc.record({
            process: fc.nat(3),
            calls: fc.integer({ min: 1, max: 3 }),
            gapMs: fc.integer({ min: 0, max: 400 }),
            routine: fc.boolean(),
          }),
          { minLength: 1, maxLength: 300 },
        ),
        async (processes, runs) => {
          const { store } = memoryStore();
          let clock = start;
          const google = appBudgetRules(600).google;
          const budgets = Array.from({ length: processes }, () =>
            budgetOn(store, () => new Date(clock), {
              rules: { google, microsoft: rules.microsoft },
              random: () => 0.5,
            }),
          );
          const made: CallsMade[] = [];
          for (const run of runs) {
            clock += run.gapMs;
            const budget = budgets[run.process % processes];
            if (!budget) continue;
            // A queued run waits for the app's budget as the engine has it do, then calls.
            for (let wait = await budget.waitMs('google', new Date(clock), run.routine); wait > 0; ) {
              clock += wait;
              wait = await budget.waitMs('google', new Date(clock), run.routine);
            }
            budget.spent('google', run.calls);
            made.push({ at: clock, calls: run.calls });
          }
          expect(mostInAnyWindow(made, google.limit.windowSeconds * 1000)).toBeLessThanOrEqual(
            google.limit.calls,
          );
        },
      ),
      { numRuns: 60 },
    );
  });
});
