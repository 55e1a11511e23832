import { readFileSync } from 'node:fs';
import { access, cp, readdir, rename, rm } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The embedded database is not created by the app's first start: creating a PGlite database (its
 * initdb and first migrations) costs several hundred megabytes more than opening one, once, and a
 * small machine would have to hold that peak in the app. `npm start` (and `npm run build`) prepare a
 * template in a process of their own (`scripts/prepare-embedded-database.ts`); a first start copies
 * it into the data directory, then opens it as after any restart, and runs the migrations newer than
 * the template. A template is made by one PGlite version and opened only by that version.
 */
export function embeddedTemplateDir(root = '.data'): string {
  return join(root, `pglite-template-${pgliteVersion()}`);
}

/** The installed PGlite's version (its package.json is not among its exports: read from its folder). */
function pgliteVersion(): string {
  const entry = fileURLToPath(import.meta.resolve('@electric-sql/pglite'));
  const folder = entry.slice(0, entry.lastIndexOf(`${sep}dist${sep}`));
  const { version } = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { version: string };
  return version;
}

const isDatabase = (dir: string) =>
  access(join(dir, 'PG_VERSION')).then(
    () => true,
    () => false,
  );

/** Nothing there yet (or an empty directory an earlier start made). */
const isEmpty = (dir: string) =>
  readdir(dir).then(
    (entries) => entries.length === 0,
    () => true,
  );

/**
 * Copies the template into `dataDir` when there is nothing there yet and a template is ready; answers
 * whether it did.
 */
export async function copyTemplateIfNew(dataDir: string, templateDir: string): Promise<boolean> {
  if (dataDir.startsWith('memory://') || !(await isEmpty(dataDir))) return false;
  if (!(await isDatabase(templateDir))) return false;
  // Copied beside it first, then renamed: a start killed mid-copy leaves no half database behind.
  const copying = `${dataDir}.copying`;
  await rm(copying, { recursive: true, force: true });
  await cp(templateDir, copying, { recursive: true });
  await rm(dataDir, { recursive: true, force: true });
  await rename(copying, dataDir);
  return true;
}

/** Whether a template is ready (for the script that makes it). */
export const templateReady = (templateDir: string) => isDatabase(templateDir);
