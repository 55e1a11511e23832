import { describe, expect, it } from 'vitest';
import { checkVerifier, readPkceChallenge } from './pkce.ts';
import { appendQuery, checkRedirectUri } from './redirect-uri.ts';

// RFC 7636 appendix B.
const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

describe('PKCE', () => {
  it('reads a challenge, plain when no method is named', () => {
    expect(readPkceChallenge({ code_challenge: CHALLENGE, code_challenge_method: 'S256' })).toEqual({
      ok: true,
      pkce: { challenge: CHALLENGE, method: 'S256' },
    });
    expect(readPkceChallenge({ code_challenge: 'abc' })).toEqual({
      ok: true,
      pkce: { challenge: 'abc', method: 'plain' },
    });
    expect(readPkceChallenge({})).toEqual({ ok: true, pkce: undefined });
  });

  it('refuses an unknown method and a method without a challenge', () => {
    expect(readPkceChallenge({ code_challenge: 'abc', code_challenge_method: 'S512' })).toEqual({
      ok: false,
      problem: 'unknown_method',
    });
    expect(readPkceChallenge({ code_challenge_method: 'S256' })).toEqual({
      ok: false,
      problem: 'method_without_challenge',
    });
  });

  it('accepts the RFC verifier for its S256 challenge and refuses another', () => {
    const pkce = { challenge: CHALLENGE, method: 'S256' as const };
    expect(checkVerifier(pkce, VERIFIER)).toBe('ok');
    expect(checkVerifier(pkce, `${VERIFIER}x`)).toBe('mismatch');
    expect(checkVerifier(pkce, CHALLENGE)).toBe('mismatch');
    expect(checkVerifier(pkce, undefined)).toBe('missing');
  });

  it('compares a plain challenge as is, and notices a verifier nobody asked for', () => {
    expect(checkVerifier({ challenge: 'same', method: 'plain' }, 'same')).toBe('ok');
    expect(checkVerifier({ challenge: 'same', method: 'plain' }, 'other')).toBe('mismatch');
    expect(checkVerifier(undefined, 'anything')).toBe('unrequested');
    expect(checkVerifier(undefined, undefined)).toBe('ok');
  });
});

describe('redirect URIs', () => {
  it('needs an absolute http(s) URL without a fragment', () => {
    expect(checkRedirectUri(undefined, undefined)).toBe('missing');
    expect(checkRedirectUri('', undefined)).toBe('missing');
    expect(checkRedirectUri('/callback', undefined)).toBe('invalid');
    expect(checkRedirectUri('ftp://app.example/cb', undefined)).toBe('invalid');
    expect(checkRedirectUri('https://app.example/cb#frag', undefined)).toBe('invalid');
    expect(checkRedirectUri('https://app.example/cb', undefined)).toBe('ok');
  });

  it('matches registered URIs exactly', () => {
    const registered = ['https://app.example/cb'];
    expect(checkRedirectUri('https://app.example/cb', registered)).toBe('ok');
    expect(checkRedirectUri('https://app.example/cb/', registered)).toBe('unregistered');
    expect(checkRedirectUri('https://APP.example/cb', registered)).toBe('unregistered');
  });

  it('appends answer parameters without touching the registered query', () => {
    expect(appendQuery('https://app.example/cb?a=%20b', { code: 'x y', state: undefined })).toBe(
      'https://app.example/cb?a=%20b&code=x+y',
    );
    expect(appendQuery('https://app.example/cb', { code: 'c', state: 's' })).toBe(
      'https://app.example/cb?code=c&state=s',
    );
  });
});
