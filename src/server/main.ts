import { createApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';

const SHUTDOWN_TIMEOUT_MS = 10_000;

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await createApp(config);
  const log = app.server.log;

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      log.error('shutdown timed out; exiting');
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS);
    timer.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));

  await app.server.listen({ host: config.host, port: config.port });
  const where =
    config.database.kind === 'pglite' ? `embedded database in ${config.database.dataDir}` : 'PostgreSQL';
  const mode = config.sandbox ? 'sandbox mode: sign-in uses the local emulators' : 'live providers';
  log.info(`Timeboxer is running at ${config.appUrl} (${mode}; ${where})`);
  if (config.env !== 'production') {
    // A plain line for people, beside the structured log line for machines.
    console.log(
      `\n  Open ${config.appUrl} in your browser.${config.sandbox ? ' (sandbox: no accounts needed)' : ''}\n`,
    );
  }
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error('Timeboxer failed to start:', error);
  }
  process.exit(1);
});
