import { expect } from 'vitest';
import type { App } from '#server/app.ts';
import { CONNECT_PATHS } from '#shared/api/auth.schema.ts';
import { connectThroughEmulator } from './sign-in.ts';
import { microsoftSyncingUser, type SyncingUser, syncingUser } from './sync-fixtures.ts';
import { CATEGORIES, type CalendarKind, calendarClient, type ModelCalendar } from './sync-model-calendars.ts';
import { sameOrigin } from './test-app.ts';

/** The user of the model-based sync tests: their Todoist, their session in the app and their calendar. */
export type ModelUser = {
  userId: string;
  /** The user's Todoist account (and first calendar account). */
  email: string;
  todoist: SyncingUser['todoist'];
  todoistOrigin: string;
  send: SyncingUser['send'];
  /**
   * What the dashboard does when it opens (§7): reads the user, then has the app read Todoist again (the
   * labels and the project list), ignoring an error as the dashboard does (a provider fault may hit it).
   */
  openDashboard(): Promise<void>;
  /** A DELETE of the signed-in user (the app's `DELETE` routes); fails unless it answers 200. */
  remove(url: string): Promise<unknown>;
  /** The calendar account connected now, through the user's own client (replaced by `connectCalendar`). */
  calendar: ModelCalendar;
  /** Removes the calendar integration on the dashboard (the app keeps the links and switches sync off). */
  disconnectCalendar(): Promise<void>;
  /** Connects the same calendar account again through the app and the provider's consent page. */
  reconnectCalendar(): Promise<void>;
  /**
   * Connects another calendar account (`email`, of `kind`) once the integration was removed, and
   * chooses its first calendar and the first style on the dashboard; `calendar` becomes its client.
   */
  connectCalendar(kind: CalendarKind, email: string): Promise<void>;
};

/**
 * A signed-in user syncing Todoist with the given calendar, as in `syncingUser` (on Microsoft, as in
 * `microsoftSyncingUser` with the first category), keeping the session's cookies to act on the
 * calendar integration: removing it, connecting the same account again, or another one.
 */
export async function modelUser(
  app: App,
  kind: CalendarKind,
  email: string,
  onComplete: string,
): Promise<ModelUser> {
  const { userId, todoist, send, cookies } =
    kind === 'google'
      ? await syncingUser(app, email, { onComplete })
      : await microsoftSyncingUser(app, email, { onComplete, category: CATEGORIES[0] });
  const todoistOrigin = app.emulators?.todoist.origin ?? '';
  const user: ModelUser = {
    userId,
    email,
    todoist,
    todoistOrigin,
    send,
    calendar: await calendarClient(app, kind, email, send, userId),
    async openDashboard() {
      await send('GET', '/api/current_user');
      await app.server.inject({
        method: 'GET',
        url: '/api/todoist/updateuserprofile',
        cookies,
        headers: sameOrigin,
      });
    },
    async remove(url) {
      const response = await app.server.inject({ method: 'DELETE', url, cookies, headers: sameOrigin });
      expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
      return response.json();
    },
    async disconnectCalendar() {
      const current = await send('GET', `${CONNECT_PATHS[user.calendar.kind]}/revoke`);
      expect(current.calendarSettings.connected, 'the calendar is no longer connected').toBe(false);
      expect(current.syncActive, 'sync is off once the calendar is removed').toBe(false);
    },
    async reconnectCalendar() {
      const { kind: connected, email: account } = user.calendar;
      const { location } = await connectThroughEmulator(app.server, connected, { email: account }, cookies);
      expect(location, 'the calendar connects again').toBe(`/dashboard?connected=${connected}`);
    },
    async connectCalendar(next, account) {
      const { location } = await connectThroughEmulator(app.server, next, { email: account }, cookies);
      expect(location, 'another calendar account connects').toBe(`/dashboard?connected=${next}`);
      const calendar = await calendarClient(app, next, account, send, userId);
      await send('PATCH', '/api/calendar/id', { calendarId: calendar.choices[0] });
      await calendar.chooseFilter(0);
      user.calendar = calendar;
    },
  };
  return user;
}
