import { performance } from 'node:perf_hooks';

export type MachineCheck = { loopNsPerStep: number; memoryLatencyNs: number };

/**
 * How fast this machine is at the moment, before the benchmark runs, so that figures taken on different
 * days can be compared: a tight loop (the processor's speed) and a chain of dependent loads at random
 * places in 256 MB (the memory's latency, which a busy host or nested paging raises while the loop
 * runs as fast as ever). Both are medians of three, taking about two seconds in all.
 */
export function checkMachine(): MachineCheck {
  const entries = 64 * 1024 * 1024;
  const next = randomCycle(entries);
  const loops: number[] = [];
  const loads: number[] = [];
  for (let round = 0; round < 3; round += 1) {
    loops.push(timePerStep(50_000_000, (steps) => tightLoop(steps)));
    loads.push(timePerStep(5_000_000, (steps) => followCycle(next, steps)));
  }
  return { loopNsPerStep: median(loops), memoryLatencyNs: median(loads) };
}

/** Each entry names the next one, in one random cycle through all of them. */
function randomCycle(entries: number): Int32Array {
  const order = new Int32Array(entries);
  for (let index = 0; index < entries; index += 1) order[index] = index;
  for (let index = entries - 1; index > 0; index -= 1) {
    const other = Math.floor(Math.random() * (index + 1));
    const kept = order[index] ?? 0;
    order[index] = order[other] ?? 0;
    order[other] = kept;
  }
  const next = new Int32Array(entries);
  for (let index = 0; index < entries; index += 1) {
    next[order[index] ?? 0] = order[(index + 1) % entries] ?? 0;
  }
  return next;
}

function tightLoop(steps: number): number {
  let sum = 0;
  for (let step = 0; step < steps; step += 1) sum += step % 7;
  return sum;
}

function followCycle(next: Int32Array, steps: number): number {
  let at = 0;
  for (let step = 0; step < steps; step += 1) at = next[at] ?? 0;
  return at;
}

function timePerStep(steps: number, work: (steps: number) => number): number {
  const started = performance.now();
  // The result is kept, so the work is not optimised away.
  if (work(steps) < 0) throw new Error('unreachable');
  return Math.round(((performance.now() - started) * 1e6 * 10) / steps) / 10;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
