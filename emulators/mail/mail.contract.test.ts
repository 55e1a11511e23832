import type { FastifyInstance } from 'fastify';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../shared/start-emulator.ts';
import { createMailEmulator, type ReceivedMail } from './mail.emulator.ts';

/** The mail server as nodemailer (what the app sends with) sees it, and its inbox as the sandbox reads it. */
describe('mail emulator', () => {
  let app: FastifyInstance;
  let origin = '';
  let smtpUrl = '';
  beforeAll(async () => {
    const started = await startEmulator(
      (base) =>
        createMailEmulator({
          ...base,
          onSmtpListening: (url) => {
            smtpUrl = url;
          },
        }),
      { host: 'localhost', port: 0, logger: false },
    );
    app = started.app;
    origin = started.origin;
  });
  afterAll(() => app.close());

  const send = (to: string, subject: string) =>
    nodemailer.createTransport({ url: smtpUrl }).sendMail({
      from: 'Timeboxer <notices@timeboxer.app>',
      to,
      subject,
      text: 'Plain words',
      html: '<p>Plain words</p>',
      headers: {
        'List-Unsubscribe': '<http://localhost:3000/api/notices/off?u=1&t=abc>',
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
    });
  const inbox = async (to?: string): Promise<ReceivedMail[]> =>
    (await (await fetch(`${origin}/_emulator/messages${to ? `?to=${to}` : ''}`)).json()).messages;

  it('keeps what nodemailer sends, newest first, per recipient', async () => {
    await send('ada@example.com', 'First');
    await send('grace@example.com', 'Other');
    await send('Ada@Example.com', 'Second');
    const ada = await inbox('ada@example.com');
    expect(ada.map((mail) => mail.subject)).toEqual(['Second', 'First']);
    expect(ada[0]).toMatchObject({
      from: 'notices@timeboxer.app',
      text: 'Plain words',
      html: '<p>Plain words</p>',
      listUnsubscribe: '<http://localhost:3000/api/notices/off?u=1&t=abc>',
    });
    expect(await inbox()).toHaveLength(3);
  });

  it('refuses the next messages with a temporary error when told to, then takes them again', async () => {
    await fetch(`${origin}/_emulator/reset`, { method: 'POST' });
    await fetch(`${origin}/_emulator/refuse`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ times: 1 }),
    });
    await expect(send('ada@example.com', 'Refused')).rejects.toMatchObject({ responseCode: 451 });
    await send('ada@example.com', 'Taken');
    expect((await inbox('ada@example.com')).map((mail) => mail.subject)).toEqual(['Taken']);
  });
});
