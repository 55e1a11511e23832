import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CallsMade, mostInAnyWindow } from './provider-budget.fixture.ts';
import {
  appBudgetRules,
  type BudgetProvider,
  balanceAt,
  mostPerWindow,
  PROVIDER_BUDGETS,
  type StoredBudget,
  spend,
  waitMs,
} from './provider-budget.ts';

const providers = Object.keys(PROVIDER_BUDGETS) as BudgetProvider[];
const at = (seconds: number) => new Date(Date.UTC(2026, 10, 26, 9) + seconds * 1000);

describe('provider budgets', () => {
  it('never allow more than the provider’s published limit within its window', () => {
    for (const provider of providers) {
      const rule = PROVIDER_BUDGETS[provider];
      expect(mostPerWindow(rule), provider).toBeLessThanOrEqual(rule.limit.calls);
    }
  });

  it('keep the whole app within 90% of Google’s per-project and Microsoft’s per-app limits', () => {
    const rules = appBudgetRules();
    expect(rules.google.limit).toEqual({ calls: 10_000, windowSeconds: 60 });
    expect(rules.microsoft.limit).toEqual({ calls: 130_000, windowSeconds: 10 });
    for (const rule of Object.values(rules)) {
      expect(mostPerWindow(rule)).toBeCloseTo(rule.limit.calls * 0.9);
    }
    // A project whose quota was raised in the Cloud Console.
    expect(mostPerWindow(appBudgetRules(60_000).google)).toBeCloseTo(54_000);
  });

  it('start full, refill at their rate, and stop at the capacity', () => {
    const rule = PROVIDER_BUDGETS.todoist;
    expect(balanceAt(null, at(0), rule)).toBe(rule.capacity);
    const spent: StoredBudget = { tokens: -9, at: at(0) };
    expect(balanceAt(spent, at(10), rule)).toBeCloseTo(-9 + 10 * rule.perSecond);
    expect(balanceAt(spent, at(100_000), rule)).toBe(rule.capacity);
    // A clock that went back refills nothing.
    expect(balanceAt(spent, at(-5), rule)).toBe(-9);
  });

  it('let a run go while anything is left, and say how long a spent one waits', () => {
    const rule = PROVIDER_BUDGETS.todoist;
    expect(waitMs(0.5, rule)).toBe(0);
    expect(waitMs(0, rule)).toBe(Math.ceil((1 / rule.perSecond) * 1000));
    expect(waitMs(-8, rule)).toBe(Math.ceil((9 / rule.perSecond) * 1000));
    // Waited out, the balance is back above zero.
    const stored = { tokens: -8, at: at(0) };
    expect(balanceAt(stored, at(waitMs(-8, rule) / 1000), rule)).toBeGreaterThan(0);
  });

  it('hold at most one bucket of debt after a run far larger than the budget', () => {
    const rule = PROVIDER_BUDGETS.google;
    expect(spend(rule.capacity, 3, rule)).toBe(rule.capacity - 3);
    expect(spend(rule.capacity, 1036, rule)).toBe(-rule.capacity);
    expect(waitMs(spend(rule.capacity, 1036, rule), rule)).toBe(
      Math.ceil(((1 + rule.capacity) / rule.perSecond) * 1000),
    );
  });

  it('keep a user who calls as often as they may within the limit over every window (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...providers),
        // Runs as a user's quick edits make them: each some calls, a little after the one before.
        fc.array(
          fc.record({ calls: fc.integer({ min: 1, max: 6 }), gapMs: fc.integer({ min: 0, max: 3000 }) }),
          {
            minLength: 1,
            maxLength: 400,
          },
        ),
        (provider, runs) => {
          const rule = PROVIDER_BUDGETS[provider];
          let stored: StoredBudget | null = null;
          let clock = 0;
          const made: CallsMade[] = [];
          for (const run of runs) {
            clock += run.gapMs;
            // A queued run waits for its budget, as the engine does, then spends what it called.
            const wait = waitMs(balanceAt(stored, new Date(clock), rule), rule);
            clock += wait;
            const balance = balanceAt(stored, new Date(clock), rule);
            expect(balance).toBeGreaterThan(0);
            stored = { tokens: balance - run.calls, at: new Date(clock) };
            made.push({ at: clock, calls: run.calls });
          }
          // The last run may overdraw by its own calls (a run is never cut short midway).
          expect(mostInAnyWindow(made, rule.limit.windowSeconds * 1000)).toBeLessThanOrEqual(
            rule.limit.calls + 6,
          );
        },
      ),
    );
  });
});
