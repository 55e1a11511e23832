import { CONNECT_TOO_MANY } from '#shared/api/auth.schema.ts';

/** What `?connected=` or `?connect_error=` on the dashboard says about the connection just made. */
export type ConnectResult =
  | { kind: 'connected'; provider: string | null }
  | { kind: 'error'; provider: string | null; reason: string };

const PROVIDERS: Record<string, string> = {
  todoist: 'Todoist',
  google: 'Google Calendar',
  googlecalendar: 'Google Calendar',
  'google-calendar': 'Google Calendar',
  google_calendar: 'Google Calendar',
  'google calendar': 'Google Calendar',
  'google/calendar': 'Google Calendar',
  microsoft: 'Microsoft',
  outlook: 'Microsoft',
};

export function providerName(value: string | null): string | null {
  if (!value) return null;
  return PROVIDERS[value.trim().toLowerCase()] ?? null;
}

/** Reads the connect outcome from the dashboard's query parameters; null when there is none. */
export function connectResult(params: URLSearchParams): ConnectResult | null {
  const error = params.get('connect_error');
  if (error !== null) {
    return {
      kind: 'error',
      provider: providerName(params.get('provider')) ?? providerName(error),
      reason: error,
    };
  }
  const connected = params.get('connected');
  if (connected !== null) return { kind: 'connected', provider: providerName(connected) };
  return null;
}

/** The toast for a connect outcome. */
export function connectToast(result: ConnectResult): { title: string; message: string } {
  if (result.kind === 'connected') {
    return {
      title: 'Congratulations!',
      message: result.provider
        ? `Your ${result.provider} account was successfully connected.`
        : 'Your account was successfully connected.',
    };
  }
  if (result.reason === CONNECT_TOO_MANY) {
    return {
      title: 'Too many attempts',
      message: 'Too many connection attempts from your network. Please wait a minute and try again.',
    };
  }
  const what = result.provider ? `your ${result.provider} account` : 'your account';
  const declined = /denied|cancel/i.test(result.reason);
  return {
    title: 'The connection failed',
    message: declined
      ? `You did not allow Timeboxer to access ${what}, so nothing was connected.`
      : `${what.charAt(0).toUpperCase()}${what.slice(1)} was not connected. Please try again; if it keeps failing, write to us from the contact page.`,
  };
}

/** The same search without the connect parameters, to put back in the address bar. */
export function withoutConnectParams(params: URLSearchParams): URLSearchParams {
  const rest = new URLSearchParams(params);
  for (const key of ['connected', 'connect_error', 'provider']) rest.delete(key);
  return rest;
}
