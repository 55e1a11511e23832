import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copyTemplateIfNew, embeddedTemplateDir } from './embedded-template.ts';

describe('the embedded database template', () => {
  let root: string;
  let template: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'template-'));
    template = join(root, 'template');
    await mkdir(join(template, 'base'), { recursive: true });
    await writeFile(join(template, 'PG_VERSION'), '17\n');
    await writeFile(join(template, 'base', 'data'), 'tables');
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('is copied into a data directory that does not exist yet, or is empty', async () => {
    const fresh = join(root, 'fresh');
    expect(await copyTemplateIfNew(fresh, template)).toBe(true);
    expect(await readFile(join(fresh, 'base', 'data'), 'utf8')).toBe('tables');
    const empty = join(root, 'empty');
    await mkdir(empty);
    expect(await copyTemplateIfNew(empty, template)).toBe(true);
    expect(await readFile(join(empty, 'PG_VERSION'), 'utf8')).toBe('17\n');
    // Nothing is left beside them.
    expect((await readdir(root)).sort()).toEqual(['empty', 'fresh', 'template']);
  });

  it('never touches a data directory that holds anything, nor copies a template not ready', async () => {
    const used = join(root, 'used');
    await mkdir(used);
    await writeFile(join(used, 'PG_VERSION'), '17\n');
    await writeFile(join(used, 'mine'), 'the user’s data');
    expect(await copyTemplateIfNew(used, template)).toBe(false);
    expect((await readdir(used)).sort()).toEqual(['PG_VERSION', 'mine']);

    await rm(join(template, 'PG_VERSION'));
    expect(await copyTemplateIfNew(join(root, 'other'), template)).toBe(false);
    expect(await copyTemplateIfNew('memory://', template)).toBe(false);
  });

  it('is kept per PGlite version', () => {
    expect(embeddedTemplateDir('/data')).toMatch(/^\/data\/pglite-template-\d+\.\d+\.\d+$/);
  });
});
