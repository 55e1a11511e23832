import { performance } from 'node:perf_hooks';

/**
 * How busy this process's event loop was over the last interval, from 0 (idle) to 1 (never idle): the
 * share of its time spent running code rather than waiting. A sync run mostly waits on providers; when
 * the loop is nearly always busy, the CPU (this process's, or a machine shared with the database) is
 * what limits runs, and more of them at once only make each slower.
 */
export type LoopLoad = { utilization(): number; stop(): void };

export function watchLoopLoad(intervalMs = 500): LoopLoad {
  let previous = performance.eventLoopUtilization();
  // Before the first interval has passed: measured since the watch began, not 0.
  let utilization: number | null = null;
  const timer = setInterval(() => {
    const current = performance.eventLoopUtilization();
    utilization = performance.eventLoopUtilization(current, previous).utilization;
    previous = current;
  }, intervalMs);
  timer.unref();
  return {
    utilization: () =>
      utilization ??
      performance.eventLoopUtilization(performance.eventLoopUtilization(), previous).utilization,
    stop: () => clearInterval(timer),
  };
}
