/** Small numeric helpers for the benchmark's figures. */

import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * How late this process's event loop ran its callbacks (p99 and max, ms) since the last reading: a
 * request that arrives while the loop is busy waits that long before it is even read.
 */
export function loopDelayMonitor(): () => { p99Ms: number; maxMs: number } {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  return () => {
    const reading = { p99Ms: round(histogram.percentile(99) / 1e6), maxMs: round(histogram.max / 1e6) };
    histogram.reset();
    return reading;
  };
}

/** Milliseconds on a clock both bench processes share (the system clock, to the microsecond). */
export const now = (): number => performance.timeOrigin + performance.now();

/** The nearest-rank percentile (p in 0..100) of the values; NaN when there are none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

export type Distribution = { count: number; p50: number; p95: number; p99: number; max: number };

export function distribution(values: readonly number[]): Distribution {
  return {
    count: values.length,
    p50: round(percentile(values, 50)),
    p95: round(percentile(values, 95)),
    p99: round(percentile(values, 99)),
    max: round(values.length === 0 ? Number.NaN : Math.max(...values)),
  };
}

export const round = (value: number, digits = 1): number => {
  if (!Number.isFinite(value)) return value;
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
};

export const ratio = (part: number, whole: number): number => (whole === 0 ? Number.NaN : part / whole);

/** Runs `work` over the items with at most `limit` in flight; results keep the items' order. */
export async function inBatches<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T, index);
    }
  });
  await Promise.all(lanes);
  return results;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A plain-text table with aligned columns. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}
