import type { App } from '#server/app.ts';
import type { SyncRunReport } from '#server/sync/worker.ts';
import type { TestDatabase } from './databases.ts';
import { setUpTestApp } from './suite-setup.ts';

/**
 * The app the model-based sync test plays against, for one `describe`: every role in one process on a
 * port (the emulators' notifications reach it), with the runs it reports for the harness's settles.
 */
export function setUpModelApp(database: TestDatabase): { app: () => App; runs: SyncRunReport[] } {
  const runs: SyncRunReport[] = [];
  const app = setUpTestApp(database, {
    env: {
      AUTH_RATE_LIMIT_PER_MINUTE: '100000',
      // A hanging provider is given up on after 2 s instead of 30.
      SYNC_PROVIDER_TIMEOUT_MS: '2000',
      // The model knows no safety brake (its own tests prove it): a sequence's deletes never trip it.
      SYNC_BRAKE_MIN_ITEMS: '100000',
    },
    overrides: { role: 'all', onSyncRun: (run) => runs.push(run) },
    listen: true,
  });
  return { app, runs };
}
