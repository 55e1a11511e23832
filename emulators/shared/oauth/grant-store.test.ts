import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GrantStore } from './grant-store.ts';

type Data = { clientId: string; user: string; scopes: string[] };

function store(refreshTokenLifetimeMs?: number) {
  let access = 0;
  let refresh = 0;
  return new GrantStore<Data>({
    accessTokenLifetimeSeconds: 60,
    newAccessToken: () => `at-${++access}`,
    newRefreshToken: () => `rt-${++refresh}`,
    ...(refreshTokenLifetimeMs === undefined ? {} : { refreshTokenLifetimeMs }),
  });
}

describe('GrantStore', () => {
  let grants: GrantStore<Data>;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2030-01-01T00:00:00Z') });
    grants = store();
  });
  afterEach(() => vi.useRealTimers());

  it('knows an access token until its lifetime ends, then calls it expired', () => {
    const grant = grants.createGrant({ clientId: 'c', user: 'ada', scopes: ['read', 'write'] });
    const token = grants.issueAccessToken(grant);
    expect(grants.accessToken(token)).toEqual({
      status: 'valid',
      grant,
      scopes: ['read', 'write'],
      expiresAt: Date.parse('2030-01-01T00:01:00Z'),
    });
    vi.setSystemTime(Date.parse('2030-01-01T00:01:00Z'));
    expect(grants.accessToken(token)).toEqual({ status: 'expired', grant });
    expect(grants.accessToken('at-unknown')).toEqual({ status: 'unknown' });
  });

  it('issues access tokens with fewer scopes than the grant', () => {
    const grant = grants.createGrant({ clientId: 'c', user: 'ada', scopes: ['read', 'write'] });
    const lookup = grants.accessToken(grants.issueAccessToken(grant, ['read']));
    expect(lookup.status === 'valid' && lookup.scopes).toEqual(['read']);
  });

  it('keeps earlier refresh tokens valid when it issues new ones (Microsoft)', () => {
    const grant = grants.createGrant({ clientId: 'c', user: 'ada', scopes: [] });
    const first = grants.issueRefreshToken(grant);
    const second = grants.issueRefreshToken(grant);
    expect(second).not.toBe(first);
    expect(grants.refreshToken(first)).toEqual({ status: 'valid', grant });
    expect(grants.refreshToken(second)).toEqual({ status: 'valid', grant });
  });

  it('lets a refresh token live for ever without a lifetime (Google), or until it ends', () => {
    const grant = grants.createGrant({ clientId: 'c', user: 'ada', scopes: [] });
    const forever = grants.issueRefreshToken(grant);
    const limited = store(1000);
    const limitedGrant = limited.createGrant({ clientId: 'c', user: 'ada', scopes: [] });
    const shortLived = limited.issueRefreshToken(limitedGrant);
    vi.setSystemTime(Date.now() + 1000);
    expect(grants.refreshToken(forever).status).toBe('valid');
    expect(limited.refreshToken(shortLived)).toEqual({ status: 'unknown' });
  });

  it('revokes a whole grant through any of its tokens, and no other grant', () => {
    const grant = grants.createGrant({ clientId: 'c', user: 'ada', scopes: [] });
    const other = grants.createGrant({ clientId: 'c', user: 'grace', scopes: [] });
    const access = grants.issueAccessToken(grant);
    const refresh = grants.issueRefreshToken(grant);
    const otherAccess = grants.issueAccessToken(other);
    expect(grants.revokeGrant(refresh)).toBe(true);
    expect(grants.accessToken(access)).toEqual({ status: 'unknown' });
    expect(grants.refreshToken(refresh)).toEqual({ status: 'unknown' });
    expect(grants.accessToken(otherAccess).status).toBe('valid');
    expect(grants.revokeGrant(refresh)).toBe(false);
    expect(grants.grants()).toEqual([other]);
  });

  it('removes the grants it is told to, with every token, as a consent removed', () => {
    const ada = grants.createGrant({ clientId: 'c', user: 'ada', scopes: ['read'] });
    const grace = grants.createGrant({ clientId: 'c', user: 'grace', scopes: ['read'] });
    const adaAccess = grants.issueAccessToken(ada);
    const adaRefresh = grants.issueRefreshToken(ada);
    const graceAccess = grants.issueAccessToken(grace);
    expect(grants.removeGrants((grant) => grant.user === 'ada')).toEqual([ada]);
    expect(grants.accessToken(adaAccess)).toEqual({ status: 'unknown' });
    expect(grants.refreshToken(adaRefresh)).toEqual({ status: 'unknown' });
    expect(grants.accessToken(graceAccess).status).toBe('valid');
    expect(grants.grants()).toEqual([grace]);
  });

  it('does not revoke through an expired access token', () => {
    const grant = grants.createGrant({ clientId: 'c', user: 'ada', scopes: [] });
    const access = grants.issueAccessToken(grant);
    vi.setSystemTime(Date.now() + 60_000);
    expect(grants.revokeGrant(access)).toBe(false);
    expect(grants.grants()).toEqual([grant]);
  });

  it('marks refresh tokens revoked like a password change, for one user or all', () => {
    const ada = grants.createGrant({ clientId: 'c', user: 'ada', scopes: [] });
    const grace = grants.createGrant({ clientId: 'c', user: 'grace', scopes: [] });
    const adaToken = grants.issueRefreshToken(ada);
    const graceToken = grants.issueRefreshToken(grace);
    expect(grants.revokeRefreshTokens((grant) => grant?.user === 'ada')).toBe(1);
    expect(grants.refreshToken(adaToken)).toEqual({ status: 'revoked' });
    expect(grants.refreshToken(graceToken).status).toBe('valid');
    expect(grants.hasRefreshToken(ada)).toBe(false);
    expect(grants.hasRefreshToken(grace)).toBe(true);
    expect(grants.revokeRefreshTokens()).toBe(1);
    expect(grants.refreshToken(graceToken)).toEqual({ status: 'revoked' });
  });

  it('expires live access tokens on demand, counting them once unless asked to recount', () => {
    const ada = grants.createGrant({ clientId: 'c', user: 'ada', scopes: [] });
    const grace = grants.createGrant({ clientId: 'c', user: 'grace', scopes: [] });
    const adaToken = grants.issueAccessToken(ada);
    const graceToken = grants.issueAccessToken(grace);
    const refresh = grants.issueRefreshToken(ada);
    expect(grants.expireAccessTokens((grant) => grant?.user === 'ada')).toBe(1);
    expect(grants.accessToken(adaToken).status).toBe('expired');
    expect(grants.accessToken(graceToken).status).toBe('valid');
    expect(grants.refreshToken(refresh).status).toBe('valid');
    expect(grants.expireAccessTokens()).toBe(1);
    expect(grants.expireAccessTokens()).toBe(0);
    expect(grants.expireAccessTokens(undefined, { recount: true })).toBe(2);
  });

  it('lists each grant with its tokens, and forgets all on reset', () => {
    const grant = grants.createGrant({ clientId: 'c', user: 'ada', scopes: ['read'] });
    grants.issueAccessToken(grant);
    grants.issueRefreshToken(grant);
    expect(grants.entries()).toEqual([
      {
        grant: { clientId: 'c', user: 'ada', scopes: ['read'], id: grant.id },
        accessTokens: [{ token: 'at-1', scopes: ['read'], expiresAt: Date.now() + 60_000 }],
        refreshTokens: [{ token: 'rt-1', expiresAt: Number.POSITIVE_INFINITY }],
      },
    ]);
    grants.reset();
    expect(grants.entries()).toEqual([]);
    expect(grants.refreshToken('rt-1')).toEqual({ status: 'unknown' });
  });

  it('finds the live grants of a subject when told whom grants are for (subjectOf)', () => {
    let access = 0;
    const bySubject = new GrantStore<Data>({
      accessTokenLifetimeSeconds: 60,
      newAccessToken: () => `at-${++access}`,
      subjectOf: (grant) => grant.user,
    });
    const first = bySubject.createGrant({ clientId: 'c', user: 'ada', scopes: [] });
    const second = bySubject.createGrant({ clientId: 'd', user: 'ada', scopes: [] });
    bySubject.createGrant({ clientId: 'c', user: 'grace', scopes: [] });
    expect(bySubject.grantsFor('ada')).toEqual([first, second]);
    expect(bySubject.revokeGrant(bySubject.issueAccessToken(first))).toBe(true);
    expect(bySubject.grantsFor('ada')).toEqual([second]);
    expect(bySubject.grantsFor('nobody')).toEqual([]);
    bySubject.reset();
    expect(bySubject.grantsFor('grace')).toEqual([]);
    expect(() => grants.grantsFor('ada')).toThrow('subjectOf');
  });

  it('refuses to issue refresh tokens when the provider has none', () => {
    const tokensOnly = new GrantStore<Data>({ accessTokenLifetimeSeconds: 60, newAccessToken: () => 'at' });
    const grant = tokensOnly.createGrant({ clientId: 'c', user: 'ada', scopes: [] });
    expect(() => tokensOnly.issueRefreshToken(grant)).toThrow('no refresh tokens');
  });
});
