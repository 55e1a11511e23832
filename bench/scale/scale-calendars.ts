import { ACCESS_TOKEN_LIFETIME_SECONDS } from '#emulators/microsoft/microsoft.identity-store.ts';
import { emulatorControl, graphClient } from '#server/test/sync-user-setup.ts';
import type { CalendarKind } from '../options.ts';
import type { EmulatorEndpoints } from '../protocol.ts';
import { inBatches } from '../stats.ts';

/**
 * Each scale user's own calendar account in the emulator (Google Calendar or Microsoft 365): their
 * tokens, and the template's calendar identifiers mapped to theirs, so that a copied user reads and
 * writes their own calendar and no one else's.
 */

/** What the template's rows name on the calendar side. */
export type TemplateCalendar = {
  email: string;
  /** The calendar integration's account id (Google: the e-mail or an id; Microsoft: the Graph user id). */
  accountId: string;
  /** The calendars and Outlook categories of calendar_settings (Microsoft's ids are per mailbox). */
  calendars: { id: string; name: string }[];
  categories: { id: string; displayName: string }[];
};

/** A copy's calendar account: its tokens and what each template identifier becomes for it. */
export type OwnCalendar = {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: string;
  replace: [string, string][];
};

/** Users whose calendars are set up at once. */
const CONCURRENCY = 16;

const expiresIn = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();

/**
 * A Google calendar per e-mail: the emulator makes it with the token. Its id is the e-mail (replaced
 * with the user's e-mail already); an account id other than the e-mail gets one of its own.
 */
async function googleCalendars(
  endpoints: EmulatorEndpoints,
  template: TemplateCalendar,
  emails: { email: string; index: number }[],
): Promise<OwnCalendar[]> {
  return inBatches(emails, CONCURRENCY, async ({ email, index }) => {
    const token = (await emulatorControl(endpoints.googleCalendar.origin, 'tokens', {
      email,
      clientId: endpoints.google.clientId,
    })) as { access_token: string; expires_in: number };
    const replace: [string, string][] =
      template.accountId === template.email ? [] : [[template.accountId, `scale-calendar-${index}`]];
    return {
      accessToken: token.access_token,
      refreshToken: null,
      expiresAt: expiresIn(token.expires_in),
      replace,
    };
  });
}

/**
 * A Microsoft mailbox per e-mail, made with its token (for the app's client, with a refresh token as
 * the app's connection gets). Its user id, calendar ids and category ids are its own: each of the
 * template's is mapped to the mailbox's of the same name, read through Graph as the user.
 */
async function microsoftCalendars(
  endpoints: EmulatorEndpoints,
  template: TemplateCalendar,
  emails: { email: string; index: number }[],
): Promise<OwnCalendar[]> {
  const origin = endpoints.microsoft.origin;
  return inBatches(emails, CONCURRENCY, async ({ email }) => {
    const token = (await emulatorControl(origin, 'tokens', {
      email,
      clientId: endpoints.microsoft.clientId,
    })) as { access_token: string; refresh_token: string; user_id: string };
    const graph = graphClient(endpoints.microsoft.graphBaseUrl, token.access_token);
    const [calendars, categories] = await Promise.all([
      graph('GET', '/me/calendars?$top=100') as Promise<{ value: { id: string; name: string }[] }>,
      graph('GET', '/me/outlook/masterCategories') as Promise<{
        value: { id: string; displayName: string }[];
      }>,
    ]);
    const replace: [string, string][] = [[template.accountId, token.user_id]];
    for (const calendar of template.calendars) {
      const own = calendars.value.find((entry) => entry.name === calendar.name);
      if (!own) throw new Error(`${email} has no calendar named ${calendar.name}`);
      replace.push([calendar.id, own.id]);
    }
    for (const category of template.categories) {
      const own = categories.value.find((entry) => entry.displayName === category.displayName);
      if (!own) throw new Error(`${email} has no category named ${category.displayName}`);
      replace.push([category.id, own.id]);
    }
    return {
      accessToken: token.access_token,
      refreshToken: token.refresh_token,
      expiresAt: expiresIn(ACCESS_TOKEN_LIFETIME_SECONDS),
      replace,
    };
  });
}

/** The calendar account of each e-mail (`index`: the user's number in the run), in the order given. */
export function ownCalendars(
  kind: CalendarKind,
  endpoints: EmulatorEndpoints,
  template: TemplateCalendar,
  emails: { email: string; index: number }[],
): Promise<OwnCalendar[]> {
  return kind === 'microsoft'
    ? microsoftCalendars(endpoints, template, emails)
    : googleCalendars(endpoints, template, emails);
}
