import { randomBytes } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { inMemoryIntegrations } from '../testing/in-memory-integrations.ts';
import {
  GrantRevokedError,
  type ProviderTokens,
  ProviderUnauthorizedError,
} from './integration-providers.port.ts';
import { createTokenCipher } from './token-cipher.ts';
import {
  createTokenManager,
  NotConnectedError,
  ReconnectRequiredError,
  type TokenRefresher,
} from './token-manager.ts';

const MINUTE = 60_000;

function setup(refresher?: TokenRefresher) {
  let now = new Date('2030-01-01T10:00:00Z');
  const integrations = inMemoryIntegrations();
  const cipher = createTokenCipher([{ id: 'test', key: randomBytes(32) }]);
  const tokens = createTokenManager({
    integrations,
    cipher,
    refreshers: refresher ? { google: refresher } : {},
    clock: () => now,
  });
  const connect = (provider: 'google' | 'todoist', initial: ProviderTokens) =>
    tokens.store(
      { userId: 'u1', provider, kind: provider === 'todoist' ? 'todoist' : 'calendar', accountId: 'a' },
      initial,
    );
  return {
    tokens,
    integrations,
    cipher,
    connect,
    advance: (ms: number) => {
      now = new Date(now.getTime() + ms);
    },
    now: () => now,
  };
}

const refreshed = (n: number, expiresAt: Date): ProviderTokens => ({
  accessToken: `access-${n}`,
  refreshToken: null,
  expiresAt,
});

