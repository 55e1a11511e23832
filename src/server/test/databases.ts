import type { DatabaseTarget } from '#server/db/client.ts';
import { migratedPgliteDump } from './pglite-dump.ts';
import { createScratchDatabase, postgresTestsEnabled } from './postgres.ts';

export type TestDatabase = {
  name: 'PGlite' | 'PostgreSQL';
  enabled: boolean;
  /** A new empty database; call cleanup when done. */
  create(): Promise<{
    target: DatabaseTarget;
    cleanup(): Promise<void>;
    /** What the database's connections are doing now (a server's; embedded: nothing to say). */
    activity(): Promise<string>;
  }>;
};

/** Both databases the product supports, for `describe.each`-style integration suites. */
export async function testDatabases(suite: string): Promise<TestDatabase[]> {
  return [
    {
      name: 'PGlite',
      enabled: true,
      // Every migration applied already: started from the run's dump (pglite-dump.ts).
      create: async () => ({
        target: { kind: 'pglite', dataDir: 'memory://', loadDataDir: await migratedPgliteDump() },
        cleanup: async () => {},
        activity: async () => 'embedded, on its own thread in this process',
      }),
    },
    {
      name: 'PostgreSQL',
      enabled: await postgresTestsEnabled(suite),
      create: async () => {
        const scratch = await createScratchDatabase();
        return {
          target: { kind: 'postgres', url: scratch.url },
          cleanup: scratch.drop,
          activity: scratch.activity,
        };
      },
    },
  ];
}
