import nodemailer from 'nodemailer';
import type { Mailer } from '#server/domain/notices/mailer.port.ts';

/**
 * Sends through an SMTP server (`SMTP_URL`, e.g. `smtps://user:password@smtp.example.com:465`) with
 * nodemailer, over a small pool of connections. A refusal (4xx/5xx) or a connection error throws: the
 * job queue tries the mail again later.
 */
export function createSmtpMailer(options: { url: string; from: string; timeoutMs?: number }): Mailer {
  const timeout = options.timeoutMs ?? 20_000;
  const transport = nodemailer.createTransport(
    {
      url: options.url,
      pool: true,
      maxConnections: 2,
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
    },
    { from: options.from },
  );
  return {
    async send(mail) {
      await transport.sendMail({
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        headers: mail.headers,
      });
    },
    close() {
      transport.close();
    },
  };
}