describe('token manager', () => {
  it('stores tokens encrypted and hands out the access token while it is valid', async () => {
    const refresher = vi.fn<TokenRefresher>();
    const t = setup(refresher);
    await t.connect('google', {
      accessToken: 'access-0',
      refreshToken: 'refresh-0',
      expiresAt: new Date(t.now().getTime() + 60 * MINUTE),
    });
    const row = t.integrations.rows.get('u1:calendar');
    expect(row?.accessTokenEncrypted).toMatch(/^v1\.test\./);
    expect(JSON.stringify(row)).not.toMatch(/access-0|refresh-0/);
    expect(row?.keyId).toBe('test');
    expect(await t.tokens.accessToken('u1', 'calendar')).toBe('access-0');
    expect(refresher).not.toHaveBeenCalled();
  });

  it('refreshes shortly before expiry and persists the new tokens', async () => {
    const t = setup(async (refreshToken) => {
      expect(refreshToken).toBe('refresh-0');
      return { ...refreshed(1, new Date(t.now().getTime() + 60 * MINUTE)), refreshToken: 'refresh-1' };
    });
    await t.connect('google', {
      accessToken: 'access-0',
      refreshToken: 'refresh-0',
      expiresAt: new Date(t.now().getTime() + 10 * MINUTE),
    });
    t.advance(4 * MINUTE);
    expect(await t.tokens.accessToken('u1', 'calendar')).toBe('access-0');
    t.advance(2 * MINUTE); // now inside the 5-minute margin
    expect(await t.tokens.accessToken('u1', 'calendar')).toBe('access-1');
    const row = t.integrations.rows.get('u1:calendar');
    expect(t.cipher.decrypt(row?.accessTokenEncrypted ?? '')).toBe('access-1');
    expect(t.cipher.decrypt(row?.refreshTokenEncrypted ?? '')).toBe('refresh-1');
    expect(row?.expiresAt?.getTime()).toBe(t.now().getTime() + 60 * MINUTE);
    expect(await t.tokens.accessToken('u1', 'calendar')).toBe('access-1');
  });

  it('refreshes once for concurrent callers (single flight)', async () => {
    const refresher = vi.fn<TokenRefresher>(async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      return refreshed(1, new Date('2030-01-01T12:00:00Z'));
    });
    const t = setup(refresher);
    await t.connect('google', {
      accessToken: 'access-0',
      refreshToken: 'refresh-0',
      expiresAt: new Date(t.now().getTime() - MINUTE),
    });
    const results = await Promise.all(
      Array.from({ length: 5 }, () => t.tokens.accessToken('u1', 'calendar')),
    );
    expect(results).toEqual(Array(5).fill('access-1'));
    expect(refresher).toHaveBeenCalledTimes(1);
    // Kept: the provider sent no new refresh token.
    const row = t.integrations.rows.get('u1:calendar');
    expect(t.cipher.decrypt(row?.refreshTokenEncrypted ?? '')).toBe('refresh-0');
  });

  it('marks the connection on invalid_grant and throws a typed error, then stops calling the provider', async () => {
    const refresher = vi.fn<TokenRefresher>(async () => {
      throw new GrantRevokedError('invalid_grant');
    });
    const t = setup(refresher);
    await t.connect('google', {
      accessToken: 'access-0',
      refreshToken: 'refresh-0',
      expiresAt: new Date(t.now().getTime() - MINUTE),
    });
    await expect(t.tokens.accessToken('u1', 'calendar')).rejects.toBeInstanceOf(ReconnectRequiredError);
    expect(t.integrations.rows.get('u1:calendar')?.needsReconnect).toBe(true);
    await expect(t.tokens.accessToken('u1', 'calendar')).rejects.toBeInstanceOf(ReconnectRequiredError);
    expect(refresher).toHaveBeenCalledTimes(1);
  });

  it('leaves the connection alone when a refresh fails for another reason', async () => {
    const t = setup(async () => {
      throw new Error('network down');
    });
    await t.connect('google', {
      accessToken: 'access-0',
      refreshToken: 'refresh-0',
      expiresAt: new Date(t.now().getTime() - MINUTE),
    });
    await expect(t.tokens.accessToken('u1', 'calendar')).rejects.toThrow('network down');
    expect(t.integrations.rows.get('u1:calendar')?.needsReconnect).toBe(false);
  });

  it('refreshes and retries once when the provider answers 401 to a token it should still accept', async () => {
    const refresher = vi.fn<TokenRefresher>(async () => refreshed(1, new Date('2030-01-01T12:00:00Z')));
    const t = setup(refresher);
    await t.connect('google', {
      accessToken: 'access-0',
      refreshToken: 'refresh-0',
      expiresAt: new Date('2030-01-01T11:00:00Z'),
    });
    const seen: string[] = [];
    const result = await t.tokens.withAccessToken('u1', 'calendar', async (token) => {
      seen.push(token);
      if (token === 'access-0') throw new ProviderUnauthorizedError('expired');
      return 'ok';
    });
    expect(result).toBe('ok');
    expect(seen).toEqual(['access-0', 'access-1']);
    expect(refresher).toHaveBeenCalledTimes(1);
  });

  it('marks a token without refresh (Todoist) as needing reconnect when the provider refuses it', async () => {
    const t = setup();
    await t.connect('todoist', { accessToken: 'todoist-0', refreshToken: null, expiresAt: null });
    t.advance(365 * 24 * 60 * MINUTE);
    expect(await t.tokens.accessToken('u1', 'todoist')).toBe('todoist-0'); // never expires
    await expect(
      t.tokens.withAccessToken('u1', 'todoist', async () => {
        throw new ProviderUnauthorizedError('revoked');
      }),
    ).rejects.toBeInstanceOf(ReconnectRequiredError);
    expect(t.integrations.rows.get('u1:todoist')?.needsReconnect).toBe(true);
  });

  it('marks the connection when the provider still refuses the refreshed token', async () => {
    const t = setup(async () => refreshed(1, new Date('2030-01-01T12:00:00Z')));
    await t.connect('google', {
      accessToken: 'access-0',
      refreshToken: 'refresh-0',
      expiresAt: new Date('2030-01-01T11:00:00Z'),
    });
    await expect(
      t.tokens.withAccessToken('u1', 'calendar', async () => {
        throw new ProviderUnauthorizedError('no');
      }),
    ).rejects.toBeInstanceOf(ReconnectRequiredError);
    expect(t.integrations.rows.get('u1:calendar')?.needsReconnect).toBe(true);
  });

  it('does not let a refresh that finishes late overwrite a newer connection', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const t = setup(async () => {
      await gate;
      return refreshed(1, new Date('2030-01-01T12:00:00Z'));
    });
    await t.connect('google', {
      accessToken: 'access-0',
      refreshToken: 'refresh-0',
      expiresAt: new Date(t.now().getTime() - MINUTE),
    });
    const pending = t.tokens.accessToken('u1', 'calendar');
    t.advance(1000);
    await t.connect('google', { accessToken: 'new-0', refreshToken: 'new-r', expiresAt: null });
    release();
    await pending;
    expect(await t.tokens.accessToken('u1', 'calendar')).toBe('new-0');
  });

  it('says when nothing is connected', async () => {
    const t = setup();
    await expect(t.tokens.accessToken('u1', 'todoist')).rejects.toBeInstanceOf(NotConnectedError);
    expect(await t.tokens.tokens('u1', 'todoist')).toBeNull();
  });
});
