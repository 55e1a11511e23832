import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'emulators/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
    // Budgets for a machine busy with other work too (a test waits on emulators, timers and the
    // database, which all slow down together), never a measure of speed: no test asserts a duration.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // The migrated PGlite database every PGlite suite starts from, made once per run.
    globalSetup: ['src/server/test/pglite-dump.global-setup.ts'],
    setupFiles: ['src/server/test/fast-check.setup.ts'],
    pool: 'forks',
    // A worker evaluates the modules its files share once, not once per file: about 40% of the suite's
    // CPU. Files must leave nothing behind (stubs, fake timers and env are undone in their hooks; a
    // process-wide trust in a certificate is harmless, as each CA has a name of its own).
    isolate: false,
    // Most files wait on emulators, timers and the database rather than the CPU: at least three run at
    // once, also on a 2-core machine (where the default would be one).
    maxWorkers: Math.max(3, availableParallelism() - 1),
  },
});
