import type { Clock } from '../shared/clock.port.ts';

export type FakeClock = Clock & {
  /** Moves the time on by this many milliseconds. */
  advance(ms: number): void;
  set(iso: string): void;
};

/** A clock that stands still until the test moves it. */
export function fakeClock(iso = '2026-03-02T09:00:00.000Z'): FakeClock {
  let now = Date.parse(iso);
  const clock = () => new Date(now);
  return Object.assign(clock, {
    advance(ms: number) {
      now += ms;
    },
    set(next: string) {
      now = Date.parse(next);
    },
  });
}
