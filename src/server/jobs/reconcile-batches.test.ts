import { describe, expect, it } from 'vitest';
import { reconcileBatches } from './reconcile-batches.ts';

describe('reconcileBatches', () => {
  it('queues everyone at once in the largest batches when there is no spread', () => {
    expect(reconcileBatches(10_000, 0)).toEqual({ size: 500, gapMs: 0 });
  });

  it('spreads 10,000 users over ten minutes in batches of two, 120 ms apart', () => {
    const { size, gapMs } = reconcileBatches(10_000, 600_000);
    expect(size).toBe(2);
    expect(gapMs).toBe(120);
    expect((10_000 / size) * gapMs).toBe(600_000);
  });

  it('sends a few users one at a time, far apart', () => {
    expect(reconcileBatches(3, 600_000)).toEqual({ size: 1, gapMs: 200_000 });
  });

  it('never sends batches closer than 100 ms, and spends the spread whatever the number of users', () => {
    for (const users of [1, 7, 599, 6_000, 6_001, 50_000, 1_000_000]) {
      const { size, gapMs } = reconcileBatches(users, 600_000);
      expect(gapMs).toBeGreaterThanOrEqual(100);
      const spent = Math.ceil(users / size) * gapMs;
      expect(spent).toBeGreaterThanOrEqual(600_000 - gapMs);
      expect(spent).toBeLessThanOrEqual(600_000 + gapMs);
    }
  });
});
