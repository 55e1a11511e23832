/**
 * Our sync token for Graph is the whole `@odata.deltaLink` plus a fragment naming the start of the
 * window the round began with: `https://graph.microsoft.com/v1.0/...delta?$deltatoken=…#window=2030-05-01`.
 * A delta link keeps the window of its first round forever, so once the window is old we read in full
 * again, which moves it forward (the engine sees SyncTokenExpiredError and does that).
 */

const DAY_MS = 24 * 3600 * 1000;
/** The window starts a day before today (UTC), so that every zone's today is inside it. */
const WINDOW_BEFORE_DAYS = 1;
const WINDOW_AFTER_DAYS = 366;
/** After this, a token's window ends less than 11 months ahead: read in full to slide it. */
const WINDOW_MAX_AGE_DAYS = 28;
const FRAGMENT = 'window=';

export type DeltaStart =
  | { kind: 'first'; window: { startDateTime: string; endDateTime: string }; windowStart: Date }
  | { kind: 'next'; link: string; windowStart: Date }
  | { kind: 'stale'; reason: string };

const startOfDay = (at: Date) => Math.floor(at.getTime() / DAY_MS) * DAY_MS;

/** What to ask Graph for: a first round over a fresh window, or the stored link. */
export function deltaRequest(token: string | null, graphUrl: string, now: Date): DeltaStart {
  const today = startOfDay(now);
  if (token === null) {
    const from = today - WINDOW_BEFORE_DAYS * DAY_MS;
    const to = today + WINDOW_AFTER_DAYS * DAY_MS;
    return {
      kind: 'first',
      window: { startDateTime: new Date(from).toISOString(), endDateTime: new Date(to).toISOString() },
      windowStart: new Date(from),
    };
  }
  const [link = '', fragment = ''] = token.split('#');
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return { kind: 'stale', reason: 'The stored delta link is not a URL' };
  }
  // The client sends the access token with the link: only ever to the Graph we are configured for.
  if (url.protocol !== 'https:' || url.origin !== new URL(graphUrl).origin) {
    return { kind: 'stale', reason: 'The stored delta link points elsewhere' };
  }
  const windowStart = fragment.startsWith(FRAGMENT)
    ? Date.parse(fragment.slice(FRAGMENT.length))
    : Number.NaN;
  if (Number.isNaN(windowStart) || windowStart < today - WINDOW_MAX_AGE_DAYS * DAY_MS) {
    return { kind: 'stale', reason: 'The delta window is old: read in full to move it' };
  }
  return { kind: 'next', link, windowStart: new Date(windowStart) };
}

export function writeDeltaToken(deltaLink: string, windowStart: Date): string {
  return `${deltaLink.split('#')[0]}#${FRAGMENT}${windowStart.toISOString().slice(0, 10)}`;
}
