import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { SMTPServer } from 'smtp-server';
import { z } from 'zod';
import type { EmulatorFactoryOptions } from '../shared/emulator-options.ts';

/**
 * A mail server that keeps every message it receives, for the sandbox's inbox panel and the tests: SMTP
 * on a port of its own (no TLS, any or no login, as a local relay), and an HTTP origin for the inbox.
 * `POST /_emulator/refuse` makes the next messages fail with a temporary error (451), as a mail server
 * that is down or throttling would: a sender must try again later, and nothing may be lost or doubled.
 */
export type ReceivedMail = {
  id: number;
  receivedAt: string;
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string | null;
  /** The `List-Unsubscribe` header, when the message has one. */
  listUnsubscribe: string | null;
  messageId: string | null;
};

export type MailEmulatorOptions = EmulatorFactoryOptions & {
  /** Interface the SMTP server listens on; default `localhost`. */
  smtpHost?: string;
  /** 0 or absent = an ephemeral port. */
  smtpPort?: number;
  /** Told the SMTP server's URL once it listens. */
  onSmtpListening?: (url: string) => void;
};

const MAX_KEPT = 500;

export async function createMailEmulator(options: MailEmulatorOptions): Promise<FastifyInstance> {
  const inbox: ReceivedMail[] = [];
  let nextId = 1;
  let refusals = 0;

  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    size: 1024 * 1024,
    onAuth: (_auth, _session, callback) => callback(null, { user: 'sandbox' }),
    onData(stream, session, callback) {
      if (refusals > 0) {
        refusals -= 1;
        stream.resume();
        stream.on('end', () =>
          callback(Object.assign(new Error('Mail server busy, try again later'), { responseCode: 451 })),
        );
        return;
      }
      // mailparser (with what it imports, about 5 MB of heap) is loaded at the first mail, not at start.
      import('mailparser')
        .then(({ simpleParser }) => simpleParser(stream))
        .then((parsed) => {
          // mailparser gathers the List-* headers under `list`: { unsubscribe: { url } }.
          const header = (parsed.headers.get('list') as { unsubscribe?: unknown } | undefined)?.unsubscribe;
          inbox.unshift({
            id: nextId++,
            receivedAt: new Date().toISOString(),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : null,
            listUnsubscribe: listUnsubscribeOf(header),
            messageId: parsed.messageId ?? null,
          });
          inbox.splice(MAX_KEPT);
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve, reject) => {
    smtp.once('error', reject);
    smtp.listen(options.smtpPort ?? 0, options.smtpHost ?? 'localhost', () => resolve());
  });
  const { port } = smtp.server.address() as AddressInfo;
  options.onSmtpListening?.(`smtp://${options.smtpHost ?? 'localhost'}:${port}`);

  const app = Fastify({ logger: options.logger ?? false, forceCloseConnections: true });
  app.addHook('onClose', () => new Promise<void>((resolve) => smtp.close(() => resolve())));

  app.get('/_emulator/messages', async (request) => {
    const { to } = z.object({ to: z.string().optional() }).parse(request.query);
    const wanted = to?.toLowerCase();
    return {
      messages: wanted
        ? inbox.filter((mail) => mail.to.some((address) => address.toLowerCase() === wanted))
        : inbox,
    };
  });
  app.delete('/_emulator/messages', async () => {
    inbox.length = 0;
    return { cleared: true };
  });
  app.post('/_emulator/refuse', async (request) => {
    ({ times: refusals } = z.object({ times: z.number().int().min(0).max(100) }).parse(request.body));
    return { refusing: refusals };
  });
  app.post('/_emulator/reset', async () => {
    inbox.length = 0;
    refusals = 0;
    return { reset: true };
  });
  return app;
}

function listUnsubscribeOf(header: unknown): string | null {
  if (header && typeof header === 'object' && 'url' in header) {
    const url = (header as { url?: unknown }).url;
    if (typeof url === 'string') return `<${url}>`;
  }
  return null;
}
