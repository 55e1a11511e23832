import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { integrations } from '#server/db/schema/integrations.table.ts';
import { syncProblems } from '#server/db/schema/sync.tables.ts';
import { users } from '#server/db/schema/users.table.ts';
import { createTokenCipher } from '#server/domain/integrations/token-cipher.ts';
import { NOTICE_MAIL_QUEUE, USER_SYNC_QUEUE } from '#server/jobs/queue-jobs.ts';
import { testDatabases } from '#server/test/databases.ts';
import { addCalendarAccount, signInThroughEmulator } from '#server/test/sign-in.ts';
import { setUpTestApp } from '#server/test/suite-setup.ts';
import {
  emulatorControl,
  eventually,
  microsoftSyncingUser,
  syncingUser,
  tomorrowAt,
} from '#server/test/sync-fixtures.ts';
import { crossSite, sameOrigin } from '#server/test/test-app.ts';
import { NOTICES_OFF_LINK_OUTDATED } from './notice.service.ts';

/**
 * Notice mails (docs/product-rules.md §11): the worker checks what a user is due after each run and
 * payment change, and with every reconcile; mails go through the queue to the sandbox's mail server.
 */
type Mail = { subject: string; text: string; html: string | null; listUnsubscribe: string | null };

const HOUR = 3_600_000;

