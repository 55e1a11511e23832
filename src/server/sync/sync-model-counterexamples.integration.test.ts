import { describe, it } from 'vitest';
import { testDatabases } from '#server/test/databases.ts';
import { setUpModelApp } from '#server/test/sync-model-app.ts';
import { counterexamples } from '#server/test/sync-model-counterexamples.ts';
import { createModelHarness } from '#server/test/sync-model-harness.ts';

/**
 * What the model-based sync test (sync-convergence.integration.test.ts) found, played again as named
 * fixed sequences of its commands (src/server/test/sync-model-counterexamples.ts), on both databases,
 * with the same app, worker and settles as the property.
 */
for (const database of await testDatabases('sync model counterexamples')) {
  describe.skipIf(!database.enabled)(`the model-based test's counterexamples (${database.name})`, () => {
    const { app, runs, clock } = setUpModelApp(database);

    for (const [index, { name, plans }] of counterexamples.entries()) {
      it(name, async () => {
        // Users and titles of its own, apart from the other sequences' on the same app.
        const { play } = createModelHarness(app(), runs, `counterexample${index}`, clock);
        await Promise.all(plans.map(play));
      }, 180_000);
    }
  });
}
