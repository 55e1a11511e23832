import { describe, expect, it } from 'vitest';
import type { App } from '#server/app.ts';
import { testDatabases } from '#server/test/databases.ts';
import { setUpTestApp } from '#server/test/suite-setup.ts';
import {
  emulatorControl,
  googleSpan,
  graphSpan,
  microsoftSyncingUser,
  syncingUser,
  tomorrowAt,
} from '#server/test/sync-fixtures.ts';
import type { Send } from '#server/test/sync-user-setup.ts';

/**
 * "Plan my day" in the sync (docs/product-rules.md §10), against the emulators: a dated timeboxed task
 * gets the first free time of its day next to a meeting; a meeting that lands on a block the app placed
 * moves it; a block the user moved is theirs; a task that does not fit keeps its date.
 */

/** The user's own events: a meeting the sync does not take (another colour or category), and ours by title. */
const calendars = {
  google: async (app: App, email: string) => {
    const user = await syncingUser(app, email);
    return {
      ...user,
      meeting: (start: Date, minutes: number, free = false) =>
        user.google.events.insert({
          calendarId: user.calendarId,
          requestBody: {
            summary: 'Meeting',
            colorId: '5',
            ...googleSpan(start, minutes),
            ...(free && { transparency: 'transparent' }),
          },
        }),
      startOf: async (title: string) => {
        const event = (await user.events()).find((each) => each.summary === title);
        return event?.start?.dateTime ? new Date(event.start.dateTime).toISOString() : null;
      },
      idOf: async (title: string) => (await user.events()).find((each) => each.summary === title)?.id ?? '',
      /** A meeting in another calendar of the account (its "Work" calendar; the primary stays chosen). */
      meetingElsewhere: async (start: Date, minutes: number) => {
        const current = await user.send('GET', '/api/current_user');
        const work = current.calendarSettings.calendars.find(
          (entry: { name: string }) => entry.name === 'Work',
        );
        await user.google.events.insert({
          calendarId: work.id,
          requestBody: { summary: 'Elsewhere', ...googleSpan(start, minutes) },
        });
      },
      /** The wizard's advice: the sync writes to "Work"; a meeting lands in the main calendar. */
      meetingInMain: async (start: Date, minutes: number) => {
        const current = await user.send('GET', '/api/current_user');
        const work = current.calendarSettings.calendars.find(
          (entry: { name: string }) => entry.name === 'Work',
        );
        await user.send('PATCH', '/api/calendar/id', { calendarId: work.id });
        await user.google.events.insert({
          calendarId: email,
          requestBody: { summary: 'Main', ...googleSpan(start, minutes) },
        });
        return current.calendarSettings.calendars as { id: string; primary: boolean }[];
      },
    };
  },
  microsoft: async (app: App, email: string) => {
    const user = await microsoftSyncingUser(app, email);
    return {
      ...user,
      meeting: (start: Date, minutes: number, free = false) =>
        user.graph('POST', `${user.calendarPath}/events`, {
          subject: 'Meeting',
          categories: ['Red category'],
          ...graphSpan(start, minutes),
          ...(free && { showAs: 'free' }),
        }),
      startOf: async (title: string) => {
        const event = (await user.events()).find((each) => each.subject === title);
        return event ? new Date(`${event.start.dateTime.slice(0, 19)}Z`).toISOString() : null;
      },
      idOf: async (title: string) => (await user.events()).find((each) => each.subject === title)?.id ?? '',
      /** A meeting in the mailbox's default calendar, once the user chose another one for the sync. */
      meetingElsewhere: async (start: Date, minutes: number) => {
        const current = await user.send('GET', '/api/current_user');
        const [first, second] = current.calendarSettings.calendars as { id: string }[];
        await user.send('PATCH', '/api/calendar/id', { calendarId: second?.id });
        await user.graph('POST', `/me/calendars/${encodeURIComponent(first?.id ?? '')}/events`, {
          subject: 'Elsewhere',
          ...graphSpan(start, minutes),
        });
      },
      /** The wizard's advice: the sync writes to a calendar of its own; a meeting lands in the default one. */
      meetingInMain: async (start: Date, minutes: number) => {
        const current = await user.send('GET', '/api/current_user');
        const calendars = current.calendarSettings.calendars as { id: string; primary: boolean }[];
        const main = calendars.find((entry) => entry.primary);
        const own = calendars.find((entry) => !entry.primary);
        await user.send('PATCH', '/api/calendar/id', { calendarId: own?.id });
        await user.graph('POST', `/me/calendars/${encodeURIComponent(main?.id ?? '')}/events`, {
          subject: 'Main',
          ...graphSpan(start, minutes),
        });
        return calendars;
      },
    };
  },
};

