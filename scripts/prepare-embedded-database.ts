import { rename, rm } from 'node:fs/promises';
import { createApp } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';
import { embeddedTemplateDir, templateReady } from '#server/db/embedded-template.ts';

/**
 * Prepares the embedded database's template (see src/server/db/embedded-template.ts), in a process of
 * its own, as `npm start` and `npm run build` do before the app starts: created as a first start of
 * the app would create it (initdb, migrations, the job queue's schema), once per PGlite version.
 */
const templateDir = embeddedTemplateDir();
if (await templateReady(templateDir)) process.exit(0);
const building = `${templateDir}.building`;
await rm(building, { recursive: true, force: true });
const app = await createApp(
  loadConfig({
    NODE_ENV: 'development',
    LOG_LEVEL: 'silent',
    PGLITE_DATA_DIR: building,
    // Any provider configured: not sandbox mode, so no emulators start here.
    GOOGLE_CLIENT_ID: 'template',
    GOOGLE_CLIENT_SECRET: 'template',
  }),
  { role: 'web' },
);
await app.close();
await rename(building, templateDir);
console.log(`embedded database template prepared in ${templateDir}`);
