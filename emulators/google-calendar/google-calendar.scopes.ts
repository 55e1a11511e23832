const PREFIX = 'https://www.googleapis.com/auth/';

/** The calendar scopes, with the line the consent page shows for each. */
const CALENDAR_SCOPES: Record<string, string> = {
  calendar: 'See, edit, share, and permanently delete all the calendars you can access using Google Calendar',
  'calendar.readonly': 'See and download any calendar you can access using your Google Calendar',
  'calendar.events': 'View and edit events on all your calendars',
  'calendar.events.readonly': 'View events on all your calendars',
  'calendar.events.owned': 'See, create, change, and delete events on Google calendars you own',
  'calendar.events.owned.readonly': 'See the events on Google calendars you own',
  'calendar.app.created':
    'Make secondary Google calendars, and see, create, change, and delete events on them',
  'calendar.calendarlist': 'See, add, and remove Google calendars you are subscribed to',
  'calendar.calendarlist.readonly': 'See the list of Google calendars you are subscribed to',
};
const IDENTITY_SCOPES: Record<string, string> = {
  openid: 'Associate you with your personal info on Google',
  email: 'See your primary Google Account email address',
  profile: 'See your personal info, including any personal info you have made publicly available',
};
const LONG_IDENTITY: Record<string, string> = {
  email: `${PREFIX}userinfo.email`,
  profile: `${PREFIX}userinfo.profile`,
};

/** What each kind of call needs: any one of these scopes (short names). */
const ACCESS: Record<
  | 'eventsRead'
  | 'eventsWrite'
  | 'eventsMove'
  | 'calendarsWrite'
  | 'calendarListRead'
  | 'freeBusyRead'
  | 'anyCalendar',
  string[]
> = {
  eventsWrite: ['calendar', 'calendar.events', 'calendar.events.owned', 'calendar.app.created'],
  // events.move is not among the calls `calendar.app.created` allows.
  eventsMove: ['calendar', 'calendar.events', 'calendar.events.owned'],
  // calendars.insert, patch, update and delete. Google also lists `calendar.calendars`, which this
  // emulator does not know; like eventsWrite, `calendar.app.created` is not narrowed to the calendars
  // the app made.
  calendarsWrite: ['calendar', 'calendar.app.created'],
  eventsRead: [
    'calendar',
    'calendar.events',
    'calendar.events.owned',
    'calendar.app.created',
    'calendar.readonly',
    'calendar.events.readonly',
    'calendar.events.owned.readonly',
  ],
  calendarListRead: [
    'calendar',
    'calendar.readonly',
    'calendar.calendarlist',
    'calendar.calendarlist.readonly',
  ],
  // freebusy.query. Google also accepts `calendar.freebusy` and `calendar.events.freebusy`, which this
  // emulator's consent does not know; the events scopes (`calendar.events`, ...) do not allow it.
  freeBusyRead: ['calendar', 'calendar.readonly'],
  anyCalendar: Object.keys(CALENDAR_SCOPES),
};
export type Access = keyof typeof ACCESS;

const shortName = (scope: string) => {
  if (scope === LONG_IDENTITY.email) return 'email';
  if (scope === LONG_IDENTITY.profile) return 'profile';
  return scope.startsWith(PREFIX) ? scope.slice(PREFIX.length) : scope;
};

/** Distinct short scope names, or the first one Google would not know. */
export function parseScopes(scope: string): { scopes: string[] } | { unknown: string } {
  const scopes = [...new Set(scope.split(/\s+/).filter(Boolean).map(shortName))];
  const unknown = scopes.find((s) => !(s in CALENDAR_SCOPES) && !(s in IDENTITY_SCOPES));
  return unknown === undefined ? { scopes } : { unknown };
}

export const hasCalendarScope = (scopes: readonly string[]) => scopes.some((s) => s in CALENDAR_SCOPES);

/** The `scope` of token responses and redirects: what was granted, in Google's long form. */
export function formatScopes(scopes: readonly string[]): string {
  return scopes.map((s) => (s in CALENDAR_SCOPES ? `${PREFIX}${s}` : (LONG_IDENTITY[s] ?? s))).join(' ');
}

export function describeScopes(scopes: readonly string[]): string[] {
  return scopes.map((s) => CALENDAR_SCOPES[s] ?? IDENTITY_SCOPES[s] ?? s);
}

export function allows(scopes: readonly string[], access: Access): boolean {
  return scopes.some((scope) => ACCESS[access].includes(scope));
}
