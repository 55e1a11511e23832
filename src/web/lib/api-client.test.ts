import { afterEach, describe, expect, it, vi } from 'vitest';
import { contract } from '#shared/api/contract.ts';
import { testUser } from '../test/current-user.fixture.ts';
import { ApiError, api, errorMessage, UnexpectedResponseError } from './api-client.ts';

type Call = { url: string; init: RequestInit };

/** Answers every fetch with the given status and body, and records what was asked. */
function answer(status: number, body: string): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response(body, { status, headers: { 'content-type': 'application/json' } });
    }),
  );
  return calls;
}

afterEach(() => vi.unstubAllGlobals());

describe('api', () => {
  it('sends the body as JSON with the endpoint’s method and returns the parsed answer', async () => {
    const user = testUser({ calendar: { reminder: 30 } });
    const calls = answer(200, JSON.stringify({ ...user, extra: 'dropped' }));

    const result = await api(contract.calendar.setReminder, { reminder: 30 });

    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe('/api/calendar/reminder');
    expect(calls[0]?.init.method).toBe('PATCH');
    expect(calls[0]?.init.body).toBe('{"reminder":30}');
    expect(calls[0]?.init.headers).toEqual({
      accept: 'application/json',
      'content-type': 'application/json',
    });
    expect(result).toEqual(user);
  });

  it('fills in path parameters (encoded) and the query, leaving out empty values', async () => {
    const calls = answer(200, '{"ok":true}');

    await api(contract.timeboxes.delete, { params: { label: 'deep work/30' } }).catch(() => undefined);
    await api(contract.sandbox.deleteEvent, {
      params: { '*': 'AAMk=/x' },
      query: { email: 'a@b.c', provider: 'microsoft', calendarId: 'cal 1' },
    });
    await api(contract.sandbox.todoist, { query: { email: 'a@b.c', calendarId: '' } }).catch(() => undefined);

    expect(calls.map((call) => [call.init.method, call.url])).toEqual([
      ['DELETE', '/api/timeboxsettings/deep%20work%2F30'],
      [
        'DELETE',
        '/api/sandbox/calendar/events/AAMk%3D%2Fx?email=a%40b.c&provider=microsoft&calendarId=cal+1',
      ],
      ['GET', '/api/sandbox/todoist?email=a%40b.c'],
    ]);
    expect(calls[0]?.init.body).toBeUndefined();
  });

  it('reads an empty body as null (nobody signed in)', async () => {
    answer(200, '');
    await expect(api(contract.user.current)).resolves.toBeNull();
  });

  it('rejects an answer the contract does not allow, naming the call and the field', async () => {
    const { todoSettings, ...rest } = testUser();
    answer(200, JSON.stringify({ ...rest, todoSettings: { ...todoSettings, onComplete: 'archive' } }));

    const error = await api(contract.settings.setSyncActive, { setting: true }).catch(
      (caught: unknown) => caught,
    );

    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as Error).message).toContain('PATCH /api/settings/onsyncactive answered unexpectedly');
    expect((error as Error).message).toContain('todoSettings.onComplete');
    // A person sees the general message, as for any answer the page cannot use.
    expect(errorMessage(error)).toBe(
      'The server could not be reached or answered unexpectedly. Please try again.',
    );
  });

  it('rejects a body that is not JSON', async () => {
    answer(200, '<html>');
    await expect(api(contract.sync.activity)).rejects.toThrow(
      'GET /api/sync/activity answered with something other than JSON',
    );
  });

  it('turns a refusal into an ApiError with the server’s message and field issues', async () => {
    answer(
      400,
      JSON.stringify({
        error: 'bad_request',
        message: 'Please enter a duration',
        issues: [{ field: 'duration', message: 'Please enter a duration' }, { field: 3 }],
      }),
    );

    const error = await api(contract.timeboxes.add, { label: 'x', duration: '' }).catch(
      (caught: unknown) => caught,
    );

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      message: 'Please enter a duration',
      issues: [{ field: 'duration', message: 'Please enter a duration' }],
    });
    expect(errorMessage(error)).toBe('Please enter a duration');
  });

  it('names the status when a refusal carries no message', async () => {
    answer(502, 'Bad gateway');
    const error = await api(contract.config.get).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 502, message: 'The request failed (502).', issues: [] });
  });
});
