import type { App } from '#server/app.ts';
import type { SyncRunReport } from '#server/sync/worker.ts';
import type { TestDatabase } from './databases.ts';
import { setUpTestApp } from './suite-setup.ts';

/**
 * The app's clock in the model-based test: real time plus an offset the harness moves forward (a
 * refused write's back-off passes without waiting for it). Only the app's clock jumps: the emulators,
 * the queue and the harness's own waits keep real time, and every timer of the app still runs.
 */
export type ModelClock = {
  /** The app's time now, in milliseconds. */
  now(): number;
  /** Moves the app's time `ms` forward (never back). */
  advance(ms: number): void;
  /** How often it was moved forward (a back-off of another user's may have passed then). */
  jumps(): number;
  /** False for the real clock of an app elsewhere: no refusal is played (its back-off would not pass). */
  movable: boolean;
};

export function createModelClock(): ModelClock {
  let offset = 0;
  let jumps = 0;
  return {
    now: () => Date.now() + offset,
    advance(ms) {
      if (ms <= 0) return;
      offset += ms;
      jumps += 1;
    },
    jumps: () => jumps,
    movable: true,
  };
}

/** The real clock, for a harness on an app whose clock does not move (another process's). */
export const realClock: ModelClock = {
  now: () => Date.now(),
  advance: () => {},
  jumps: () => 0,
  movable: false,
};

/**
 * The app the model-based sync test plays against, for one `describe`: every role in one process on a
 * port (the emulators' notifications reach it), with the runs it reports for the harness's settles and
 * the clock the harness moves.
 */
export function setUpModelApp(database: TestDatabase): {
  app: () => App;
  runs: SyncRunReport[];
  clock: ModelClock;
} {
  const runs: SyncRunReport[] = [];
  const clock = createModelClock();
  const app = setUpTestApp(database, {
    env: {
      AUTH_RATE_LIMIT_PER_MINUTE: '100000',
      // A hanging provider is given up on after 2 s instead of 30.
      SYNC_PROVIDER_TIMEOUT_MS: '2000',
      // The model knows no safety brake (its own tests prove it): a sequence's deletes never trip it.
      SYNC_BRAKE_MIN_ITEMS: '100000',
    },
    overrides: { role: 'all', onSyncRun: (run) => runs.push(run), clock: () => new Date(clock.now()) },
    listen: true,
  });
  return { app, runs, clock };
}
