/**
 * Soaks the sync in the model-based convergence test: `npm run test:sync-soak -- [sequences] [seed]`
 * (default 2000 sequences, a random seed; PGlite, and PostgreSQL when one is reachable). Prints the
 * seed first, so a failing soak can be replayed with the same arguments; a failure ends with the line
 * that replays its shrunk counterexample alone (SYNC_MODEL_SEED, SYNC_MODEL_PATH, SYNC_MODEL_REPLAY).
 */
import { spawnSync } from 'node:child_process';

const PARALLEL = 4;
const [countArgument, seedArgument] = process.argv.slice(2);
const sequences = Number(countArgument ?? 2000);
const seed = Number(seedArgument ?? Math.floor(Math.random() * 2 ** 31));
if (!Number.isInteger(sequences) || sequences < 1 || !Number.isInteger(seed)) {
  console.error('usage: npm run test:sync-soak -- [sequences] [seed]');
  process.exit(2);
}
const runs = Math.ceil(sequences / PARALLEL);
console.log(`sync soak: ${runs * PARALLEL} sequences per database, seed ${seed}`);
const result = spawnSync('npx', ['vitest', 'run', 'src/server/sync/sync-convergence.integration.test.ts'], {
  stdio: 'inherit',
  env: { ...process.env, SYNC_MODEL_RUNS: String(runs), SYNC_MODEL_SEED: String(seed) },
});
process.exit(result.status ?? 1);
