import type { App } from '#server/app.ts';
import {
  addTimeboxes,
  emulatorControl,
  type Send,
  seedTodoistUser,
  signInAndConnect,
} from '#server/test/sync-user-setup.ts';
import { sameOrigin } from '#server/test/test-app.ts';
import { graphSpan, userCalendar, userGraph } from './calendar-clients.ts';
import type { CalendarKind } from './options.ts';
import { inBatches } from './stats.ts';

/** What a benchmark user needs to act as themselves: their own provider tokens and app session. */
export type BenchUser = {
  userId: string;
  email: string;
  calendarId: string;
  todoistToken: string;
  /** Google Calendar or Microsoft 365, and the user's own token for it. */
  calendar: CalendarKind;
  calendarToken: string;
  sid: string;
  /** The tasks seeded in Todoist (in the order asked for). */
  taskIds: string[];
};

export type UserPlan = {
  prefix: string;
  count: number;
  /** Tasks with a due time and a timebox label: each gets an event. */
  timeboxedTasks: number;
  /** Tasks without a timebox label: not synced. */
  plainTasks: number;
  /**
   * Timed events from tomorrow on that the sync takes, each becomes a task: without a colour (Google),
   * or of the category the user chose (Microsoft, where no category would mean every event).
   */
  uncolouredEvents: number;
  /** Events with a colour (Google) or another category (Microsoft): not synced. */
  colouredEvents: number;
  syncOn: boolean;
  /** Users set up at once. */
  concurrency: number;
};

const DAY = 24 * 3600_000;

/** `YYYY-MM-DD`, `days` after today (UTC). */
export const dayFromToday = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);

/** A time slot spread over the coming weeks, different for every index. */
export function slot(index: number, spanDays: number) {
  const day = 1 + (index % spanDays);
  const quarter = Math.floor(index / spanDays) % 52; // 07:00 .. 19:45
  const hour = 7 + Math.floor(quarter / 4);
  const minute = (quarter % 4) * 15;
  return { day, hour, minute };
}

/** The Outlook category whose events a Microsoft user syncs (the emulator's mailboxes have it). */
export const SYNCED_CATEGORY = 'Blue category';
const OTHER_CATEGORY = 'Red category';

/** An event of the plan: `event`-th of its kind, at the `position`-th slot. */
type PlannedEvent = { event: number; coloured: boolean; start: number; minutes: number };

/** The user's own calendar: a token, the calendar chosen (primary or default) and its events seeded. */
async function seedCalendar(kind: CalendarKind, origin: string, email: string, events: PlannedEvent[]) {
  const title = ({ event, coloured }: PlannedEvent) => `Event ${event}${coloured ? ' (coloured)' : ''}`;
  if (kind === 'microsoft') {
    const { access_token: token } = (await emulatorControl(origin, 'tokens', { email })) as {
      access_token: string;
    };
    const graph = userGraph(origin, token);
    const calendars: { id: string; isDefaultCalendar?: boolean }[] = (await graph('GET', '/me/calendars'))
      .value;
    const chosen = calendars.find((entry) => entry.isDefaultCalendar) ?? calendars[0];
    if (!chosen) throw new Error(`${email} has no Microsoft calendar`);
    await inBatches(events, 16, async (event) => {
      await graph('POST', `/me/calendars/${encodeURIComponent(chosen.id)}/events`, {
        subject: title(event),
        ...graphSpan(event.start, event.minutes),
        categories: [event.coloured ? OTHER_CATEGORY : SYNCED_CATEGORY],
      });
    });
    return { token, calendarId: chosen.id };
  }
  const { access_token: token } = (await emulatorControl(origin, 'tokens', {
    email,
    scopes: ['https://www.googleapis.com/auth/calendar'],
  })) as { access_token: string };
  const google = userCalendar(origin, token);
  await inBatches(events, 16, async (event) => {
    await google.events.insert({
      calendarId: email,
      requestBody: {
        summary: title(event),
        start: { dateTime: new Date(event.start).toISOString() },
        end: { dateTime: new Date(event.start + event.minutes * 60_000).toISOString() },
        ...(event.coloured ? { colorId: '5' } : {}),
      },
    });
  });
  return { token, calendarId: email };
}

/**
 * Users as a person would set them up: a Todoist account with tasks and a calendar (Google, or
 * Microsoft 365) with events, signed in to the app, both accounts connected, 30- and 60-minute
 * timeboxes, the primary calendar chosen (on Microsoft with the category whose events it syncs) and
 * (when asked) sync switched on.
 */
export async function createBenchUsers(
  app: App,
  origins: { todoist: string; calendar: string },
  kind: CalendarKind,
  plan: UserPlan,
): Promise<BenchUser[]> {
  const indexes = Array.from({ length: plan.count }, (_, index) => index);
  return inBatches(indexes, plan.concurrency, async (index) => {
    const email = `${plan.prefix}-${index}@bench.example`;
    const tasks = [
      ...Array.from({ length: plan.timeboxedTasks }, (_, task) => {
        const at = slot(task, 28);
        return {
          content: `Timeboxed ${task}`,
          labels: [task % 2 === 0 ? '30min' : '1h'],
          due_string: `${dayFromToday(at.day)} at ${at.hour}:${String(at.minute).padStart(2, '0')}`,
        };
      }),
      ...Array.from({ length: plan.plainTasks }, (_, task) => ({ content: `Plain ${task}` })),
    ];
    const account = await seedTodoistUser(origins.todoist, email, tasks);

    const events = [
      ...Array.from({ length: plan.uncolouredEvents }, (_, event) => ({ event, coloured: false })),
      ...Array.from({ length: plan.colouredEvents }, (_, event) => ({ event, coloured: true })),
    ].map(({ event, coloured }, position) => {
      const at = slot(position + 7, 90);
      const start =
        new Date(`${dayFromToday(at.day)}T00:00:00Z`).getTime() + (at.hour * 60 + at.minute) * 60_000;
      return { event, coloured, start, minutes: event % 2 === 0 ? 30 : 60 };
    });
    const own = await seedCalendar(kind, origins.calendar, email, events);

    const cookies = await signInAndConnect(app, { email, name: 'Bench User' }, kind);
    const send: Send = async (method, url, payload) => {
      const response = await app.server.inject({ method, url, cookies, headers: sameOrigin, payload });
      if (response.statusCode !== 200)
        throw new Error(`${url} answered ${response.statusCode}: ${response.body}`);
      return response.json();
    };
    await addTimeboxes(send);
    const user = await send('PATCH', '/api/calendar/id', { calendarId: own.calendarId });
    if (kind === 'microsoft') await send('PATCH', '/api/calendar/category', { category: SYNCED_CATEGORY });
    if (plan.syncOn) await send('PATCH', '/api/settings/onsyncactive', { setting: true });
    return {
      userId: user.id,
      email,
      calendarId: own.calendarId,
      todoistToken: account.accessToken,
      calendar: kind,
      calendarToken: own.token,
      sid: cookies.sid,
      taskIds: account.tasks.map((task) => task.id),
    };
  });
}
