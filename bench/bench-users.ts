import { calendar } from '@googleapis/calendar';
import { OAuth2Client } from 'google-auth-library';
import type { App } from '#server/app.ts';
import {
  addTimeboxes,
  emulatorControl,
  type Send,
  seedTodoistUser,
  signInAndConnect,
} from '#server/test/sync-user-setup.ts';
import { sameOrigin } from '#server/test/test-app.ts';
import { inBatches } from './stats.ts';

/** What a benchmark user needs to act as themselves: their own provider tokens and app session. */
export type BenchUser = {
  userId: string;
  email: string;
  calendarId: string;
  todoistToken: string;
  googleToken: string;
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
  /** Timed events without a colour, from tomorrow on: each becomes a task. */
  uncolouredEvents: number;
  /** Events with a colour: not synced (the users want only uncoloured events). */
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

/**
 * Users as a person would set them up: a Todoist account with tasks and a Google calendar with events,
 * signed in to the app, both accounts connected, 30- and 60-minute timeboxes, the primary calendar
 * chosen and (when asked) sync switched on.
 */
export async function createBenchUsers(
  app: App,
  origins: { todoist: string; google: string },
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

    const { access_token: googleToken } = (await emulatorControl(origins.google, 'tokens', {
      email,
      scopes: ['https://www.googleapis.com/auth/calendar'],
    })) as { access_token: string };
    const google = userCalendar(origins.google, googleToken);
    const events = [
      ...Array.from({ length: plan.uncolouredEvents }, (_, event) => ({ event, colorId: undefined })),
      ...Array.from({ length: plan.colouredEvents }, (_, event) => ({ event, colorId: '5' })),
    ];
    await inBatches(events, 16, async ({ event, colorId }, position) => {
      const at = slot(position + 7, 90);
      const start =
        new Date(`${dayFromToday(at.day)}T00:00:00Z`).getTime() + (at.hour * 60 + at.minute) * 60_000;
      await google.events.insert({
        calendarId: email,
        requestBody: {
          summary: `Event ${event}${colorId ? ' (coloured)' : ''}`,
          start: { dateTime: new Date(start).toISOString() },
          end: { dateTime: new Date(start + (event % 2 === 0 ? 30 : 60) * 60_000).toISOString() },
          ...(colorId ? { colorId } : {}),
        },
      });
    });

    const cookies = await signInAndConnect(app, { email, name: 'Bench User' }, 'google');
    const send: Send = async (method, url, payload) => {
      const response = await app.server.inject({ method, url, cookies, headers: sameOrigin, payload });
      if (response.statusCode !== 200)
        throw new Error(`${url} answered ${response.statusCode}: ${response.body}`);
      return response.json();
    };
    await addTimeboxes(send);
    const user = await send('PATCH', '/api/calendar/id', { calendarId: email });
    if (plan.syncOn) await send('PATCH', '/api/settings/onsyncactive', { setting: true });
    return {
      userId: user.id,
      email,
      calendarId: email,
      todoistToken: account.accessToken,
      googleToken,
      sid: cookies.sid,
      taskIds: account.tasks.map((task) => task.id),
    };
  });
}

/** The user's own Google Calendar client (not the app's), against the emulator. */
export function userCalendar(origin: string, token: string) {
  const auth = new OAuth2Client();
  auth.setCredentials({ access_token: token });
  return calendar({ version: 'v3', auth, rootUrl: `${origin}/`, retry: false });
}
