/** How the benchmark prints its figures: phase headings, distributions, call counts, memory. */

import type { Host } from './processes.ts';
import type { CallCounts, WindowStats } from './protocol.ts';
import { type Distribution, ratio, round } from './stats.ts';

export const log = (line: string) => console.log(line);
/** The users' calendar as printed ('Google' or 'Microsoft'); set once from the options. */
export const calendarName = { label: 'Google' };
export const phase = (name: string) => log(`\n== ${name}`);

export const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
/** `count` per one of `of`, to two decimals. */
export const fmt = (count: number, of: number) => String(round(ratio(count, of), 2));
export const ms = (value: number) => (Number.isFinite(value) ? `${round(value)} ms` : 'n/a');
export const describe = (d: Distribution) =>
  `p50 ${ms(d.p50)}, p95 ${ms(d.p95)}, p99 ${ms(d.p99)}, max ${ms(d.max)}`;
/** Seconds from `origin` to `time`, to two decimals (`…` for a time not reached). */
export const secondsFrom = (origin: number) => (time: number | null) =>
  time === null ? '…' : `${round((time - origin) / 1000, 2)}`;

export const sumCounts = (items: CallCounts[]): CallCounts =>
  items.reduce(
    (sum, item) => ({
      todoistReads: sum.todoistReads + item.todoistReads,
      todoistWrites: sum.todoistWrites + item.todoistWrites,
      calendarReads: sum.calendarReads + item.calendarReads,
      calendarWrites: sum.calendarWrites + item.calendarWrites,
      other: sum.other + item.other,
    }),
    { todoistReads: 0, todoistWrites: 0, calendarReads: 0, calendarWrites: 0, other: 0 },
  );
export const reads = (counts: CallCounts) => counts.todoistReads + counts.calendarReads;
export const writes = (counts: CallCounts) => counts.todoistWrites + counts.calendarWrites;

/** Provider calls by side and kind, each per one of `of` (`of` undefined: the counts themselves). */
export function callsLine(counts: CallCounts, of?: number) {
  const per = (count: number) => (of === undefined ? String(count) : fmt(count, of));
  return (
    `Todoist reads ${per(counts.todoistReads)}, writes ${per(counts.todoistWrites)}; ` +
    `${calendarName.label} reads ${per(counts.calendarReads)}, writes ${per(counts.calendarWrites)}; other ${per(counts.other)}`
  );
}

/** The app process's memory after a phase (its peak so far, and what it holds now). */
export async function memoryLine(host: Host) {
  const memory = await host.call('memory', {});
  log(
    `  app process memory: peak RSS ${round(memory.peakRssMb, 0)} MB; now RSS ${round(memory.rssMb, 0)} MB, ` +
      `JS heap ${round(memory.heapUsedMb, 0)} MB, external ${round(memory.externalMb, 0)} MB`,
  );
}

/** Runs in flight, lanes open and statements waiting for a database connection, as sampled over a window. */
export function concurrencyLine(concurrency: WindowStats['concurrency']) {
  const { runs, lanes, waitingForConnection: waiting } = concurrency;
  return (
    `in flight (every 50 ms): runs p50 ${runs.p50}, max ${runs.max}; lanes p50 ${lanes.p50}, max ${lanes.max}; ` +
    `statements waiting for a database connection p50 ${waiting.p50}, p95 ${waiting.p95}, max ${waiting.max}`
  );
}
