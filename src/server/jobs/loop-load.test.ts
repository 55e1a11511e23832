import { describe, expect, it } from 'vitest';
import { watchLoopLoad } from './loop-load.ts';

/** Keeps the event loop busy for `ms` without yielding. */
function busyFor(ms: number) {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // spinning: the loop runs code the whole time
  }
}

describe('the event loop load', () => {
  it('is measured from the start, before its first interval has passed', () => {
    const load = watchLoopLoad(60_000);
    try {
      busyFor(50);
      expect(load.utilization()).toBeGreaterThan(0.5);
    } finally {
      load.stop();
    }
  });

  it('follows each interval: busy, then idle', async () => {
    const load = watchLoopLoad(100);
    try {
      busyFor(150);
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(load.utilization()).toBeGreaterThan(0.5);
      // Idle from now on: a later interval says so. On a loaded machine the interval's timer may come
      // late, so it is waited for, not timed.
      await expect.poll(() => load.utilization(), { timeout: 10_000, interval: 50 }).toBeLessThan(0.5);
    } finally {
      load.stop();
    }
  });
});
