import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { integrations } from '#server/db/schema/integrations.table.ts';
import { syncLinks, syncStates } from '#server/db/schema/sync.tables.ts';
import { testDatabases } from '#server/test/databases.ts';
import { addCalendarAccount, connectThroughEmulator } from '#server/test/sign-in.ts';
import { setUpTestApp } from '#server/test/suite-setup.ts';
import {
  emulatorControl,
  graphSpan,
  type SyncingUser,
  syncingUser,
  tomorrowAt,
  userGraph,
} from '#server/test/sync-fixtures.ts';

/**
 * Several calendar accounts (decision 028), against the emulators: Microsoft 365 connected beside the
 * Google account the sync writes to is listed, never written to, and its meetings keep Plan my day's
 * blocks off their time; an added account whose grant ends is left out of the busy read, marked for
 * the dashboard, without stopping the sync; removing it changes nothing of the sync.
 */

const EVERY_DAY = [1, 2, 3, 4, 5, 6, 7];

type Account = { id: string; provider: string; email: string; sync: boolean; needsReconnect: boolean };

for (const database of await testDatabases('several calendar accounts')) {
  describe.skipIf(!database.enabled)(`several calendar accounts (${database.name})`, () => {
    const app = setUpTestApp(database, {
      env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000' },
      overrides: { role: 'web' },
    });

    /** A Google syncing user with a 30-minute task synced, then a Microsoft 365 account added. */
    async function withSecondAccount(email: string, work: string) {
      const user = await syncingUser(app(), email);
      const day = tomorrowAt(14).day;
      await user.addTask('Write', day, 14, ['30min']);
      await user.run();
      expect(await user.eventTitles()).toEqual(['Write']);
      await addCalendarAccount(app().server, 'microsoft', work, user.cookies);
      const microsoft = app().emulators?.microsoft;
      if (!microsoft) throw new Error('the test app runs in sandbox mode');
      const graph = await userGraph(microsoft, work);
      const accounts = async (): Promise<Account[]> =>
        (await user.send('GET', '/api/current_user')).calendarSettings.accounts;
      const links = () => app().database.db.select().from(syncLinks).where(eq(syncLinks.userId, user.userId));
      return { user, day, graph, microsoft, accounts, links };
    }

    it('lists both, writes only to the first, and Plan my day keeps off a meeting in the second; removing the second changes nothing of the sync', async () => {
      const email = 'two-accounts-sync@example.com';
      const work = 'two-accounts-sync-work@example.com';
      const { user, day, graph, accounts, links } = await withSecondAccount(email, work);
      expect(await accounts()).toEqual([
        expect.objectContaining({ provider: 'google', email, sync: true }),
        expect.objectContaining({ provider: 'microsoft', email: work, sync: false }),
      ]);
      const current = await user.send('GET', '/api/current_user');
      expect(current).toMatchObject({
        syncActive: true,
        calendarSettings: { provider: 'Google Calendar', calendarId: email },
      });

      // The sync goes on with Google alone: a new task's event is made there, nothing in Microsoft 365.
      await user.addTask('Read', day, 16, ['30min']);
      expect(await user.run()).toMatchObject({ status: 'synced' });
      expect(await user.eventTitles()).toEqual(['Read', 'Write']);
      expect((await graph('GET', '/me/events')).value).toEqual([]);

      // A meeting at 9:00 in the Microsoft 365 account; the chosen calendar is Google's main one and the
      // setting is untouched (null): the added account's meetings count as busy anyway.
      await graph('POST', '/me/events', { subject: 'Standup', ...graphSpan(tomorrowAt(9).instant, 60) });
      await user.send('PATCH', '/api/settings/autoplan', {
        active: true,
        days: EVERY_DAY,
        start: '09:00',
        end: '17:00',
        gapMinutes: 0,
        otherCalendarsBusy: null,
      });
      const plan = await user.todoist.addTask({ content: 'Plan', labels: ['30min'], dueDate: day });
      await user.run();
      await user.run();
      expect((await user.todoist.getTask(plan.id)).due?.date).toBe(`${day}T10:00:00`);
      expect(await user.eventTitles()).toEqual(['Plan', 'Read', 'Write']);
      expect(
        (await graph('GET', '/me/events')).value.map((event: { subject: string }) => event.subject),
      ).toEqual(['Standup']);

      // Removing the added account: the sync, its choice and its pairs stay as they are.
      const before = await links();
      const [, added] = await accounts();
      const removed = await user.send('DELETE', `/api/calendar/accounts/${added?.id}`);
      expect(removed).toMatchObject({
        syncActive: true,
        calendarSettings: {
          provider: 'Google Calendar',
          calendarId: email,
          accounts: [{ email, sync: true }],
        },
      });
      expect(await user.run()).toMatchObject({ status: 'synced', writes: 0 });
      expect(await links()).toEqual(before);
      expect(await user.eventTitles()).toEqual(['Plan', 'Read', 'Write']);
    });

    it('syncs with the added account without removing one: the old account’s events stay as they were, the tasks get theirs in the new one, nothing twice', async () => {
      const email = 'two-accounts-switch@example.com';
      const work = 'two-accounts-switch-work@example.com';
      const { user, day, graph, accounts, links } = await withSecondAccount(email, work);
      await user.addTask('Read', day, 16, ['30min']);
      await user.run();
      const [google, microsoft] = await accounts();
      const switched = await user.send('POST', `/api/calendar/accounts/${microsoft?.id}/sync`, {});
      expect(switched).toMatchObject({
        syncActive: false,
        calendarSettings: {
          provider: 'Microsoft',
          calendarId: null,
          accounts: [
            { id: microsoft?.id, sync: true },
            { id: google?.id, sync: false },
          ],
        },
      });
      // Off until a calendar of the new account is chosen: a run writes nothing.
      expect(await user.run()).toMatchObject({ status: 'skipped' });
      const calendar = switched.calendarSettings.calendars.find(
        (entry: { primary: boolean }) => entry.primary,
      );
      await user.send('PATCH', '/api/calendar/id', { calendarId: calendar.id });
      await user.send('PATCH', '/api/settings/onsyncactive', { setting: true });
      expect(await user.run()).toMatchObject({ status: 'synced' });

      // Google's events are as they were (nothing deleted there); Microsoft 365 has each task's event once.
      expect(await user.eventTitles()).toEqual(['Read', 'Write']);
      const subjects = async () =>
        (await graph('GET', '/me/events')).value.map((event: { subject: string }) => event.subject).sort();
      expect(await subjects()).toEqual(['Read', 'Write']);
      // The old pairs wait, parked in the Google account, for the sync to come back there.
      const pairs = await links();
      expect(pairs.filter((link) => link.parkedIn === null).map((link) => link.calendarId)).toEqual([
        calendar.id,
        calendar.id,
      ]);
      expect(pairs.filter((link) => link.parkedIn === google?.id).map((link) => link.calendarId)).toEqual([
        email,
        email,
      ]);
      const activity = await user.send('GET', '/api/sync/activity');
      expect(activity.leftBehind).toMatchObject({ provider: 'google', calendarId: email, events: 2 });
      expect(await user.run()).toMatchObject({ status: 'synced', writes: 0 });
      expect(await subjects()).toEqual(['Read', 'Write']);
      expect(await user.eventTitles()).toEqual(['Read', 'Write']);
    });

    /** Makes this account the sync's with its main calendar, sync on, and runs: the run's outcome. */
    async function syncWith(user: SyncingUser, accountId: string | undefined) {
      const switched = await user.send('POST', `/api/calendar/accounts/${accountId}/sync`, {});
      const calendar = switched.calendarSettings.calendars.find(
        (entry: { primary: boolean }) => entry.primary,
      );
      await user.send('PATCH', '/api/calendar/id', { calendarId: calendar.id });
      await user.send('PATCH', '/api/settings/onsyncactive', { setting: true });
      return { calendarId: calendar.id as string, outcome: await user.run() };
    }

    it('coming back to the first account takes up its pairs again: each task’s event once in each account, however often the sync goes back and forth', async () => {
      const email = 'two-accounts-back@example.com';
      const work = 'two-accounts-back-work@example.com';
      const { user, day, graph, accounts, links } = await withSecondAccount(email, work);
      await user.addTask('Read', day, 16, ['30min']);
      await user.run();
      const [google, microsoft] = await accounts();
      const subjects = async () =>
        (await graph('GET', '/me/events')).value.map((event: { subject: string }) => event.subject).sort();
      const leftBehind = async () => (await user.send('GET', '/api/sync/activity')).leftBehind;

      const toMicrosoft = await syncWith(user, microsoft?.id);
      expect(toMicrosoft.outcome).toMatchObject({ status: 'synced' });
      expect(await subjects()).toEqual(['Read', 'Write']);
      expect(await leftBehind()).toMatchObject({ provider: 'google', calendarId: email, events: 2 });

      // Back to Google: its events are the sync's again, none made beside them.
      const back = await syncWith(user, google?.id);
      expect(back.outcome).toMatchObject({ status: 'synced' });
      expect(await user.eventTitles()).toEqual(['Read', 'Write']);
      expect(await subjects()).toEqual(['Read', 'Write']);
      expect((await links()).filter((link) => link.parkedIn === null).map((link) => link.calendarId)).toEqual(
        [email, email],
      );
      expect(await leftBehind()).toMatchObject({
        provider: 'microsoft',
        calendarId: toMicrosoft.calendarId,
        events: 2,
      });
      expect(await user.run()).toMatchObject({ status: 'synced', writes: 0 });

      // And to Microsoft 365 again: its events are taken up as well.
      expect((await syncWith(user, microsoft?.id)).outcome).toMatchObject({ status: 'synced' });
      expect(await subjects()).toEqual(['Read', 'Write']);
      expect(await user.eventTitles()).toEqual(['Read', 'Write']);
      expect(await user.run()).toMatchObject({ status: 'synced', writes: 0 });
      expect(await subjects()).toEqual(['Read', 'Write']);
      expect(await links()).toHaveLength(4);

      // A task made meanwhile gets its event once in each account as well.
      await user.addTask('Plan', day, 11, ['30min']);
      await user.run();
      await syncWith(user, google?.id);
      expect(await user.eventTitles()).toEqual(['Plan', 'Read', 'Write']);
      expect(await subjects()).toEqual(['Plan', 'Read', 'Write']);

      // Removing the added account forgets what was parked in it; its events are the user's.
      const [, added] = await accounts();
      expect(added?.provider).toBe('microsoft');
      await user.send('DELETE', `/api/calendar/accounts/${added?.id}`);
      expect((await links()).map((link) => link.parkedIn)).toEqual([null, null, null]);
      expect(await subjects()).toEqual(['Plan', 'Read', 'Write']);
    });

    it('a task changed, deleted or completed, or an event deleted, while the sync was with the other account is brought up to date on the way back, nothing made twice', async () => {
      const email = 'two-accounts-back-changed@example.com';
      const work = 'two-accounts-back-changed-work@example.com';
      const { user, day, accounts } = await withSecondAccount(email, work);
      const read = await user.addTask('Read', day, 16, ['30min']);
      const tidy = await user.addTask('Tidy', day, 18, ['30min']);
      const call = await user.addTask('Call', day, 12, ['30min']);
      const walk = await user.addTask('Walk', day, 13, ['30min']);
      await user.run();
      const write = (await user.todoist.getTasks()).results.find((task) => task.content === 'Write');
      expect(await user.eventTitles()).toEqual(['Call', 'Read', 'Tidy', 'Walk', 'Write']);
      const [google, microsoft] = await accounts();
      expect((await syncWith(user, microsoft?.id)).outcome).toMatchObject({ status: 'synced' });

      await user.todoist.updateTask(write?.id ?? '', { content: 'Write the report' });
      await user.todoist.updateTask(read.id, { dueString: `${day} at 17:00` });
      await user.todoist.deleteTask(tidy.id);
      await user.todoist.closeTask(call.id);
      await user.run();
      // The user deletes an event left in Google meanwhile.
      const walked = (await user.events()).find((event) => event.summary === 'Walk');
      await user.google.events.delete({ calendarId: email, eventId: walked?.id ?? '' });

      // Deleted meanwhile: its event goes, as a deleted task's; completed: marked as the setting says.
      await user.send('PATCH', '/api/settings/oncomplete', { setting: 'checkmark' });
      expect((await syncWith(user, google?.id)).outcome).toMatchObject({ status: 'synced' });
      const events = await user.events();
      expect(events.map((event) => event.summary).sort()).toEqual(['Read', 'Write the report', '✓ Call']);
      const moved = events.find((event) => event.summary === 'Read');
      expect(new Date(moved?.start?.dateTime ?? '').toISOString()).toBe(tomorrowAt(17).instant.toISOString());
      // Its task, which existed first, keeps itself without its timebox label and time.
      const walking = await user.todoist.getTask(walk.id);
      expect(walking.labels).toEqual([]);
      expect(walking.due?.date).toBe(day);
      expect(await user.run()).toMatchObject({ status: 'synced', writes: 0 });
      expect(await user.eventTitles()).toEqual(['Read', 'Write the report', '✓ Call']);
    });

    it('Plan my day’s preview keeps off a meeting only the added account has, as a run does', async () => {
      const email = 'two-accounts-preview@example.com';
      const work = 'two-accounts-preview-work@example.com';
      const { user, day, graph } = await withSecondAccount(email, work);
      await graph('POST', '/me/events', { subject: 'Standup', ...graphSpan(tomorrowAt(9).instant, 60) });
      // Before it is switched on (the setting untouched: the added account's meetings count).
      await user.send('PATCH', '/api/settings/autoplan', {
        active: false,
        days: EVERY_DAY,
        start: '09:00',
        end: '17:00',
        gapMinutes: 0,
        otherCalendarsBusy: null,
      });
      const plan = await user.todoist.addTask({ content: 'Plan', labels: ['30min'], dueDate: day });
      const at = (hour: number) => tomorrowAt(hour).instant.toISOString();
      expect(await user.send('GET', '/api/sync/preview/autoplan')).toEqual({
        placements: [{ taskId: plan.id, title: 'Plan', start: at(10), end: at(10.5) }],
        unplaced: [],
      });
      // Other calendars unticked: the added account's meeting does not count, in the preview as in a run.
      await user.send('PATCH', '/api/settings/autoplan', {
        active: false,
        days: EVERY_DAY,
        start: '09:00',
        end: '17:00',
        gapMinutes: 0,
        otherCalendarsBusy: false,
      });
      expect((await user.send('GET', '/api/sync/preview/autoplan')).placements).toEqual([
        { taskId: plan.id, title: 'Plan', start: at(9), end: at(9.5) },
      ]);
    });

    it('checks the blocks already placed against an account added with its meetings at once, and again once it is removed', async () => {
      const email = 'two-accounts-key@example.com';
      const work = 'two-accounts-key-work@example.com';
      const user = await syncingUser(app(), email);
      const day = tomorrowAt(9).day;
      await user.send('PATCH', '/api/settings/autoplan', {
        active: true,
        days: EVERY_DAY,
        start: '09:00',
        end: '17:00',
        gapMinutes: 0,
        otherCalendarsBusy: null,
      });
      const plan = await user.todoist.addTask({ content: 'Plan', labels: ['30min'], dueDate: day });
      await user.run();
      await user.run();
      expect((await user.todoist.getTask(plan.id)).due?.date).toBe(`${day}T09:00:00`);
      const plannedWith = async () => {
        const [state] = await app()
          .database.db.select()
          .from(syncStates)
          .where(eq(syncStates.userId, user.userId));
        return state?.autoplan?.plannedWith;
      };
      const alone = await plannedWith();

      // The work account, connected with its standup at 9:00: nothing changed in Google or Todoist, yet
      // the next run checks the block against it and moves it.
      await connectThroughEmulator(app().server, 'microsoft', { email: work, another: true }, user.cookies);
      const microsoft = app().emulators?.microsoft;
      if (!microsoft) throw new Error('the test app runs in sandbox mode');
      const graph = await userGraph(microsoft, work);
      await graph('POST', '/me/events', { subject: 'Standup', ...graphSpan(tomorrowAt(9).instant, 60) });
      await user.run();
      await user.run();
      expect((await user.todoist.getTask(plan.id)).due?.date).toBe(`${day}T10:00:00`);
      const withWork = await plannedWith();
      expect(withWork).not.toBe(alone);

      // Removed: settled again without it (the block stays where it is now).
      const [, added] = (await user.send('GET', '/api/current_user')).calendarSettings.accounts;
      await user.send('DELETE', `/api/calendar/accounts/${added.id}`);
      await user.run();
      expect(await plannedWith()).toBe(alone);
      expect((await user.todoist.getTask(plan.id)).due?.date).toBe(`${day}T10:00:00`);
    });

    it('after syncing with the added account, a block Plan my day placed keeps its time: its old event, left in the first account, does not push it away', async () => {
      const email = 'two-accounts-switch-plan@example.com';
      const work = 'two-accounts-switch-plan-work@example.com';
      const { user, day, graph, accounts } = await withSecondAccount(email, work);
      await user.send('PATCH', '/api/settings/autoplan', {
        active: true,
        days: EVERY_DAY,
        start: '09:00',
        end: '17:00',
        gapMinutes: 0,
        otherCalendarsBusy: null,
      });
      const plan = await user.todoist.addTask({ content: 'Plan', labels: ['30min'], dueDate: day });
      await user.run();
      await user.run();
      expect((await user.todoist.getTask(plan.id)).due?.date).toBe(`${day}T09:00:00`);

      const [, microsoft] = await accounts();
      const switched = await user.send('POST', `/api/calendar/accounts/${microsoft?.id}/sync`, {});
      const calendar = switched.calendarSettings.calendars.find(
        (entry: { primary: boolean }) => entry.primary,
      );
      await user.send('PATCH', '/api/calendar/id', { calendarId: calendar.id });
      await user.send('PATCH', '/api/settings/onsyncactive', { setting: true });
      await user.run();
      await user.run();
      // Google keeps the old event at 9:00 (Plan my day reads it as busy now); the task keeps its time
      // and its new event is at the same time in Microsoft 365.
      expect(await user.eventTitles()).toEqual(['Plan', 'Write']);
      expect((await user.todoist.getTask(plan.id)).due?.date).toBe(`${day}T09:00:00`);
      const events = (await graph('GET', '/me/events')).value as {
        subject: string;
        start: { dateTime: string };
      }[];
      expect(events.find((event) => event.subject === 'Plan')?.start.dateTime).toMatch(
        tomorrowAt(9).instant.toISOString().slice(0, 16),
      );
      // A task dated later keeps off that time, as off any meeting.
      const next = await user.todoist.addTask({ content: 'Next', labels: ['30min'], dueDate: day });
      await user.run();
      await user.run();
      expect((await user.todoist.getTask(next.id)).due?.date).toBe(`${day}T09:30:00`);
    });

    it('leaves an added account whose grant ended out of the busy read, marked for the dashboard, and the sync runs on', async () => {
      const email = 'two-accounts-revoked@example.com';
      const work = 'two-accounts-revoked-work@example.com';
      const { user, day, graph, microsoft } = await withSecondAccount(email, work);
      await graph('POST', '/me/events', { subject: 'Standup', ...graphSpan(tomorrowAt(9).instant, 60) });
      // The user removes Timeboxer's permissions in the Microsoft account: every token of it ends.
      await emulatorControl(microsoft.origin, 'consent/revoke', { email: work });
      await user.send('PATCH', '/api/settings/autoplan', {
        active: true,
        days: EVERY_DAY,
        start: '09:00',
        end: '17:00',
        gapMinutes: 0,
        otherCalendarsBusy: null,
      });
      const plan = await user.todoist.addTask({ content: 'Plan', labels: ['30min'], dueDate: day });
      expect(await user.run()).toMatchObject({ status: 'synced' });
      await user.run();
      // Its meeting could not be read: the block takes the first free time the sync's account shows.
      expect((await user.todoist.getTask(plan.id)).due?.date).toBe(`${day}T09:00:00`);
      const current = await user.send('GET', '/api/current_user');
      expect(current.syncActive).toBe(true);
      expect(current.calendarSettings.accounts).toEqual([
        expect.objectContaining({ email, needsReconnect: false }),
        expect.objectContaining({ email: work, needsReconnect: true }),
      ]);
      expect(current.calendarSettings.needsReconnect).toBe(false);
      const [row] = await app().database.db.select().from(integrations).where(eq(integrations.email, work));
      expect(row?.needsReconnect).toBe(true);
      // The dashboard says so among the problems, since the account was marked, as long as it holds.
      const problems = async () => (await user.send('GET', '/api/sync/activity')).problems;
      expect(await problems()).toEqual([
        { code: 'reconnect-other-calendar', since: row?.updatedAt.toISOString() },
      ]);
      // Plan my day no longer counting other calendars, the account's meetings do not matter to it.
      const autoplan = (otherCalendarsBusy: boolean | null) =>
        user.send('PATCH', '/api/settings/autoplan', {
          active: true,
          days: EVERY_DAY,
          start: '09:00',
          end: '17:00',
          gapMinutes: 0,
          otherCalendarsBusy,
        });
      await autoplan(false);
      expect(await problems()).toEqual([]);
      await autoplan(null);
      expect((await problems()).map((problem: { code: string }) => problem.code)).toEqual([
        'reconnect-other-calendar',
      ]);
      // Connected again (consent given anew on the provider's page): the problem is gone.
      await addCalendarAccount(app().server, 'microsoft', work, user.cookies);
      expect(await problems()).toEqual([]);
      expect((await user.send('GET', '/api/current_user')).calendarSettings.accounts).toEqual([
        expect.objectContaining({ email, needsReconnect: false }),
        expect.objectContaining({ email: work, needsReconnect: false }),
      ]);
    });
  });
}
