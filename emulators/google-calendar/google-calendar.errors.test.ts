import { calendar, type calendar_v3 } from '@googleapis/calendar';
import { beforeEach, describe, expect, it } from 'vitest';
import { setUpEmulator } from '../shared/testing/set-up-emulator.ts';
import {
  control,
  failure,
  type Harness,
  oauthClient,
  signIn,
  startHarness,
} from './google-calendar.test-support.ts';

let harness: Harness;
let api: calendar_v3.Calendar;

setUpEmulator(startHarness, (started) => {
  harness = started;
});
beforeEach(async () => {
  await control(harness.origin, 'faults', undefined, 'DELETE');
  ({ api } = await signIn(harness.origin));
});

const event = {
  summary: 'x',
  start: { dateTime: '2030-05-10T09:00:00Z' },
  end: { dateTime: '2030-05-10T10:00:00Z' },
};
const requestCount = async (key: string) =>
  (
    (await (await control(harness.origin, 'state', undefined, 'GET')).json()) as {
      requests: Record<string, number>;
    }
  ).requests[key];

describe('errors in Google’s shape', () => {
  it('401 authError for a token the emulator did not issue', async () => {
    const client = oauthClient(harness.origin);
    client.setCredentials({ access_token: 'ya29.not-a-real-token' });
    const stranger = calendar({ version: 'v3', auth: client, rootUrl: `${harness.origin}/` });
    const result = await failure(stranger.calendarList.list());
    expect(result.status).toBe(401);
    expect(result.headers?.get('www-authenticate')).toContain('invalid_token');
    expect(result.body).toEqual({
      error: {
        code: 401,
        message: expect.stringContaining('Request had invalid authentication credentials.'),
        errors: [
          {
            domain: 'global',
            reason: 'authError',
            message: 'Invalid Credentials',
            locationType: 'header',
            location: 'Authorization',
          },
        ],
        status: 'UNAUTHENTICATED',
      },
    });
    const bare = await fetch(`${harness.origin}/calendar/v3/colors`);
    expect(bare.status).toBe(401);
  });

  it('404 notFound for an unknown calendar or event', async () => {
    for (const call of [
      api.events.list({ calendarId: 'nobody@example.com' }),
      api.events.get({ calendarId: 'primary', eventId: 'abcdefgh' }),
      api.events.patch({ calendarId: 'primary', eventId: 'abcdefgh', requestBody: { summary: 'x' } }),
    ]) {
      const result = await failure(call);
      expect(result.status).toBe(404);
      expect(result.body?.error).toMatchObject({
        code: 404,
        message: 'Not Found',
        status: 'NOT_FOUND',
        errors: [{ domain: 'global', reason: 'notFound', message: 'Not Found' }],
      });
    }
  });

  it('429 rateLimitExceeded with Retry-After from a fault rule', async () => {
    await control(harness.origin, 'faults', {
      kind: 'rate-limit',
      method: 'POST',
      path: '/calendar/v3/calendars/',
      retryAfterSeconds: 7,
      times: 1,
    });
    const result = await failure(api.events.insert({ calendarId: 'primary', requestBody: event }));
    expect(result.status).toBe(429);
    expect(result.headers?.get('retry-after')).toBe('7');
    expect(result.body?.error).toMatchObject({
      code: 429,
      status: 'RESOURCE_EXHAUSTED',
      errors: [{ domain: 'usageLimits', reason: 'rateLimitExceeded' }],
    });
    expect((await api.events.insert({ calendarId: 'primary', requestBody: event })).status).toBe(200);
  });

  it('a throttled GET is retried by the SDK itself and then succeeds', async () => {
    await control(harness.origin, 'faults', {
      kind: 'rate-limit',
      path: '/calendar/v3/colors',
      retryAfterSeconds: 0,
      times: 1,
    });
    expect((await api.colors.get()).status).toBe(200);
    expect(await requestCount('GET /calendar/v3/colors')).toBe(2);
  });

  it('403 rateLimitExceeded and 5xx backendError from status faults', async () => {
    await control(harness.origin, 'faults', { kind: 'status', status: 403, method: 'POST', times: 1 });
    const limited = await failure(api.events.insert({ calendarId: 'primary', requestBody: event }));
    expect(limited.status).toBe(403);
    expect(limited.body?.error.errors[0]?.reason).toBe('rateLimitExceeded');
    await control(harness.origin, 'faults', { kind: 'status', status: 503, method: 'POST', times: 1 });
    const down = await failure(api.events.insert({ calendarId: 'primary', requestBody: event }));
    expect(down.status).toBe(503);
    expect(down.body?.error.errors[0]?.reason).toBe('backendError');
  });

  it.each([
    ['userRateLimitExceeded', 'usageLimits', 'User Rate Limit Exceeded'],
    ['quotaExceeded', 'usageLimits', 'Calendar usage limits exceeded.'],
    [
      'forbiddenForNonOrganizer',
      'calendar',
      'Shared properties can only be changed by the organizer of the event.',
    ],
  ])('403 %s in Google’s documented words when a fault names it', async (reason, domain, message) => {
    await control(harness.origin, 'faults', {
      kind: 'status',
      status: 403,
      method: 'POST',
      times: 1,
      reason,
    });
    const refused = await failure(api.events.insert({ calendarId: 'primary', requestBody: event }));
    expect(refused.status).toBe(403);
    expect(refused.body?.error).toMatchObject({ code: 403, message, errors: [{ domain, reason, message }] });
  });

  it('stores an insert whose response is lost, so the SDK call fails but the event exists', async () => {
    await control(harness.origin, 'faults', {
      kind: 'lose-response',
      status: 503,
      method: 'POST',
      path: '^/calendar/v3/calendars/[^/]+/events$',
      times: 1,
    });
    const lost = await failure(api.events.insert({ calendarId: 'primary', requestBody: event }));
    expect(lost.status).toBe(503);
    expect(lost.body?.error.errors[0]?.reason).toBe('backendError');
    const { data } = await api.events.list({ calendarId: 'primary' });
    expect(data.items?.map((item) => item.summary)).toEqual(['x']);
  });

  it('403 insufficientPermissions when the token’s scopes do not allow the call', async () => {
    const { api: readOnly } = await signIn(harness.origin, {
      scope: ['https://www.googleapis.com/auth/calendar.readonly'],
    });
    expect((await readOnly.events.list({ calendarId: 'primary' })).status).toBe(200);
    const result = await failure(readOnly.events.insert({ calendarId: 'primary', requestBody: event }));
    expect(result.status).toBe(403);
    expect(result.body?.error).toMatchObject({
      status: 'PERMISSION_DENIED',
      errors: [{ reason: 'insufficientPermissions' }],
    });
  });

  it('400 for a body that is not JSON', async () => {
    const token = (await (
      await control(harness.origin, 'tokens', { email: 'ada.lovelace@example.com' })
    ).json()) as {
      access_token: string;
    };
    const response = await fetch(`${harness.origin}/calendar/v3/calendars/primary/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' },
      body: '{not json',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 400, errors: [{ reason: 'parseError' }] } });
  });
});
