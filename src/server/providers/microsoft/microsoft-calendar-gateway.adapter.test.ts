import { afterEach, describe, expect, it, vi } from 'vitest';
import { GrantRevokedError } from '#server/domain/integrations/integration-providers.port.ts';
import { createMicrosoftCalendarGateway } from './microsoft-calendar-gateway.adapter.ts';

const AUTHORITY = 'https://login.test/common';
const config = {
  clientId: 'id',
  clientSecret: 'secret',
  authorityUrl: AUTHORITY,
  graphUrl: 'https://graph.test',
};
const NOW = new Date('2026-03-02T09:00:00.000Z');

function tokenEndpointAnswers(status: number, body: unknown) {
  const sent: URLSearchParams[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_input: string, init?: RequestInit) => {
      sent.push(new URLSearchParams(String(init?.body)));
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    }),
  );
  return sent;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Microsoft calendar gateway: tokens', () => {
  it('dates the new access token from the injected clock', async () => {
    const sent = tokenEndpointAnswers(200, { access_token: 'a2', refresh_token: 'r2', expires_in: 3600 });
    const gateway = createMicrosoftCalendarGateway(config, () => NOW);
    expect(await gateway.refresh('r1')).toEqual({
      accessToken: 'a2',
      refreshToken: 'r2',
      expiresAt: new Date('2026-03-02T10:00:00.000Z'),
    });
    expect(Object.fromEntries(sent[0] ?? [])).toMatchObject({
      grant_type: 'refresh_token',
      refresh_token: 'r1',
    });
  });

  it('reports a refused refresh token as a revoked grant', async () => {
    tokenEndpointAnswers(400, { error: 'invalid_grant' });
    const gateway = createMicrosoftCalendarGateway(config, () => NOW);
    await expect(gateway.refresh('r1')).rejects.toBeInstanceOf(GrantRevokedError);
  });
});
