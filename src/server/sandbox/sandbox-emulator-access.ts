import type { Clock } from '#server/domain/shared/clock.port.ts';
import type { SandboxCalendar, SandboxEventInput, SandboxEventRef } from '#shared/api/sandbox.schema.ts';

/** Emulated access tokens live an hour; the console asks for a new one well before that. */
const TOKEN_REFRESH_MS = 50 * 60_000;
const WINDOW_PAST_MS = 24 * 60 * 60_000;
const WINDOW_FUTURE_MS = 14 * 24 * 60 * 60_000;

/** What the console does with one calendar service; each provider implements it with its own SDK. */
export type SandboxCalendarService = {
  read(email: string, calendarId?: string): Promise<SandboxCalendar>;
  add(input: SandboxEventInput): Promise<void>;
  update(id: string, input: SandboxEventInput): Promise<void>;
  remove(ref: SandboxEventRef): Promise<void>;
};

/** The events the console lists: from yesterday to two weeks ahead. */
export function calendarWindow(now: Date): { from: string; to: string } {
  return {
    from: new Date(now.getTime() - WINDOW_PAST_MS).toISOString(),
    to: new Date(now.getTime() + WINDOW_FUTURE_MS).toISOString(),
  };
}

/**
 * One token per e-mail address, minted on first use through an emulator's control route and again
 * once older than `maxAgeMs`. A failed mint is forgotten, so the next call tries again.
 */
export function tokenCache(
  mint: (email: string) => Promise<string>,
  clock: Clock,
  maxAgeMs = Number.POSITIVE_INFINITY,
) {
  const cache = new Map<string, { token: Promise<string>; at: number }>();
  return (email: string): Promise<string> => {
    const cached = cache.get(email);
    const now = clock().getTime();
    if (cached && now - cached.at <= maxAgeMs) return cached.token;
    const entry = { token: mint(email), at: now };
    cache.set(email, entry);
    entry.token.catch(() => {
      if (cache.get(email) === entry) cache.delete(email);
    });
    return entry.token;
  };
}

/**
 * A calendar emulator's access token per e-mail address, minted by its `tokens` control route (with
 * `grant`, such as the scopes) and minted again well before it expires.
 */
export function calendarTokens(origin: string, clock: Clock, grant: Record<string, unknown> = {}) {
  return tokenCache(
    (email) =>
      postJson<{ access_token: string }>(`${origin}/_emulator/tokens`, { email, ...grant }).then(
        (body) => body.access_token,
      ),
    clock,
    TOKEN_REFRESH_MS,
  );
}

/** Calls an emulator's control route. */
export async function postJson<T>(url: string, body: unknown): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${new URL(url).pathname} answered ${response.status}`);
  return (await response.json()) as T;
}