const EVERY_DAY = [1, 2, 3, 4, 5, 6, 7];
const at = (hour: number) => tomorrowAt(hour).instant.toISOString();
const halfPast = (hour: number) => new Date(tomorrowAt(hour).instant.getTime() + 30 * 60_000).toISOString();

for (const database of await testDatabases('plan my day while syncing')) {
  describe.skipIf(!database.enabled)(`plan my day (${database.name})`, () => {
    const app = setUpTestApp(database, {
      env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000' },
      overrides: { role: 'web' },
    });
    /** Plan my day with every day a working day; on unless `active` says otherwise. */
    const planMyDay = (
      user: { send: Send },
      hours: { start: string; end: string },
      options: { active?: boolean; otherCalendarsBusy?: boolean | null; gapMinutes?: number } = {},
    ) =>
      user.send('PATCH', '/api/settings/autoplan', {
        active: options.active ?? true,
        days: EVERY_DAY,
        ...hours,
        gapMinutes: options.gapMinutes ?? 0,
        otherCalendarsBusy: options.otherCalendarsBusy === undefined ? false : options.otherCalendarsBusy,
      });

    for (const [provider, syncingUserOn] of Object.entries(calendars)) {
      it(`places a dated task next to a meeting, moves it off a new one, and leaves the user's own time alone (${provider})`, async () => {
        const user = await syncingUserOn(app(), `autoplan-${provider}@example.com`);
        const day = tomorrowAt(9).day;
        await user.meeting(tomorrowAt(9).instant, 60);
        // Shown as free: it does not keep the task from that time.
        await user.meeting(tomorrowAt(10).instant, 60, true);
        const report = await user.todoist.addTask({ content: 'Report', labels: ['30min'], dueDate: day });
        await user.run();
        expect((await user.todoist.getTask(report.id)).due?.date).toBe(day);
        // Before it is switched on, the preview shows where the task would go; nothing is written.
        await planMyDay(user, { start: '09:00', end: '17:00' }, { active: false });
        expect(await user.send('GET', '/api/sync/preview/autoplan')).toEqual({
          placements: [{ taskId: report.id, title: 'Report', start: at(10), end: halfPast(10) }],
          unplaced: [],
        });
        await user.run();
        expect((await user.todoist.getTask(report.id)).due?.date).toBe(day);
        // Switched on, it reads Todoist in full: a dated task that has not changed since is placed too.
        await planMyDay(user, { start: '09:00', end: '17:00' });
        await user.run();
        await user.run();
        expect((await user.todoist.getTask(report.id)).due?.date).toBe(`${day}T10:00:00`);
        expect(await user.startOf('Report')).toBe(at(10));

        // A meeting lands on the block the app placed: the block moves to the next free time that day.
        await user.meeting(tomorrowAt(10).instant, 60);
        await user.run();
        await user.run();
        expect((await user.todoist.getTask(report.id)).due?.date).toBe(`${day}T11:00:00`);
        expect(await user.startOf('Report')).toBe(at(11));

        // The user drags it to 15:00: from then on it is theirs, even when a meeting lands on it.
        await user.moveEvent(await user.idOf('Report'), tomorrowAt(15).instant, 30);
        await user.run();
        expect((await user.todoist.getTask(report.id)).due?.date).toBe(`${day}T15:00:00`);
        await user.meeting(tomorrowAt(15).instant, 60);
        await user.run();
        await user.run();
        expect(await user.startOf('Report')).toBe(at(15));
      });

      it(`counts the account's other calendars as busy when chosen (${provider})`, async () => {
        const user = await syncingUserOn(app(), `autoplan-elsewhere-${provider}@example.com`);
        const day = tomorrowAt(9).day;
        await user.meetingElsewhere(tomorrowAt(9).instant, 60);
        await planMyDay(user, { start: '09:00', end: '17:00' }, { active: false, otherCalendarsBusy: true });
        const plan = await user.todoist.addTask({ content: 'Plan', labels: ['30min'], dueDate: day });
        const preview = await user.send('GET', '/api/sync/preview/autoplan');
        expect(preview.placements).toEqual([
          { taskId: plan.id, title: 'Plan', start: at(10), end: halfPast(10) },
        ]);
        await planMyDay(user, { start: '09:00', end: '17:00' }, { otherCalendarsBusy: true });
        await user.run();
        await user.run();
        expect((await user.todoist.getTask(plan.id)).due?.date).toBe(`${day}T10:00:00`);
      });

      it(`never books over the main calendar's meetings while syncing into a calendar of its own (${provider})`, async () => {
        const user = await syncingUserOn(app(), `autoplan-own-${provider}@example.com`);
        const day = tomorrowAt(9).day;
        const calendars = await user.meetingInMain(tomorrowAt(9).instant, 60);
        // The user view marks the account's main calendar, as the provider lists it.
        expect(calendars.filter((entry) => entry.primary)).toHaveLength(1);
        // The setting untouched (null): the main calendar's events count as busy.
        await planMyDay(user, { start: '09:00', end: '17:00' }, { otherCalendarsBusy: null });
        const current = await user.send('GET', '/api/current_user');
        expect(current.calendarSettings.autoplan.otherCalendarsBusy).toBeNull();
        const task = await user.todoist.addTask({ content: 'Write', labels: ['30min'], dueDate: day });
        await user.run();
        await user.run();
        expect((await user.todoist.getTask(task.id)).due?.date).toBe(`${day}T10:00:00`);
      });

      it(`moves a placed block once the busy calendars, the gap or the hours change (${provider})`, async () => {
        const user = await syncingUserOn(app(), `autoplan-replan-${provider}@example.com`);
        const day = tomorrowAt(9).day;
        const due = async () => (await user.todoist.getTask(task.id)).due?.date;
        const nineToFive = { start: '09:00', end: '17:00' };
        await user.meetingElsewhere(tomorrowAt(9).instant, 60);
        await planMyDay(user, nineToFive, { otherCalendarsBusy: false });
        const task = await user.todoist.addTask({ content: 'Plan', labels: ['30min'], dueDate: day });
        await user.run();
        await user.run();
        expect(await due()).toBe(`${day}T09:00:00`);
        // Counting the other calendars: the block leaves the meeting there, which nobody edited.
        await planMyDay(user, nineToFive, { otherCalendarsBusy: true });
        await user.run();
        await user.run();
        expect(await due()).toBe(`${day}T10:00:00`);
        // A gap: 15 minutes after the meeting.
        await planMyDay(user, nineToFive, { otherCalendarsBusy: true, gapMinutes: 15 });
        await user.run();
        await user.run();
        expect(await due()).toBe(`${day}T10:15:00`);
        // Hours that start later: into them.
        await planMyDay(user, { start: '11:00', end: '17:00' }, { otherCalendarsBusy: true, gapMinutes: 15 });
        await user.run();
        await user.run();
        expect(await due()).toBe(`${day}T11:00:00`);
      });

      it(`keeps the date of a task that does not fit, and places it once time frees up (${provider})`, async () => {
        const user = await syncingUserOn(app(), `autoplan-full-${provider}@example.com`);
        const day = tomorrowAt(9).day;
        await user.meeting(tomorrowAt(9).instant, 60);
        await planMyDay(user, { start: '09:00', end: '10:00' });
        const read = await user.todoist.addTask({ content: 'Read', labels: ['30min'], dueDate: day });
        await user.run();
        expect((await user.todoist.getTask(read.id)).due?.date).toBe(day);
        const activity = await user.send('GET', '/api/sync/activity');
        expect(activity.autoplanUnplaced).toEqual([{ date: day, tasks: 1, minutes: 30 }]);
        expect(await user.send('GET', '/api/sync/preview/autoplan')).toEqual({
          placements: [],
          unplaced: [{ date: day, minutes: 30, tasks: [{ taskId: read.id, title: 'Read' }] }],
        });

        // Longer working hours: the next run places it after the meeting.
        await planMyDay(user, { start: '09:00', end: '11:00' });
        await user.run();
        await user.run();
        expect((await user.todoist.getTask(read.id)).due?.date).toBe(`${day}T10:00:00`);
        expect(await user.startOf('Read')).toBe(at(10));
        expect((await user.send('GET', '/api/sync/activity')).autoplanUnplaced).toEqual([]);
      });
    }

    it('counts the meetings of every other calendar of a Microsoft 365 account, one shared to read only too, and leaves out one that is gone', async () => {
      const email = 'autoplan-shared-microsoft@example.com';
      const origin = app().emulators?.microsoft.origin ?? '';
      const team = await emulatorControl(origin, 'calendars/shared', { email, name: 'Team' });
      const user = await calendars.microsoft(app(), email);
      const day = tomorrowAt(9).day;
      // The wizard's advice: the sync writes to a calendar of its own, so the others count (null).
      await user.meetingInMain(tomorrowAt(9).instant, 60);
      // A meeting in the calendar shared to read only (the owner puts it there: the user cannot).
      await emulatorControl(origin, `calendars/${team.id}/access`, { canEdit: true });
      await user.graph('POST', `/me/calendars/${encodeURIComponent(team.id)}/events`, {
        subject: 'Team meeting',
        ...graphSpan(tomorrowAt(10).instant, 60),
      });
      await emulatorControl(origin, `calendars/${team.id}/access`, { canEdit: false });
      const current = await user.send('GET', '/api/current_user');
      expect(current.calendarSettings.calendars).toContainEqual(
        expect.objectContaining({ id: team.id, readOnly: true }),
      );
      await planMyDay(user, { start: '09:00', end: '17:00' }, { active: false, otherCalendarsBusy: null });
      const write = await user.todoist.addTask({ content: 'Write', labels: ['30min'], dueDate: day });
      // Both other calendars count, not only the default one: after 9–10 there, and 10–11 in Team.
      expect((await user.send('GET', '/api/sync/preview/autoplan')).placements).toEqual([
        { taskId: write.id, title: 'Write', start: at(11), end: halfPast(11) },
      ]);
      await planMyDay(user, { start: '09:00', end: '17:00' }, { otherCalendarsBusy: null });
      const views = async () =>
        (await emulatorControl(origin, 'state')).requests[
          'GET /v1.0/me/calendars/:calendarId/calendarView'
        ] ?? 0;
      const before = await views();
      await user.run();
      // One calendar view each: the chosen calendar's, and those of the account's two others.
      expect((await views()) - before).toBe(3);
      await user.run();
      expect((await user.todoist.getTask(write.id)).due?.date).toBe(`${day}T11:00:00`);
      // Its event is in the calendar the sync writes to, at that time.
      const chosen = (await user.send('GET', '/api/current_user')).calendarSettings.calendarId;
      const written = await user.graph('GET', `/me/calendars/${encodeURIComponent(chosen)}/events`);
      expect(written.value.map((event: { subject: string }) => event.subject)).toEqual(['Write']);
      expect(written.value[0].start.dateTime.slice(0, 19)).toBe(at(11).slice(0, 19));

      // Team is gone (its view answers 404): left out, the default calendar still counts, the run goes on.
      await emulatorControl(origin, 'faults', {
        kind: 'status',
        status: 404,
        method: 'GET',
        path: `/v1.0/me/calendars/${encodeURIComponent(team.id)}/calendarView`,
      });
      const read = await user.todoist.addTask({ content: 'Read', labels: ['30min'], dueDate: day });
      await user.run();
      await user.run();
      expect((await user.todoist.getTask(read.id)).due?.date).toBe(`${day}T10:00:00`);
      expect((await user.todoist.getTask(write.id)).due?.date).toBe(`${day}T11:00:00`);
      expect((await user.send('GET', '/api/sync/activity')).problems).toEqual([]);
    });
  });
}
