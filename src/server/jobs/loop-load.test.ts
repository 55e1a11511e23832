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
      await new Promise((resolve) => setTimeout(resolve, 350));
      expect(load.utilization()).toBeLessThan(0.5);
    } finally {
      load.stop();
    }
  });
});
