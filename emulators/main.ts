import { startEmulators } from './index.ts';

/**
 * Standalone runner: `node emulators/main.ts` (ports from GOOGLE_EMULATOR_PORT / FACEBOOK_EMULATOR_PORT …,
 * the Todoist webhooks' retry spacing from TODOIST_WEBHOOK_RETRY_SECONDS).
 */
function portFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`${name} must be a port number, got ${raw}`);
  }
  return port;
}

/** Seconds from the environment (fractions allowed), or `undefined` for the emulator's default. */
function secondsFromEnv(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return undefined;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds < 0) {
    throw new Error(`${name} must be a number of seconds, got ${raw}`);
  }
  return seconds;
}

const emulators = await startEmulators({
  ports: {
    google: portFromEnv('GOOGLE_EMULATOR_PORT', 4101),
    facebook: portFromEnv('FACEBOOK_EMULATOR_PORT', 4102),
    todoist: portFromEnv('TODOIST_EMULATOR_PORT', 4103),
    googleCalendar: portFromEnv('GOOGLE_CALENDAR_EMULATOR_PORT', 4104),
    microsoft: portFromEnv('MICROSOFT_EMULATOR_PORT', 4105),
    stripe: portFromEnv('STRIPE_EMULATOR_PORT', 4106),
    mail: portFromEnv('MAIL_EMULATOR_PORT', 4107),
    smtp: portFromEnv('SMTP_EMULATOR_PORT', 2525),
  },
  // Todoist waits 15 minutes before retrying a failed webhook; a developer may want it sooner.
  todoistWebhookRetrySeconds: secondsFromEnv('TODOIST_WEBHOOK_RETRY_SECONDS'),
  logger: false,
});

const { google, facebook, todoist, googleCalendar, microsoft, stripe, mail } = emulators;
console.log(
  `Google identity emulator  issuer ${google.issuer}  (client ${google.clientId} / ${google.clientSecret})`,
);
console.log(`                          state  ${google.origin}/_emulator/state`);
console.log(`Facebook Login emulator   dialog ${facebook.dialogUrl}`);
console.log(
  `                          graph  ${facebook.graphUrl}  (app ${facebook.appId} / ${facebook.appSecret})`,
);
console.log(`                          state  ${facebook.origin}/_emulator/state`);
console.log(`Todoist emulator          api    ${todoist.origin}/api/v1  (client ${todoist.clientId})`);
console.log(`                          state  ${todoist.origin}/_emulator/state`);
console.log(`Google Calendar emulator  api    ${googleCalendar.apiRootUrl}calendar/v3`);
console.log(`                          state  ${googleCalendar.origin}/_emulator/state`);
console.log(
  `Microsoft 365 emulator    graph  ${microsoft.graphBaseUrl}/v1.0  (HTTPS; CA ${microsoft.caPath})`,
);
console.log(`                          state  ${microsoft.origin}/_emulator/state`);
console.log(`Stripe emulator           api    ${stripe.origin}/v1  (key ${stripe.secretKey})`);
console.log(`                          state  ${stripe.origin}/_emulator/state`);
console.log(`Mail server               smtp   ${mail.smtpUrl}`);
console.log(`                          inbox  ${mail.origin}/_emulator/messages`);

let stopping = false;
const stop = async (signal: NodeJS.Signals) => {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: stopping the emulators`);
  await emulators.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