for (const database of await testDatabases('notice mails')) {
  describe.skipIf(!database.enabled)(`notice mails (${database.name})`, () => {
    // A refused mail is tried again after 1 s, then 2 s (5 s and 10 s by default).
    const app = setUpTestApp(database, {
      env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000', NOTICE_MAIL_RETRY_SECONDS: '1' },
    });

    const inbox = async (email: string): Promise<Mail[]> => {
      const origin = app().emulators?.mail.origin ?? '';
      const response = await fetch(`${origin}/_emulator/messages?${new URLSearchParams({ to: email })}`);
      return (await response.json()).messages;
    };
    /** Sync runs and notice mails waiting or under way: while there are any, another mail may follow. */
    const jobsInFlight = async () => {
      const result = await app().database.db.execute(
        sql`select count(*)::int as n from pgboss.job
             where name in (${NOTICE_MAIL_QUEUE}, ${USER_SYNC_QUEUE}) and state in ('created', 'retry', 'active')`,
      );
      return (result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0;
    };
    /**
     * Waits for exactly `count` mails, then until no sync run or mail job is left that could send
     * another, and sees that none followed.
     */
    const mailsSettle = async (email: string, count: number, timeoutMs = 15_000) => {
      await eventually(async () => expect(await inbox(email)).toHaveLength(count), timeoutMs);
      await eventually(async () => expect(await jobsInFlight()).toBe(0), timeoutMs);
      const mails = await inbox(email);
      expect(mails).toHaveLength(count);
      return mails;
    };
    /** A signed-in user with nothing connected: no run of the worker touches the problems a test raises. */
    const idleUser = async (email: string) => {
      const { sessionCookie } = await signInThroughEmulator(app().server, 'google', {
        email,
        name: 'Ada User',
      });
      const cookies = { sid: sessionCookie?.value ?? '' };
      const send = async (method: 'GET' | 'PATCH', url: string, payload?: object) => {
        const response = await app().server.inject({ method, url, cookies, headers: sameOrigin, payload });
        expect(response.statusCode, response.body).toBe(200);
        return response.json();
      };
      const { id } = await send('GET', '/api/current_user');
      return { userId: id as string, send };
    };
    const raise = (userId: string, code: 'reconnect-todoist' | 'quota-reached', since: Date) =>
      app().database.db.insert(syncProblems).values({ userId, code, since });
    const setTrial = (userId: string, validUntil: Date) =>
      app()
        .database.db.update(users)
        .set({ subscriptionStatus: 'trial', validUntil })
        .where(eq(users.id, userId));

    it('mails once when the calendar grant is revoked, from the worker’s run, and not again for later runs', async () => {
      const email = 'notice-revoked@example.com';
      const user = await syncingUser(app(), email);
      await user.addTask('Quarterly secret plan', tomorrowAt(9).day, 9, ['30min']);
      const [row] = await app()
        .database.db.select()
        .from(integrations)
        .where(and(eq(integrations.userId, user.userId), eq(integrations.kind, 'calendar')));
      const token = createTokenCipher(app().config.tokenKeys).decrypt(row?.refreshTokenEncrypted ?? '');
      expect((await fetch(`${user.origins.google}/revoke?token=${token}`, { method: 'POST' })).ok).toBe(true);

      await app().sync.service.request(user.userId);
      const [mail] = await mailsSettle(email, 1);
      expect(mail?.subject).toBe('Your sync has stopped: connect your calendar again');
      expect(mail?.text).toContain('Connect your calendar: http://localhost:3000/dashboard');
      expect(mail?.html).toContain('href="http://localhost:3000/dashboard"');
      // Never a task's or event's text.
      expect(`${mail?.subject}${mail?.text}${mail?.html}`).not.toContain('secret');

      // Later runs meet the same problem: no second mail.
      await app().sync.service.request(user.userId);
      await app().notices.checkAll();
      await mailsSettle(email, 1);
    });

    it('mails "choose a calendar" once the Microsoft 365 account can only read the chosen one', async () => {
      const email = 'notice-read-only@example.com';
      const user = await microsoftSyncingUser(app(), email);
      await user.addTask('Before', tomorrowAt(9).day, 9, ['30min']);
      await app().sync.service.request(user.userId);
      await eventually(async () => expect(await user.eventTitles()).toEqual(['Before']));
      // Shared to read only now: Graph answers the next write with 403 ErrorAccessDenied.
      const origin = app().emulators?.microsoft.origin ?? '';
      await emulatorControl(origin, `calendars/${encodeURIComponent(user.calendarId)}/access`, {
        canEdit: false,
      });
      await user.addTask('After', tomorrowAt(10).day, 10, ['30min']);
      await app().sync.service.request(user.userId);
      // Settled: no run left waiting for a retry.
      const [mail] = await mailsSettle(email, 1);
      expect(mail?.subject).toBe('Your sync has stopped: choose a calendar');
      expect(mail?.text).toContain('no longer shared with you');
      const { problems } = await app().sync.service.activity(user.userId);
      expect(problems.map((problem) => problem.code)).toEqual(['calendar-missing']);
      expect(await user.eventTitles()).toEqual(['Before']);
    });

    it('mails held-back removals from the run that held them', async () => {
      const email = 'notice-held@example.com';
      const user = await syncingUser(app(), email);
      const day = tomorrowAt(8).day;
      for (let n = 0; n < 6; n += 1) await user.addTask(`Task ${n}`, day, 8 + n, ['30min']);
      await app().sync.service.request(user.userId);
      await eventually(async () => expect(await user.events()).toHaveLength(6));
      const label = (await user.todoist.getLabels()).results.find((entry) => entry.name === '30min');
      await user.todoist.deleteLabel(label?.id ?? '');
      await app().sync.service.request(user.userId);
      const [mail] = await mailsSettle(email, 1);
      // The count and the cause, never a title.
      expect(mail?.subject).toBe('Timeboxer held back removing 6 events');
      expect(mail?.text).toContain('6 events held back after the label @30min was deleted in Todoist');
      expect(`${mail?.subject}${mail?.text}${mail?.html}`).not.toContain('Task 0');
      expect(await user.events()).toHaveLength(6);
    });

    it('mails which added calendar account Plan my day cannot read, by its address, once; and its end to who asked', async () => {
      const email = 'notice-other-account@example.com';
      const work = 'notice-other-account-work@example.com';
      const user = await syncingUser(app(), email);
      await user.send('PATCH', '/api/settings/notices', { mails: true, resolvedMails: true });
      const connectWork = () => addCalendarAccount(app().server, 'microsoft', work, user.cookies);
      await connectWork();
      await user.send('PATCH', '/api/settings/autoplan', {
        active: true,
        days: [1, 2, 3, 4, 5, 6, 7],
        start: '09:00',
        end: '17:00',
        gapMinutes: 0,
        otherCalendarsBusy: null,
      });
      // The user removes Timeboxer's permissions in the Microsoft account; the next placement finds out.
      await emulatorControl(app().emulators?.microsoft.origin ?? '', 'consent/revoke', { email: work });
      await user.todoist.addTask({ content: 'Secret plan', labels: ['30min'], dueDate: tomorrowAt(9).day });
      await app().sync.service.request(user.userId);
      await eventually(async () =>
        expect((await app().sync.service.activity(user.userId)).problems.map((each) => each.code)).toEqual([
          'reconnect-other-calendar',
        ]),
      );
      await app().notices.checkAll();
      const [mail] = await mailsSettle(email, 1);
      expect(mail?.subject).toBe(`Plan my day cannot see the meetings in ${work}`);
      expect(mail?.text).toContain(
        `Microsoft 365 no longer accepts Timeboxer’s access to your account ${work}`,
      );
      expect(mail?.text).toContain('Your sync goes on.');
      expect(`${mail?.subject}${mail?.text}${mail?.html}`).not.toContain('Secret');
      // The reconcile's next checks mail nothing more while it holds.
      await app().notices.checkAll();
      await mailsSettle(email, 1, 1000);

      await connectWork();
      await app().notices.checkAll();
      const [solved] = await mailsSettle(email, 2);
      expect(solved?.subject).toBe('Plan my day sees your calendar accounts again');
      await app().notices.checkAll();
      await mailsSettle(email, 2, 1000);
    });

    it('tells a quota problem only once it has lasted an hour', async () => {
      const email = 'notice-quota@example.com';
      const user = await idleUser(email);
      await raise(user.userId, 'quota-reached', new Date(Date.now() - 10 * 60_000));
      await app().notices.checkAll();
      await mailsSettle(email, 0, 1000);
      await app()
        .database.db.update(syncProblems)
        .set({ since: new Date(Date.now() - 2 * HOUR) })
        .where(eq(syncProblems.userId, user.userId));
      await app().notices.checkAll();
      expect((await mailsSettle(email, 1))[0]?.subject).toBe('Your sync is waiting on a provider limit');
    });

    it('announces the trial’s end, and stops every mail from the link in it, without signing in', async () => {
      const email = 'notice-trial@example.com';
      const user = await idleUser(email);
      await setTrial(user.userId, new Date(Date.now() + 2 * 24 * HOUR));
      await app().notices.checkAll();
      const [mail] = await mailsSettle(email, 1);
      expect(mail?.subject).toBe('Your Timeboxer trial ends in 3 days');
      expect(mail?.text, mail?.text).toMatch(/Turn them off: http/);
      expect(mail?.text).toContain('Upgrade: http://localhost:3000/profile');

      // The link in the text opens our page; the header is what mail clients post to (RFC 8058).
      const page = new URL(/Turn them off: (\S+)/.exec(mail?.text ?? '')?.[1] ?? '');
      expect(page.pathname).toBe('/notices/off');
      const oneClick = /^<(.+)>$/.exec(mail?.listUnsubscribe ?? '')?.[1] ?? '';
      expect(new URL(oneClick).search).toBe(page.search);

      const forged = await app().server.inject({
        method: 'POST',
        url: `/api/notices/off?u=${user.userId}&t=${'A'.repeat(43)}`,
        headers: crossSite,
      });
      expect(forged.statusCode).toBe(400);
      const off = await app().server.inject({
        method: 'POST',
        url: `/api/notices/off${page.search}`,
        headers: { ...crossSite, 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      });
      expect(off.statusCode, off.body).toBe(200);
      expect((await user.send('GET', '/api/current_user')).notices).toEqual({
        mails: false,
        resolvedMails: false,
      });

      // Off: the trial's end itself is not mailed.
      await setTrial(user.userId, new Date(Date.now() - HOUR));
      await app().notices.checkAll();
      await mailsSettle(email, 1, 1000);
    });

    it('an older mail’s link no longer turns the mails off once they were switched on again', async () => {
      const email = 'notice-relinked@example.com';
      const user = await idleUser(email);
      const linkOf = (mail: Mail | undefined) =>
        new URL(/Turn them off: (\S+)/.exec(mail?.text ?? '')?.[1] ?? '').search;
      const turnOff = (search: string) =>
        app().server.inject({ method: 'POST', url: `/api/notices/off${search}`, headers: crossSite });
      const mailsOn = async () => (await user.send('GET', '/api/current_user')).notices.mails;

      await raise(user.userId, 'reconnect-todoist', new Date(Date.now() - HOUR));
      await app().notices.check(user.userId);
      const old = linkOf((await mailsSettle(email, 1))[0]);
      expect(new URLSearchParams(old).get('v')).toBe('0');
      expect((await turnOff(old)).statusCode).toBe(200);
      expect(await mailsOn()).toBe(false);

      await user.send('PATCH', '/api/settings/notices', { mails: true, resolvedMails: false });
      const outdated = await turnOff(old);
      expect(outdated.statusCode).toBe(409);
      expect(outdated.json()).toEqual({ error: 'conflict', message: NOTICES_OFF_LINK_OUTDATED });
      expect(await mailsOn()).toBe(true);
      const garbled = await turnOff(old.replace('v=0', 'v=x'));
      expect(garbled.statusCode).toBe(400);

      // The next mail's link is of the new version, and works.
      await raise(user.userId, 'quota-reached', new Date(Date.now() - 2 * HOUR));
      await app().notices.check(user.userId);
      const fresh = linkOf((await mailsSettle(email, 2))[0]);
      expect(new URLSearchParams(fresh).get('v')).toBe('1');
      expect((await turnOff(fresh)).statusCode).toBe(200);
      expect(await mailsOn()).toBe(false);
    });

    it('tells of a failed payment, then of the subscription’s end', async () => {
      const email = 'notice-payment@example.com';
      const user = await idleUser(email);
      const setPayment = (subscriptionStatus: string, validUntil: Date) =>
        app()
          .database.db.update(users)
          .set({ subscriptionStatus, validUntil })
          .where(eq(users.id, user.userId));
      await setPayment('past_due', new Date(Date.now() + 3 * 24 * HOUR));
      await app().notices.checkAll();
      expect((await mailsSettle(email, 1))[0]?.subject).toBe('Your payment for Timeboxer failed');
      await setPayment('unpaid', new Date(Date.now() - HOUR));
      await app().notices.checkAll();
      expect((await mailsSettle(email, 2))[0]?.subject).toBe(
        'Your Timeboxer subscription has ended: your sync has stopped',
      );
    });

    it('mails a problem’s end only to a user who asked for that, in the profile', async () => {
      const asked = await idleUser('notice-solved@example.com');
      const updated = await asked.send('PATCH', '/api/settings/notices', {
        mails: true,
        resolvedMails: true,
      });
      expect(updated.notices).toEqual({ mails: true, resolvedMails: true });
      const quiet = await idleUser('notice-not-solved@example.com');
      for (const user of [asked, quiet]) {
        await raise(user.userId, 'reconnect-todoist', new Date());
        await app().notices.check(user.userId);
      }
      await mailsSettle('notice-solved@example.com', 1);
      await mailsSettle('notice-not-solved@example.com', 1);
      for (const user of [asked, quiet]) {
        await app().database.db.delete(syncProblems).where(eq(syncProblems.userId, user.userId));
        await app().notices.check(user.userId);
        await app().notices.check(user.userId);
      }
      const [solved] = await mailsSettle('notice-solved@example.com', 2);
      expect(solved?.subject).toBe('Your sync is running again');
      await mailsSettle('notice-not-solved@example.com', 1, 1000);
    });

    it('loses nothing and doubles nothing when the mail server refuses, then accepts', async () => {
      const email = 'notice-refused@example.com';
      const user = await idleUser(email);
      const origin = app().emulators?.mail.origin ?? '';
      await fetch(`${origin}/_emulator/refuse`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ times: 2 }),
      });
      await raise(user.userId, 'reconnect-todoist', new Date());
      await app().notices.check(user.userId);
      await app().notices.check(user.userId);
      // Tried again after 1 s, then 2 s: the third try is taken.
      const [mail] = await mailsSettle(email, 1, 20_000);
      expect(mail?.subject).toBe('Your sync has stopped: connect Todoist again');
    }, 40_000);
  });
}
