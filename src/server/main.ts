import type { AppRole } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';

const SHUTDOWN_TIMEOUT_MS = 10_000;

/** `--role=web|worker|all` (default all): web and workers scale apart on one PostgreSQL. */
function roleFromArgs(args: string[]): AppRole {
  const value = args.find((arg) => arg.startsWith('--role='))?.slice('--role='.length) ?? 'all';
  if (value === 'web' || value === 'worker' || value === 'all') return value;
  throw new ConfigError(`Unknown role "${value}": use --role=web, --role=worker or --role=all`);
}

async function main(): Promise<void> {
  const config = loadConfig();
  const role = roleFromArgs(process.argv.slice(2));
  // The app's modules load once the configuration is known to be valid: a mistake is named at once.
  const { createApp } = await import('./app.ts');
  const app = await createApp(config, { role });
  const log = app.server.log;

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      log.error({ waitingFor: app.closingStep() }, 'shutdown timed out; exiting');
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
  if (app.metricsServer) log.info(`metrics are served at ${app.metricsServer.origin}/metrics`);

  if (role === 'worker') {
    log.info('Timeboxer sync worker is running');
    return;
  }
  const address = await app.server.listen({ host: config.host, port: config.port });
  // With PORT=0 the configured URL names port 0: providers must be told the port we really got.
  const url = new URL(config.appUrl);
  if (url.port === '0') url.port = new URL(address).port;
  await app.listening(url.origin);
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
