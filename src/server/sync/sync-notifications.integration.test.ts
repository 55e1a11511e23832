import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { todoSettings } from '#server/db/schema/settings.tables.ts';
import {
  syncActivity,
  syncHints,
  syncLinks,
  syncProblems,
  syncStates,
} from '#server/db/schema/sync.tables.ts';
import { testDatabases } from '#server/test/databases.ts';
import { connectThroughEmulator } from '#server/test/sign-in.ts';
import { setUpTestApp } from '#server/test/suite-setup.ts';
import {
  emulatorControl,
  eventually,
  googleSpan,
  SYNCING_USERS,
  syncingUser,
  tomorrowAt,
} from '#server/test/sync-fixtures.ts';
import { SYNC_PATHS } from '#shared/api/sync.schema.ts';
import {
  FRESH_PREVIEWS_PER_MINUTE,
  PREVIEW_CALENDAR_GONE,
  PREVIEWS_TOO_FREQUENT,
} from './inbound/preview-reads.ts';

/**
 * The whole loop as in the sandbox: the app listens, registers its receiving URLs with the emulators,
 * and a change made in Todoist or Google Calendar reaches the other side by notification, queue and
 * worker, with nobody calling the engine.
 */
for (const database of await testDatabases('sync by notification')) {
  describe.skipIf(!database.enabled)(`sync by notification (${database.name})`, () => {
    const app = setUpTestApp(database, {
      env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000' },
      overrides: { role: 'all' },
      listen: true,
    });

    const channelOf = async (userId: string) => {
      const [state] = await app().database.db.select().from(syncStates).where(eq(syncStates.userId, userId));
      return state;
    };
    /** Posts `body` as Todoist posts a webhook: signed with the app's client secret unless `signature` is given. */
    const todoistWebhook = (body: string, signature?: string) =>
      app().server.inject({
        method: 'POST',
        url: SYNC_PATHS.todoistWebhook,
        headers: {
          'content-type': 'application/json',
          'x-todoist-hmac-sha256':
            signature ??
            createHmac('sha256', app().emulators?.todoist.clientSecret ?? '')
              .update(body)
              .digest('base64'),
        },
        payload: body,
      });
    /** Posts a Google Calendar push that something changed, on the channel the headers name. */
    const googlePush = (headers: Record<string, string>) =>
      app().server.inject({
        method: 'POST',
        url: SYNC_PATHS.googleWebhook,
        headers: { 'x-goog-resource-state': 'exists', ...headers },
      });

    for (const [provider, syncingUserOn] of Object.entries(SYNCING_USERS)) {
      it(`puts a task added in Todoist on the calendar by itself, and moves the task when the event moves (${provider})`, async () => {
        const user = await syncingUserOn(app(), `notified-${provider}@example.com`);
        // Switching sync on queued the first run, which opened a push channel (Google) or a Graph
        // subscription (Microsoft) on the calendar.
        await eventually(async () => expect((await channelOf(user.userId))?.channelId).toBeTruthy());
        const task = await user.addTask('Arrives by webhook', tomorrowAt(9).day, 9, ['30min']);
        await eventually(async () => expect(await user.eventTitles()).toEqual(['Arrives by webhook']));

        const [event] = await user.events();
        await user.moveEvent(event?.id, tomorrowAt(15).instant, 30);
        await eventually(async () =>
          expect((await user.todoist.getTask(task.id)).due?.date).toContain('T15:00'),
        );
        expect((await user.events()).length).toBe(1);
      });
    }

    it('marks a completed occurrence of a recurring task and gives the next occurrence its own event', async () => {
      const user = await syncingUser(app(), 'recurring@example.com', { onComplete: 'checkmark' });
      await eventually(async () => expect((await channelOf(user.userId))?.channelId).toBeTruthy());
      const task = await user.todoist.addTask({
        content: 'Stand-up',
        labels: ['30min'],
        dueString: 'every day at 9am',
      });
      await eventually(async () => expect((await user.events()).length).toBe(1));
      const [first] = await user.events();
      // Completing an occurrence early (before it starts) is still a completion: Todoist's webhook says so.
      await user.todoist.closeTask(task.id);
      await eventually(async () => {
        const events = await user.events();
        expect(events.map((event) => event.summary).sort()).toEqual(['Stand-up', '✓ Stand-up']);
      });
      const events = await user.events();
      const done = events.find((event) => event.id === first?.id);
      const next = events.find((event) => event.id !== first?.id);
      expect(done?.summary).toBe('✓ Stand-up');
      expect(done?.start?.dateTime).toBe(first?.start?.dateTime);
      expect(
        new Date(next?.start?.dateTime ?? '').getTime() - new Date(first?.start?.dateTime ?? '').getTime(),
      ).toBe(24 * 3600_000);
    });

    it('heals a lost notification with the periodic reconcile', async () => {
      const user = await syncingUser(app(), 'lost-webhook@example.com');
      await eventually(async () => expect((await channelOf(user.userId))?.lastRunAt).toBeTruthy());
      await emulatorControl(user.origins.todoist, 'notifications/faults', { mode: 'drop' });
      try {
        await user.addTask('Nobody told us', tomorrowAt(0).day, 8, ['1h']);
        await new Promise((resolve) => setTimeout(resolve, 2000));
        expect(await user.events()).toEqual([]);
        await app().sync.queue.reconcileNow();
        await eventually(async () =>
          expect((await user.events()).map((event) => event.summary)).toEqual(['Nobody told us']),
        );
      } finally {
        await fetch(`${user.origins.todoist}/_emulator/notifications/faults`, { method: 'DELETE' });
      }
    });

    it('refuses notifications it cannot verify, and ignores another user’s channel with a wrong token', async () => {
      const user = await syncingUser(app(), 'verify@example.com');
      await eventually(async () => expect((await channelOf(user.userId))?.channelId).toBeTruthy());
      const channel = await channelOf(user.userId);
      const body = JSON.stringify({ event_name: 'item:added', user_id: '1', event_data: {} });

      const unsigned = await todoistWebhook(body, 'bm90IGEgc2lnbmF0dXJl');
      expect(unsigned.statusCode).toBe(403);

      const signed = await todoistWebhook(body);
      expect(signed.statusCode).toBe(200);
      expect(signed.json()).toEqual({ outcome: 'ignored' });

      expect(
        (await googlePush({ 'x-goog-channel-id': 'not-ours', 'x-goog-channel-token': 'x' })).statusCode,
      ).toBe(403);
      const stolen = await googlePush({
        'x-goog-channel-id': channel?.channelId ?? '',
        'x-goog-channel-token': 'guessed',
      });
      expect(stolen.statusCode).toBe(403);
    });

    it('acknowledges and syncs every valid webhook while malformed notifications flood beside it', async () => {
      const user = await syncingUser(app(), 'flooded@example.com');
      await eventually(async () => expect((await channelOf(user.userId))?.channelId).toBeTruthy());
      const [settings] = await app()
        .database.db.select({ todoistUserId: todoSettings.todoistUserId })
        .from(todoSettings)
        .where(eq(todoSettings.userId, user.userId));
      const todoistHook = () =>
        todoistWebhook(
          JSON.stringify({ event_name: 'item:added', user_id: settings?.todoistUserId, event_data: {} }),
        );
      const malformed = (index: number) =>
        app().server.inject({
          method: 'POST',
          url: index % 2 === 0 ? SYNC_PATHS.microsoftWebhook : SYNC_PATHS.microsoftLifecycle,
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify({
            value: [{ subscriptionId: index % 3 === 0 ? '\u0000' : `sub-\ud800-${index}`, clientState: 'x' }],
          }),
        });
      const googleWithNul = () =>
        googlePush({ 'x-goog-channel-id': 'a\u0001b', 'x-goog-channel-token': 'x' });

      const due = tomorrowAt(11);
      const [answers, task] = await Promise.all([
        Promise.all(
          Array.from({ length: 40 }, (_, index) =>
            index % 4 === 0 ? todoistHook() : index % 4 === 3 ? googleWithNul() : malformed(index),
          ),
        ),
        user.addTask('Synced through the flood', due.day, 11, ['30min']),
      ]);

      const valid = answers.filter((_, index) => index % 4 === 0);
      expect(valid.map((answer) => [answer.statusCode, answer.json()])).toEqual(
        valid.map(() => [200, { outcome: 'queued' }]),
      );
      const refused = answers.filter((_, index) => index % 4 !== 0).map((answer) => answer.statusCode);
      expect(new Set(refused)).toEqual(new Set([400]));
      await eventually(async () =>
        expect((await user.events()).map((event) => event.summary)).toEqual(['Synced through the flood']),
      );
      expect(task.id).toBeTruthy();
    });

    it('previews what switching on would do, counted by the engine’s own rules', async () => {
      const user = await syncingUser(app(), 'preview@example.com');
      // Let the run that switching on started finish, so nothing syncs behind the preview's back.
      await eventually(async () => expect((await channelOf(user.userId))?.lastRunAt).toBeTruthy());
      await user.send('PATCH', '/api/settings/onsyncactive', { setting: false });
      await user.addTask('In scope', tomorrowAt(0).day, 9, ['30min']);
      await user.addTask('No label', tomorrowAt(0).day, 10);
      const start = tomorrowAt(12).instant;
      await user.google.events.insert({
        calendarId: user.calendarId,
        requestBody: { summary: 'Lunch', ...googleSpan(start, 60) },
      });
      const response = await app().server.inject({ url: SYNC_PATHS.preview, cookies: user.cookies });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        calendar: { id: user.calendarId, name: user.calendarId },
        tasksToEvents: 1,
        eventsToTasks: 1,
        mainCalendarWithDefault: true,
        // What they are, by title and time, read for this answer.
        named: {
          tasksToEvents: [expect.objectContaining({ title: 'In scope' })],
          eventsToTasks: [{ title: 'Lunch', when: { kind: 'instant', start: start.toISOString() } }],
        },
      });
      // Only reads: nothing was written on either side.
      expect(await user.events()).toHaveLength(1);
      expect((await user.todoist.getTasks()).results).toHaveLength(2);

      // Asked again and again (a dialog opened many times), the recent reads answer: the same counts.
      const again = await Promise.all(
        Array.from({ length: 20 }, () =>
          app().server.inject({ url: SYNC_PATHS.preview, cookies: user.cookies }),
        ),
      );
      expect(new Set(again.map((answer) => `${answer.statusCode} ${answer.body}`))).toEqual(
        new Set([`200 ${response.body}`]),
      );
      // Each calendar never read before is a fresh preview: a calendar that is not the user's is a 404 in
      // our words, and past the per-minute limit the answer is a 429 that says when to try again.
      const previewCalendar = (calendarId: string) =>
        app().server.inject({
          url: `${SYNC_PATHS.previewChange}?change=calendar&calendarId=${encodeURIComponent(calendarId)}`,
          cookies: user.cookies,
        });
      // The switch-on preview above was the first fresh one of this minute (on a busy machine the burst
      // may have outlived the reuse window and read once more, so the limit may come one sooner; had a minute
      // passed since, one later): ask for fresh ones until refused.
      const fresh = [];
      let refused: Awaited<ReturnType<typeof previewCalendar>> | undefined;
      for (let index = 1; index <= FRESH_PREVIEWS_PER_MINUTE + 1 && !refused; index += 1) {
        const answer = await previewCalendar(`someone-else-${index}@example.com`);
        if (answer.statusCode === 429) refused = answer;
        else fresh.push(answer);
      }
      expect(fresh.length).toBeGreaterThanOrEqual(FRESH_PREVIEWS_PER_MINUTE - 2);
      expect(fresh.map((answer) => [answer.statusCode, answer.json().message])).toEqual(
        fresh.map(() => [404, PREVIEW_CALENDAR_GONE]),
      );
      if (!refused) throw new Error(`no 429 after ${fresh.length} fresh previews`);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ error: 'too_many_requests', message: PREVIEWS_TOO_FREQUENT });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    });

    it('stops the channel and revokes nothing else when the calendar integration is removed', async () => {
      const user = await syncingUser(app(), 'remove-calendar@example.com');
      await eventually(async () => expect((await channelOf(user.userId))?.channelId).toBeTruthy());
      const channelId = (await channelOf(user.userId))?.channelId;
      const removed = await app().server.inject({
        url: '/auth/google/calendar/revoke',
        cookies: user.cookies,
        headers: { 'sec-fetch-site': 'same-origin' },
      });
      expect(removed.statusCode).toBe(200);
      const { channels } = await emulatorControl(user.origins.google, 'state');
      expect(channels.find((entry: { id: string }) => entry.id === channelId)?.live).toBe(false);
      expect((await channelOf(user.userId))?.channelId).toBeNull();
    });

    it('stops the channel when the sync moves to an added account, and when the sync’s account is removed by its id', async () => {
      for (const how of ['sync with another', 'remove'] as const) {
        const email = `channel-${how.replaceAll(' ', '-')}@example.com`;
        const user = await syncingUser(app(), email);
        await eventually(async () => expect((await channelOf(user.userId))?.channelId).toBeTruthy());
        const channelId = (await channelOf(user.userId))?.channelId;
        await connectThroughEmulator(
          app().server,
          'microsoft',
          { email: email.replace('@', '.work@'), another: true },
          user.cookies,
        );
        const [sync, added] = (await user.send('GET', '/api/current_user')).calendarSettings.accounts;
        if (how === 'remove') await user.send('DELETE', `/api/calendar/accounts/${sync.id}`);
        else await user.send('POST', `/api/calendar/accounts/${added.id}/sync`, {});
        const { channels } = await emulatorControl(user.origins.google, 'state');
        expect(channels.find((entry: { id: string }) => entry.id === channelId)?.live).toBe(false);
        expect((await channelOf(user.userId))?.channelId).toBeNull();
      }
    });

    it('deletes every sync row and stops the channel when the account is deleted', async () => {
      const user = await syncingUser(app(), 'delete-account@example.com');
      await user.addTask('Soon gone', tomorrowAt(0).day, 9, ['30min']);
      await eventually(async () => expect(await user.events()).toHaveLength(1));
      const channelId = (await channelOf(user.userId))?.channelId;
      const deleted = await app().server.inject({
        url: '/api/delete/user',
        cookies: user.cookies,
        headers: { 'sec-fetch-site': 'same-origin' },
      });
      expect(deleted.statusCode).toBeLessThan(400);
      for (const table of [syncStates, syncLinks, syncActivity, syncHints, syncProblems]) {
        const rows = await app().database.db.select().from(table).where(eq(table.userId, user.userId));
        expect(rows).toEqual([]);
      }
      const { channels } = await emulatorControl(user.origins.google, 'state');
      expect(channels.find((entry: { id: string }) => entry.id === channelId)?.live).toBe(false);
    });

    it('stops the push channel when sync is switched off', async () => {
      const user = await syncingUser(app(), 'switch-off@example.com');
      await eventually(async () => expect((await channelOf(user.userId))?.channelId).toBeTruthy());
      const channelId = (await channelOf(user.userId))?.channelId;
      await user.send('PATCH', '/api/settings/onsyncactive', { setting: false });
      await eventually(async () => expect((await channelOf(user.userId))?.channelId).toBeNull());
      const { channels } = await emulatorControl(user.origins.google, 'state');
      expect(channels.find((entry: { id: string }) => entry.id === channelId)?.live).toBe(false);
    });
  });
}
