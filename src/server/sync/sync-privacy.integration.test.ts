import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { type SQL, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { integrations } from '#server/db/schema/integrations.table.ts';
import { createTokenCipher } from '#server/domain/integrations/token-cipher.ts';
import { testDatabases } from '#server/test/databases.ts';
import { setUpTestApp } from '#server/test/suite-setup.ts';
import {
  emulatorControl,
  eventually,
  graphSpan,
  microsoftSyncingUser,
  syncingUser,
  tomorrowAt,
} from '#server/test/sync-fixtures.ts';

/**
 * "Without us keeping the text of their tasks or events": canary titles and descriptions travel both
 * ways through the whole loop (webhooks, queue, worker, both calendars), then every table of every
 * schema (ours and the job queue's) and every log line at the most verbose level are searched, after the
 * activity's names (read live for the screen) were asked for too. No canary may be found, and no access or refresh token, session id or webhook secret in plain text.
 */
for (const database of await testDatabases('sync privacy')) {
  describe.skipIf(!database.enabled)(`sync keeps no text and no plain token (${database.name})`, () => {
    const logLines: string[] = [];
    const canary = `canary${randomBytes(6).toString('hex')}`;
    const app = setUpTestApp(database, {
      env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000', LOG_LEVEL: 'trace' },
      overrides: {
        role: 'all',
        logDestination: new Writable({
          write(chunk, _encoding, done) {
            logLines.push(String(chunk));
            done();
          },
        }),
      },
      listen: true,
    });

    /** Rows of a raw query; PGlite's and node-postgres' drivers both answer with `rows`. */
    const query = async <Row>(statement: SQL): Promise<Row[]> =>
      ((await app().database.db.execute(statement)) as unknown as { rows: Row[] }).rows;

    /** Every row of every table outside the system schemas, as text. */
    const dumpEveryTable = async (): Promise<string> => {
      const tables = await query<{ table_schema: string; table_name: string }>(
        sql`select table_schema, table_name from information_schema.tables
            where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`,
      );
      const names = tables.map((row) => `"${row.table_schema}"."${row.table_name}"`);
      expect(names).toEqual(expect.arrayContaining(['"public"."sync_links"', '"public"."integrations"']));
      expect(names.some((name) => name.startsWith('"pgboss'))).toBe(true);
      const dumps: string[] = [];
      for (const name of names) {
        const rows = await query<{ row: string }>(sql.raw(`select t::text as row from ${name} t`));
        dumps.push(`${name}\n${rows.map((row) => row.row).join('\n')}`);
      }
      return dumps.join('\n');
    };

    /** The plain tokens the app holds, decrypted from the integrations table. */
    const plainTokens = async (): Promise<string[]> => {
      const cipher = createTokenCipher(app().config.tokenKeys);
      const rows = await app().database.db.select().from(integrations);
      return rows.flatMap((row) =>
        [row.accessTokenEncrypted, row.refreshTokenEncrypted]
          .filter((value): value is string => value !== null)
          .map((value) => cipher.decrypt(value)),
      );
    };

    it('syncs canary titles and descriptions both ways, on Google and Microsoft', async () => {
      const google = await syncingUser(app(), 'privacy-google@example.com', { onComplete: 'checkmark' });
      const nine = tomorrowAt(9);
      const task = await google.todoist.addTask({
        content: `${canary} task title`,
        description: `${canary} task description`,
        labels: ['30min'],
        dueString: `${nine.day} at 9:00`,
      });
      await eventually(async () =>
        expect((await google.events()).map((event) => event.summary)).toEqual([`${canary} task title`]),
      );
      const four = tomorrowAt(16).instant;
      const event = await google.google.events.insert({
        calendarId: google.calendarId,
        requestBody: {
          summary: `${canary} event title`,
          description: `${canary} event description`,
          location: `${canary} event location`,
          start: { dateTime: four.toISOString() },
          end: { dateTime: new Date(four.getTime() + 60 * 60_000).toISOString() },
        },
      });
      await eventually(async () =>
        expect((await google.todoist.getTasks()).results.map((each) => each.content).sort()).toEqual([
          `${canary} event title`,
          `${canary} task title`,
        ]),
      );
      await google.todoist.updateTask(task.id, { content: `${canary} task renamed` });
      await google.google.events.patch({
        calendarId: google.calendarId,
        eventId: event.data.id ?? '',
        requestBody: { summary: `${canary} event renamed` },
      });
      await eventually(async () => {
        expect((await google.events()).map((each) => each.summary).sort()).toEqual([
          `${canary} event renamed`,
          `${canary} task renamed`,
        ]);
        expect((await google.todoist.getTasks()).results.map((each) => each.content).sort()).toEqual([
          `${canary} event renamed`,
          `${canary} task renamed`,
        ]);
      });
      await google.todoist.closeTask(task.id);
      await eventually(async () =>
        expect((await google.events()).map((each) => each.summary)).toContain(`✓ ${canary} task renamed`),
      );

      const microsoft = await microsoftSyncingUser(app(), 'privacy-microsoft@example.com');
      await microsoft.todoist.addTask({
        content: `${canary} ms task`,
        description: `${canary} ms task description`,
        labels: ['1h'],
        dueString: `${nine.day} at 9:00`,
      });
      const ten = tomorrowAt(10).instant;
      await microsoft.graph('POST', `${microsoft.calendarPath}/events`, {
        subject: `${canary} ms event`,
        body: { contentType: 'text', content: `${canary} ms event body` },
        ...graphSpan(ten, 30),
      });
      await eventually(async () => {
        expect((await microsoft.events()).map((each) => each.subject).sort()).toEqual([
          `${canary} ms event`,
          `${canary} ms task`,
        ]);
        expect((await microsoft.todoist.getTasks()).results.map((each) => each.content).sort()).toEqual([
          `${canary} ms event`,
          `${canary} ms task`,
        ]);
      });
      // Everything the worker queued has run, so nothing is still on its way to a table.
      await google.run();
      await microsoft.run();

      for (const path of ['/api/sync/activity', '/api/sync/preview', '/api/current_user']) {
        const response = await app().server.inject({ url: path, cookies: google.cookies });
        expect(response.statusCode).toBe(200);
      }
      // The activity's names are read live: the screen gets the titles, and nothing keeps them.
      for (const user of [google, microsoft]) {
        const names = await app().server.inject({ url: '/api/sync/activity/names', cookies: user.cookies });
        expect(names.statusCode).toBe(200);
        expect(names.json().unavailable).toEqual([]);
        expect(names.body).toContain(canary);
      }
      // A settings change's preview names the events it would remove, for the dialog only.
      const preview = await app().server.inject({
        url: '/api/sync/preview/change?change=removeTimebox&label=1h',
        cookies: microsoft.cookies,
      });
      expect(preview.statusCode).toBe(200);
      expect(preview.json().named.eventsRemoved.map((name: { title: string }) => name.title)).toContain(
        `${canary} ms task`,
      );

      const dump = await dumpEveryTable();
      const logs = logLines.join('');
      // The search itself works: the logs are verbose, and the dump holds the rows synced above.
      expect(logLines.length).toBeGreaterThan(100);
      expect(dump).toContain(task.id);
      expect(dump.toLowerCase()).not.toContain(canary);
      expect(logs.toLowerCase()).not.toContain(canary);

      // The secrets the providers echo on each notification: Google's channel token, Graph's clientState.
      const googleState = await emulatorControl(google.origins.google, 'state');
      const graphState = await emulatorControl(app().emulators?.microsoft.origin ?? '', 'state');
      const channelSecrets: string[] = [
        ...googleState.channels.map((channel: { token?: string }) => channel.token ?? ''),
        ...graphState.subscriptions.map(
          (subscription: { clientState?: string }) => subscription.clientState ?? '',
        ),
      ];
      expect(channelSecrets.filter(Boolean)).toHaveLength(2);
      const secrets = [...(await plainTokens()), google.cookies.sid, ...channelSecrets].filter(
        (secret) => secret.length >= 8,
      );
      // Todoist and Google access tokens, Microsoft access and refresh tokens, one session, two channels.
      expect(secrets.length).toBeGreaterThanOrEqual(7);
      for (const secret of secrets) {
        expect(dump, 'a token in a table').not.toContain(secret);
        expect(logs, 'a token in the logs').not.toContain(secret);
      }
    }, 120_000);
  });
}
