import { createApp } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';

/**
 * Creates the PGlite database as a first start of the app would (initdb, migrations, the job queue's
 * schema), in a process of its own. PGlite's initdb and the first migrations briefly take several
 * hundred megabytes more than the running app does; a deployment goes through that once, so the app
 * under test opens an existing database, as after any restart, and its peak memory is that of the app.
 */
const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: node bench/prepare-pglite.ts <data directory>');
const app = await createApp(
  loadConfig({
    NODE_ENV: 'development',
    LOG_LEVEL: 'silent',
    PGLITE_DATA_DIR: dataDir,
    // Any provider configured: not sandbox mode, so no emulators start here.
    GOOGLE_CLIENT_ID: 'bench',
    GOOGLE_CLIENT_SECRET: 'bench',
  }),
  { role: 'web' },
);
await app.close();
