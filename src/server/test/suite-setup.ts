import { relative } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import type { App, AppOverrides } from '#server/app.ts';
import { type Database, type DatabaseTarget, openDatabase } from '#server/db/client.ts';
import { applyMigrations } from '#server/db/migrations.ts';
import type { TestDatabase } from './databases.ts';
import { createTestApp } from './test-app.ts';

type CreatedDatabase = Awaited<ReturnType<TestDatabase['create']>>;

/** Something a suite opens and closes: an app (which says what its close waits for) or a database. */
type Closable = { close(): Promise<unknown>; closingStep?(): string | null };

/** A teardown still running after this long says, in the log, what it waits for. */
const TEARDOWN_REPORT_AFTER_MS = 20_000;
/** A close still running after this long is cut short: the database is dropped with force. */
const TEARDOWN_FORCE_AFTER_MS = 60_000;
/** The teardown hook's own limit, beyond the two above. */
const TEARDOWN_TIMEOUT_MS = 120_000;

const settlesWithin = (promise: Promise<unknown>, ms: number): Promise<boolean> => {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  return Promise.race([promise.then(() => true), late]).finally(() => clearTimeout(timer));
};

/**
 * Closes what a suite opened, then drops its database. A close that overruns is named in the log (the
 * step it waits for, the database's connections, the process's open handles) and, past a minute, its
 * database is dropped with force, which ends the connections a stuck statement or pool waits on.
 */
async function tearDown(
  suite: string,
  opened: Closable | undefined,
  created: CreatedDatabase | undefined,
): Promise<void> {
  const closing = opened?.close() ?? Promise.resolve();
  let dropped = false;
  if (!(await settlesWithin(closing, TEARDOWN_REPORT_AFTER_MS))) {
    const connections = await created?.activity().catch((error: unknown) => String(error));
    console.error(
      `[teardown] ${suite}: closing for ${TEARDOWN_REPORT_AFTER_MS / 1000} s, waiting for ` +
        `${opened?.closingStep?.() ?? 'its close'}; connections: ${connections}; ` +
        `open handles: ${process.getActiveResourcesInfo().join(', ')}`,
    );
    if (!(await settlesWithin(closing, TEARDOWN_FORCE_AFTER_MS - TEARDOWN_REPORT_AFTER_MS))) {
      console.error(`[teardown] ${suite}: still closing; its database is dropped with force`);
      await created?.cleanup();
      dropped = true;
    }
  }
  await closing;
  if (!dropped) await created?.cleanup();
}

/**
 * What one `describe` works on, opened on a new, empty `database` before its tests (unless that
 * database is not enabled here), closed after them and the database dropped. Returns a getter, since
 * it exists only once the suite has started.
 */
function setUpOnNewDatabase<T extends Closable>(
  database: TestDatabase,
  open: (target: DatabaseTarget) => Promise<T>,
): () => T {
  let opened: T | undefined;
  let created: CreatedDatabase | undefined;

  beforeAll(async () => {
    if (!database.enabled) return;
    created = await database.create();
    opened = await open(created.target);
  });
  afterAll(async () => {
    const file = relative(process.cwd(), expect.getState().testPath ?? 'a suite');
    await tearDown(`${file} (${database.name})`, opened, created);
  }, TEARDOWN_TIMEOUT_MS);

  return () => {
    if (!opened) throw new Error('opened in beforeAll, on an enabled database only');
    return opened;
  };
}

/** The test app, for one `describe` (see above); `listen` puts it on a port, for the emulators' notifications. */
export function setUpTestApp(
  database: TestDatabase,
  options: { env?: Record<string, string>; overrides?: AppOverrides; listen?: boolean } = {},
): () => App {
  return setUpOnNewDatabase(database, async (target) => {
    const app = await createTestApp({ database: target, env: options.env, overrides: options.overrides });
    if (options.listen) {
      const address = await app.server.listen({ host: 'localhost', port: 0 });
      await app.listening(address.replace('127.0.0.1', 'localhost'));
    }
    return app;
  });
}

/** The database itself with every migration applied, for one `describe` (see above). */
export function setUpMigratedDatabase(database: TestDatabase): () => Database {
  return setUpOnNewDatabase(database, async (target) => {
    // The scratch database is dropped with force at the end, which cuts idle connections.
    const opened = await openDatabase(target, () => {});
    await applyMigrations(opened);
    return opened;
  });
}
