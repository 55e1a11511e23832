import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const MIGRATIONS = fileURLToPath(new URL('../db/migrations', import.meta.url));

/**
 * A copy of the migrations folder as it was before a change: up to and including the migration
 * tagged `last`. A migration's test applies it, writes the rows of that time, then migrates on.
 */
export async function migrationsUpTo(last: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'migrations-before-'));
  await cp(MIGRATIONS, dir, { recursive: true });
  const journalPath = join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalPath, 'utf8')) as { entries: { tag: string }[] };
  const index = journal.entries.findIndex((entry) => entry.tag === last);
  journal.entries = journal.entries.slice(0, index + 1);
  await writeFile(journalPath, JSON.stringify(journal));
  return dir;
}
