import { describe, expect, it } from 'vitest';
import { connectResult, connectToast, withoutConnectParams } from './connect-result.ts';

const params = (search: string) => new URLSearchParams(search);

describe('connectResult', () => {
  it('reads nothing from an ordinary dashboard address', () => {
    expect(connectResult(params(''))).toBeNull();
  });

  it.each([
    ['connected=todoist', 'Todoist'],
    ['connected=google', 'Google Calendar'],
    ['connected=google-calendar', 'Google Calendar'],
    ['connected=Google%20Calendar', 'Google Calendar'],
    ['connected=microsoft', 'Microsoft'],
    ['connected=1', null],
  ])('%s → %s', (search, provider) => {
    expect(connectResult(params(search))).toEqual({ kind: 'connected', provider });
  });

  it('congratulates with the spec title', () => {
    expect(connectToast({ kind: 'connected', provider: 'Todoist' })).toEqual({
      title: 'Congratulations!',
      message: 'Your Todoist account was successfully connected.',
    });
    expect(connectToast({ kind: 'connected', provider: null }).message).toBe(
      'Your account was successfully connected.',
    );
  });

  it('explains a failure, and a refusal at the provider', () => {
    const denied = connectResult(params('connect_error=access_denied&provider=microsoft'));
    expect(denied).toEqual({ kind: 'error', provider: 'Microsoft', reason: 'access_denied' });
    expect(denied && connectToast(denied).message).toContain('did not allow');
    const failed = connectResult(params('connect_error=todoist'));
    expect(failed && connectToast(failed)).toEqual({
      title: 'The connection failed',
      message: expect.stringContaining('Your Todoist account was not connected.'),
    });
  });

  it('says that there were too many attempts, and to wait a minute', () => {
    const tooMany = connectResult(params('connect_error=too-many&provider=google'));
    expect(tooMany && connectToast(tooMany)).toEqual({
      title: 'Too many attempts',
      message: 'Too many connection attempts from your network. Please wait a minute and try again.',
    });
  });

  it('removes only the connect parameters', () => {
    expect(withoutConnectParams(params('connected=todoist&tab=x')).toString()).toBe('tab=x');
  });
});
