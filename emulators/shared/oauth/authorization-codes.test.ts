import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthorizationCodes, type CodeRequest } from './authorization-codes.ts';

type Code = CodeRequest & { user: string };

const REQUEST: Code = { clientId: 'client', redirectUri: 'https://app.example/cb', user: 'ada' };

describe('AuthorizationCodes', () => {
  let codes: AuthorizationCodes<Code>;
  let counter: number;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2030-01-01T00:00:00Z') });
    counter = 0;
    codes = new AuthorizationCodes<Code>(() => `code-${++counter}`, 60_000);
  });
  afterEach(() => vi.useRealTimers());

  it('hands the request back once, then says the code was used', () => {
    const code = codes.issue(REQUEST);
    expect(code).toBe('code-1');
    expect(codes.take(code)).toEqual({ status: 'valid', code: REQUEST });
    expect(codes.take(code)).toEqual({ status: 'used' });
  });

  it('refuses an expired code, and counts it used afterwards', () => {
    const code = codes.issue(REQUEST);
    vi.setSystemTime(Date.now() + 60_000);
    expect(codes.take(code)).toEqual({ status: 'expired' });
    expect(codes.take(code)).toEqual({ status: 'used' });
  });

  it('accepts a code until the last millisecond of its life', () => {
    const code = codes.issue(REQUEST);
    vi.setSystemTime(Date.now() + 59_999);
    expect(codes.take(code).status).toBe('valid');
  });

  it('does not know codes it never issued', () => {
    expect(codes.take('made-up')).toEqual({ status: 'unknown' });
  });

  it('counts live codes only, and forgets everything on reset', () => {
    const first = codes.issue(REQUEST);
    codes.issue(REQUEST);
    vi.setSystemTime(Date.now() + 30_000);
    codes.issue(REQUEST);
    expect(codes.liveCount()).toBe(3);
    vi.setSystemTime(Date.now() + 30_000);
    expect(codes.liveCount()).toBe(1);
    codes.take(first);
    codes.reset();
    expect(codes.liveCount()).toBe(0);
    expect(codes.take(first)).toEqual({ status: 'unknown' });
  });

  it('defaults to ten minutes, as the providers do', () => {
    const standard = new AuthorizationCodes<Code>(() => 'c');
    standard.issue(REQUEST);
    vi.setSystemTime(Date.now() + 10 * 60_000 - 1);
    expect(standard.liveCount()).toBe(1);
    vi.setSystemTime(Date.now() + 1);
    expect(standard.take('c')).toEqual({ status: 'expired' });
  });
});
