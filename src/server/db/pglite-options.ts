import { PGlite, type PGliteOptions } from '@electric-sql/pglite';

/**
 * How the app opens the embedded database (scripts/measure-embedded-memory.ts opens it the same way).
 * PGlite touches the whole of PostgreSQL's buffer pool when it starts, so its default (128 MB) is that
 * much resident for good: 32 MB still holds a small install's database whole (the template is 23 MB
 * with PostgreSQL's own catalogs), and pages beyond it are read again from the files (docs/performance.md,
 * the embedded default's memory).
 */
export function embeddedPgliteOptions(): PGliteOptions {
  return { startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'] };
}
