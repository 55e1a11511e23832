import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { writeMigratedPgliteDump } from './pglite-dump.ts';

/** Once per test run: the migrated PGlite dump every PGlite suite starts from (pglite-dump.ts). */
export default async function setup(project: TestProject) {
  const folder = await mkdtemp(join(tmpdir(), 'timeboxer-pglite-'));
  const path = join(folder, 'migrated.tar');
  await writeMigratedPgliteDump(path);
  project.provide('pgliteDumpPath', path);
  return async () => {
    await rm(folder, { recursive: true, force: true });
  };
}
