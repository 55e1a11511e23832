/**
 * A sync worker in a process of its own, for crash tests: `node src/server/test/worker-process.ts`
 * with the app's whole configuration as JSON in WORKER_CONFIG (providers pointing at a test's
 * emulators, the test's PostgreSQL). Writes one JSON line per ended sync run to stdout, and
 * `{"ready":true}` once it takes jobs.
 */
import { createApp } from '#server/app.ts';
import type { Config } from '#server/config.ts';

const config = JSON.parse(process.env.WORKER_CONFIG ?? '', (_key, value) =>
  value && value.type === 'Buffer' && Array.isArray(value.data) ? Buffer.from(value.data) : value,
) as Config;

const app = await createApp(
  { ...config, sandbox: false },
  {
    role: 'worker',
    onSyncRun: (run) => process.stdout.write(`${JSON.stringify({ run })}\n`),
  },
);
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
process.once('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
