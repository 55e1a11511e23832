import { Counter } from 'prom-client';

/**
 * Mails handed to the SMTP server, and mails it refused or never took. One counter for the process,
 * registered in the app's registry by `createMetrics`, so the mail sender needs nothing injected: it
 * calls `countMail` once per mail, after the attempt.
 */
export const mailsCounter = new Counter({
  name: 'timeboxer_mails_total',
  help: 'Mails sent (accepted by the SMTP server) and failed, by outcome.',
  labelNames: ['outcome'] as const,
  registers: [],
});
mailsCounter.inc({ outcome: 'sent' }, 0);
mailsCounter.inc({ outcome: 'failed' }, 0);

export function countMail(outcome: 'sent' | 'failed'): void {
  mailsCounter.inc({ outcome });
}
