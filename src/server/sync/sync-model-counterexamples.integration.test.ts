import { describe, it } from 'vitest';
import type { SyncRunReport } from '#server/sync/worker.ts';
import { testDatabases } from '#server/test/databases.ts';
import { setUpTestApp } from '#server/test/suite-setup.ts';
import { counterexamples } from '#server/test/sync-model-counterexamples.ts';
import { createModelHarness } from '#server/test/sync-model-harness.ts';

/**
 * What the model-based sync test (sync-convergence.integration.test.ts) found, played again as named
 * fixed sequences of its commands (src/server/test/sync-model-counterexamples.ts), on both databases,
 * with the same app, worker and settles as the property.
 */
for (const database of await testDatabases('sync model counterexamples')) {
  describe.skipIf(!database.enabled)(`the model-based test's counterexamples (${database.name})`, () => {
    const runs: SyncRunReport[] = [];
    const app = setUpTestApp(database, {
      env: {
        AUTH_RATE_LIMIT_PER_MINUTE: '100000',
        SYNC_PROVIDER_TIMEOUT_MS: '2000',
        SYNC_BRAKE_MIN_ITEMS: '100000',
      },
      overrides: { role: 'all', onSyncRun: (run) => runs.push(run) },
      listen: true,
    });

    for (const [index, { name, plans }] of counterexamples.entries()) {
      it(name, async () => {
        // Users and titles of its own, apart from the other sequences' on the same app.
        const { play } = createModelHarness(app(), runs, `counterexample${index}`);
        await Promise.all(plans.map(play));
      }, 180_000);
    }
  });
}
