import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { failure } from '#server/test/refusal.ts';
import { NotConfiguredError, NotFoundError, StateConflictError } from '../shared/domain-errors.ts';
import { fakeClock } from '../testing/fake-clock.ts';
import { fakeCalendar, fakeTodoist } from '../testing/fake-integration-gateways.ts';
import { inMemoryIntegrations } from '../testing/in-memory-integrations.ts';
import { calendarRow, inMemorySettings } from '../testing/in-memory-settings.ts';
import { inMemoryUsers, userRow } from '../testing/in-memory-users.ts';
import { createIntegrationService, type IntegrationLog } from './integration.service.ts';
import {
  type ConnectFlow,
  ProviderFailedError,
  ProviderRequestError,
  ProviderUnauthorizedError,
} from './integration-providers.port.ts';
import { createTokenCipher } from './token-cipher.ts';
import { createTokenManager, ReconnectRequiredError } from './token-manager.ts';

const USER = 'user-1';
const NOW = '2026-03-02T09:00:00.000Z';

function setup(options: { microsoft?: boolean } = {}) {
  const clock = fakeClock(NOW);
  const integrations = inMemoryIntegrations();
  const settings = inMemorySettings(integrations);
  const users = inMemoryUsers(userRow({ id: USER, syncActive: true }));
  const cipher = createTokenCipher([{ id: 'test', key: randomBytes(32) }]);
  const todoist = fakeTodoist([
    { id: 'l2', name: 'meeting', color: 'blue', item_order: 2 },
    { id: 'l1', name: 'deep', color: 'berry_red', item_order: 1 },
  ]);
  const google = fakeCalendar('google');
  const microsoft = fakeCalendar('microsoft');
  const tokens = createTokenManager({ integrations, cipher, refreshers: {}, clock });
  const logged: { level: string; message: string }[] = [];
  const log: IntegrationLog = {
    info: (_details, message) => logged.push({ level: 'info', message }),
    warn: (_details, message) => logged.push({ level: 'warn', message }),
  };
  const service = createIntegrationService({
    tokens,
    settings,
    users,
    accounts: integrations,
    gateways: { todoist, google, microsoft: (options.microsoft ?? true) ? microsoft : null },
    clock,
    log,
  });
  const flow = (provider: ConnectFlow['provider']): ConnectFlow => ({
    provider,
    state: 's'.repeat(43),
    codeVerifier: 'v'.repeat(43),
    userId: USER,
  });
  const callback = (code: string) => new URL(`https://app.test/auth/callback?code=${code}`);
  const accessTokenOf = async (kind: 'todoist' | 'calendar') =>
    (await tokens.tokens(USER, kind))?.accessToken;
  return {
    service,
    tokens,
    clock,
    integrations,
    settings,
    users,
    cipher,
    todoist,
    google,
    microsoft,
    logged,
    flow,
    callback,
    accessTokenOf,
  };
}

describe('integration service: connecting', () => {
  it('starts a flow for the user with the e-mail as hint, and the provider’s consent page', async () => {
    const { service, google } = setup();
    const { flow, url } = await service.startConnect(
      USER,
      'google',
      'https://app.test/cb',
      'ada@example.com',
    );
    expect(flow).toMatchObject({ provider: 'google', userId: USER, loginHint: 'ada@example.com' });
    expect(flow.state).not.toBe(flow.codeVerifier);
    expect(url.toString()).toBe(`https://google.test/authorize?state=${flow.state}`);
    expect(google.calls).toEqual([{ method: 'authorizationUrl', args: ['google', 'https://app.test/cb'] }]);
  });

  it('refuses to start with a provider that is not configured', async () => {
    const { service } = setup({ microsoft: false });
    const error = await failure(service.startConnect(USER, 'microsoft', 'https://app.test/cb'));
    expect(error).toBeInstanceOf(NotConfiguredError);
    expect(error).toHaveProperty('feature', 'microsoft');
  });

  it('connects Todoist: tokens stored encrypted, the account read and stored with its labels in order', async () => {
    const { service, integrations, settings, flow, callback, accessTokenOf } = setup();
    await service.completeConnect(flow('todoist'), callback('abc'), 'https://app.test/cb');
    const row = integrations.rows.get(`${USER}:todoist`);
    expect(row).toMatchObject({ provider: 'todoist', accountId: 'todoist-42', connectedAt: new Date(NOW) });
    expect(row?.accessTokenEncrypted).not.toContain('access-abc');
    expect(await accessTokenOf('todoist')).toBe('access-abc');
    expect(settings.todo.get(USER)).toMatchObject({
      accountType: 'Premium',
      todoistUserId: 'todoist-42',
      timezone: 'Europe/Berlin',
      labels: [
        { id: 'l1', name: 'deep', color: 'berry_red', item_order: 1 },
        { id: 'l2', name: 'meeting', color: 'blue', item_order: 2 },
      ],
      updatedAt: new Date(NOW),
    });
  });

  it('connects a calendar: tokens and the calendars stored', async () => {
    const { service, integrations, settings, flow, callback } = setup();
    await service.completeConnect(flow('google'), callback('g1'), 'https://app.test/cb');
    expect(integrations.rows.get(`${USER}:calendar`)).toMatchObject({
      provider: 'google',
      accountId: 'google-account',
    });
    expect(settings.calendar.get(USER)).toMatchObject({
      calendars: [{ id: 'google-primary', name: 'Primary', color: null, timeZone: 'Europe/Berlin' }],
      categories: [],
      updatedAt: new Date(NOW),
    });
  });

  it('reconnecting the same calendar provider revokes nothing and keeps the choice', async () => {
    const { service, settings, users, google, flow, callback, accessTokenOf } = setup();
    await service.completeConnect(flow('google'), callback('g1'), 'https://app.test/cb');
    settings.calendar.set(
      USER,
      calendarRow(USER, { ...settings.calendar.get(USER), calendarId: 'google-primary' }),
    );
    await service.completeConnect(flow('google'), callback('g2'), 'https://app.test/cb');
    expect(google.calls.map((call) => call.method)).not.toContain('revoke');
    expect(await accessTokenOf('calendar')).toBe('access-g2');
    expect(settings.calendar.get(USER)?.calendarId).toBe('google-primary');
    expect(users.rows.get(USER)?.syncActive).toBe(true);
  });
});

describe('integration service: removing', () => {
  it('revokes the grant, deletes the tokens, keeps the settings and stops sync', async () => {
    const { service, integrations, settings, users, todoist, flow, callback } = setup();
    await service.completeConnect(flow('todoist'), callback('t1'), 'https://app.test/cb');
    await service.disconnect(USER, 'todoist');
    expect(todoist.calls.at(-1)).toEqual({ method: 'revoke', args: ['access-t1'] });
    expect(integrations.rows.has(`${USER}:todoist`)).toBe(false);
    expect(settings.todo.get(USER)?.todoistUserId).toBe('todoist-42');
    expect(users.rows.get(USER)?.syncActive).toBe(false);
  });

  it('deletes the tokens even when the provider cannot revoke them', async () => {
    const { service, integrations, todoist, logged, flow, callback } = setup();
    await service.completeConnect(flow('todoist'), callback('t1'), 'https://app.test/cb');
    todoist.failing.revoke = true;
    await service.disconnect(USER, 'todoist');
    expect(integrations.rows.has(`${USER}:todoist`)).toBe(false);
    expect(logged).toContainEqual({
      level: 'warn',
      message: 'revoking at the provider failed; deleting the tokens anyway',
    });
  });

  it('leaves a calendar of another provider alone', async () => {
    const { service, integrations, users, google, flow, callback } = setup();
    await service.completeConnect(flow('google'), callback('g1'), 'https://app.test/cb');
    await service.disconnect(USER, 'microsoft');
    expect(integrations.rows.get(`${USER}:calendar`)?.provider).toBe('google');
    expect(google.calls.map((call) => call.method)).not.toContain('revoke');
    expect(users.rows.get(USER)?.syncActive).toBe(true);
  });

  it('before an account is deleted, revokes every grant, best effort, without throwing', async () => {
    const { service, todoist, google, flow, callback } = setup();
    await service.completeConnect(flow('todoist'), callback('t1'), 'https://app.test/cb');
    await service.completeConnect(flow('google'), callback('g1'), 'https://app.test/cb');
    todoist.failing.revoke = true;
    await service.revokeAll(USER);
    expect(todoist.calls.at(-1)).toEqual({ method: 'revoke', args: ['access-t1'] });
    expect(google.calls.at(-1)).toEqual({ method: 'revoke', args: ['access-g1'] });
  });
});

describe('integration service: refreshing what the dashboard shows', () => {
  it('re-reads the Todoist account and stores it, stamped with the clock', async () => {
    const { service, settings, todoist, flow, callback, clock } = setup();
    await service.completeConnect(flow('todoist'), callback('t1'), 'https://app.test/cb');
    todoist.account = { userId: 'todoist-42', premiumStatus: 'not_premium', timezone: 'America/New_York' };
    clock.advance(3_600_000);
    await service.refreshTodoist(USER);
    expect(settings.todo.get(USER)).toMatchObject({
      accountType: 'Free',
      timezone: 'America/New_York',
      updatedAt: new Date('2026-03-02T10:00:00.000Z'),
    });
  });

  it('re-reads the calendars of the connected calendar provider', async () => {
    const { service, settings, microsoft, flow, callback } = setup();
    await service.completeConnect(flow('microsoft'), callback('m1'), 'https://app.test/cb');
    microsoft.account = { ...microsoft.account, categories: [] };
    await service.refreshCalendar(USER);
    expect(settings.calendar.get(USER)?.categories).toEqual([]);
    expect(microsoft.calls.at(-1)).toEqual({ method: 'profile', args: ['access-m1'] });
  });

  it('does nothing without a connection, or with one that must be connected again', async () => {
    const { service, integrations, settings, todoist, flow, callback } = setup();
    await service.refreshTodoist(USER);
    await service.refreshCalendar(USER);
    expect(todoist.calls).toEqual([]);
    await service.completeConnect(flow('todoist'), callback('t1'), 'https://app.test/cb');
    const row = integrations.rows.get(`${USER}:todoist`);
    if (row) row.needsReconnect = true;
    const before = settings.todo.get(USER);
    const calls = todoist.calls.length;
    await service.refreshTodoist(USER);
    expect(todoist.calls).toHaveLength(calls);
    expect(settings.todo.get(USER)).toEqual(before);
  });

  it('names the connection whose provider failed', async () => {
    const { service, todoist, google, flow, callback } = setup();
    await service.completeConnect(flow('todoist'), callback('t1'), 'https://app.test/cb');
    await service.completeConnect(flow('google'), callback('g1'), 'https://app.test/cb');
    todoist.failWith = new ProviderRequestError('Could not read labels', 500);
    google.failWith = new ProviderRequestError('Could not read the Google calendar list', 503);
    const todoistError = await failure(service.refreshTodoist(USER));
    expect(todoistError).toBeInstanceOf(ProviderFailedError);
    expect(todoistError).toHaveProperty('kind', 'todoist');
    expect(await failure(service.refreshCalendar(USER))).toMatchObject({ kind: 'calendar' });
  });
});

describe('integration service: several calendar accounts', () => {
  /** Google connected, its calendar chosen and sync on; then Microsoft 365 connected beside it. */
  async function twoAccounts() {
    const t = setup();
    await t.service.completeConnect(t.flow('google'), t.callback('g1'), 'https://app.test/cb');
    t.settings.calendar.set(
      USER,
      calendarRow(USER, { ...t.settings.calendar.get(USER), calendarId: 'google-primary', color: '5' }),
    );
    t.clock.advance(60_000);
    await t.service.completeConnect(t.flow('microsoft'), t.callback('m1'), 'https://app.test/cb');
    const [sync, added] = await t.integrations.calendarAccounts(USER);
    if (!sync || !added) throw new Error('expected two accounts');
    return { ...t, sync, added };
  }

  it('adds Microsoft 365 beside Google: Google stays the sync’s, with its choice, and nothing is revoked', async () => {
    const { settings, users, google, sync, added, tokens, accessTokenOf } = await twoAccounts();
    expect(sync).toMatchObject({ provider: 'google', position: 0, email: 'ada@google.example' });
    expect(added).toMatchObject({
      provider: 'microsoft',
      position: 1,
      accountId: 'microsoft-account',
      email: 'ada@microsoft.example',
      calendars: [{ id: 'microsoft-primary', name: 'Primary' }],
    });
    expect(added.accessTokenEncrypted).not.toContain('access-m1');
    expect(google.calls.map((call) => call.method)).not.toContain('revoke');
    expect(await accessTokenOf('calendar')).toBe('access-g1');
    expect(await tokens.withAccountToken(USER, added.id, async (token) => token)).toBe('access-m1');
    expect(settings.calendar.get(USER)).toMatchObject({
      calendarId: 'google-primary',
      color: '5',
      calendars: [{ id: 'google-primary' }],
      categories: [],
    });
    expect(users.rows.get(USER)?.syncActive).toBe(true);
  });

  it('adds any number of accounts, of either provider, and the same account again only gets new tokens', async () => {
    const { service, integrations, google, microsoft, flow, callback, tokens, added } = await twoAccounts();
    google.account = { ...google.account, accountId: 'grace@example.com', email: 'grace@example.com' };
    await service.completeConnect(flow('google'), callback('g2'), 'https://app.test/cb');
    await service.completeConnect(flow('microsoft'), callback('m2'), 'https://app.test/cb');
    microsoft.account = { ...microsoft.account, accountId: 'microsoft-other', email: 'ada@work.example' };
    await service.completeConnect(flow('microsoft'), callback('m3'), 'https://app.test/cb');
    const listed = await integrations.calendarAccounts(USER);
    expect(listed.map((row) => [row.provider, row.accountId, row.position])).toEqual([
      ['google', 'google-account', 0],
      ['microsoft', 'microsoft-account', 1],
      ['google', 'grace@example.com', 2],
      ['microsoft', 'microsoft-other', 3],
    ]);
    expect(await tokens.withAccountToken(USER, added.id, async (token) => token)).toBe('access-m2');
  });

  it('removes an added account alone: its grant revoked, its row gone, the sync and its choice untouched', async () => {
    const { service, integrations, settings, users, microsoft, google, added } = await twoAccounts();
    const before = settings.calendar.get(USER);
    await service.removeAccount(USER, added.id);
    expect(microsoft.calls.at(-1)).toEqual({ method: 'revoke', args: ['access-m1'] });
    expect(google.calls.map((call) => call.method)).not.toContain('revoke');
    expect((await integrations.calendarAccounts(USER)).map((row) => row.provider)).toEqual(['google']);
    expect(settings.calendar.get(USER)).toEqual(before);
    expect(users.rows.get(USER)?.syncActive).toBe(true);
  });

  it('removing the sync’s account makes the first added one the sync’s, with no calendar chosen, and stops sync', async () => {
    const { service, integrations, settings, users, google, sync, added, accessTokenOf } =
      await twoAccounts();
    await service.removeAccount(USER, sync.id);
    expect(google.calls.at(-1)).toEqual({ method: 'revoke', args: ['access-g1'] });
    const listed = await integrations.calendarAccounts(USER);
    expect(listed).toEqual([expect.objectContaining({ id: added.id, position: 0, calendars: null })]);
    expect(await accessTokenOf('calendar')).toBe('access-m1');
    expect(settings.calendar.get(USER)).toMatchObject({
      calendarId: null,
      color: '',
      calendars: [{ id: 'microsoft-primary' }],
    });
    expect(users.rows.get(USER)?.syncActive).toBe(false);
  });

  it('the provider’s revoke link removes the sync’s account the same way', async () => {
    const { service, integrations, added } = await twoAccounts();
    await service.disconnect(USER, 'microsoft');
    expect(await integrations.calendarAccounts(USER)).toHaveLength(2);
    await service.disconnect(USER, 'google');
    expect((await integrations.calendarAccounts(USER)).map((row) => [row.id, row.position])).toEqual([
      [added.id, 0],
    ]);
  });

  it('switches sync off before the accounts change places or go, so no run starts on the new account with the old one’s calendar', async () => {
    const seen: string[] = [];
    for (const how of ['sync with the added one', 'remove the sync’s'] as const) {
      const { service, integrations, users, sync, added } = await twoAccounts();
      expect(users.rows.get(USER)?.syncActive, 'sync on before').toBe(true);
      const { makeSyncAccount, delete: remove } = integrations;
      const syncOnNow = () => `${how}: sync ${users.rows.get(USER)?.syncActive ? 'on' : 'off'}`;
      integrations.makeSyncAccount = (...args) => {
        seen.push(syncOnNow());
        return makeSyncAccount(...args);
      };
      integrations.delete = (...args) => {
        seen.push(syncOnNow());
        return remove(...args);
      };
      if (how === 'remove the sync’s') await service.removeAccount(USER, sync.id);
      else await service.syncWithAccount(USER, added.id);
    }
    expect(seen).toEqual(['sync with the added one: sync off', 'remove the sync’s: sync off']);
  });

  it('syncs with an added account without removing one: the two change places, sync off, no calendar chosen, nothing revoked', async () => {
    const { service, integrations, settings, users, google, microsoft, sync, added, accessTokenOf, tokens } =
      await twoAccounts();
    await service.syncWithAccount(USER, added.id);
    const listed = await integrations.calendarAccounts(USER);
    expect(listed.map((row) => [row.id, row.position])).toEqual([
      [added.id, 0],
      [sync.id, 1],
    ]);
    // The old sync account keeps the list the calendar settings held; the new one's goes there.
    expect(listed[0]?.calendars).toBeNull();
    expect(listed[1]?.calendars).toEqual([expect.objectContaining({ id: 'google-primary' })]);
    expect(settings.calendar.get(USER)).toMatchObject({
      calendarId: null,
      color: '',
      category: null,
      calendars: [{ id: 'microsoft-primary' }],
      // Read from the new sync account at once (an added account keeps no categories).
      categories: [{ id: 'c1', displayName: 'Focus' }],
    });
    expect(users.rows.get(USER)?.syncActive).toBe(false);
    expect(await accessTokenOf('calendar')).toBe('access-m1');
    expect(await tokens.withAccountToken(USER, sync.id, async (token) => token)).toBe('access-g1');
    expect([...google.calls, ...microsoft.calls].map((call) => call.method)).not.toContain('revoke');

    // And back in one more call: the Google account is the sync's again, Microsoft 365 an added one.
    await service.syncWithAccount(USER, sync.id);
    expect((await integrations.calendarAccounts(USER)).map((row) => [row.id, row.position])).toEqual([
      [sync.id, 0],
      [added.id, 1],
    ]);
    expect(settings.calendar.get(USER)).toMatchObject({ calendars: [{ id: 'google-primary' }] });
  });

  it('syncing with the sync’s own account changes nothing; another user’s or one to connect again is refused', async () => {
    const { service, integrations, settings, users, sync, added } = await twoAccounts();
    const before = settings.calendar.get(USER);
    await service.syncWithAccount(USER, sync.id);
    expect(settings.calendar.get(USER)).toEqual(before);
    expect(users.rows.get(USER)?.syncActive).toBe(true);
    expect(await failure(service.syncWithAccount('someone-else', added.id))).toBeInstanceOf(NotFoundError);
    const row = integrations.rows.get(added.id);
    if (row) row.needsReconnect = true;
    expect(await failure(service.syncWithAccount(USER, added.id))).toBeInstanceOf(StateConflictError);
    expect((await integrations.calendarAccounts(USER)).map((each) => each.id)).toEqual([sync.id, added.id]);
    expect(users.rows.get(USER)?.syncActive).toBe(true);
  });

  it('refuses to remove an account that is not the user’s', async () => {
    const { service, integrations, added } = await twoAccounts();
    expect(await failure(service.removeAccount('someone-else', added.id))).toBeInstanceOf(NotFoundError);
    expect(await failure(service.removeAccount(USER, '6b1d2a52-0000-4000-8000-000000000000'))).toBeInstanceOf(
      NotFoundError,
    );
    expect(await integrations.calendarAccounts(USER)).toHaveLength(2);
  });

  it('before an account is deleted, revokes every calendar account’s grant', async () => {
    const { service, google, microsoft } = await twoAccounts();
    await service.revokeAll(USER);
    expect(google.calls.at(-1)).toEqual({ method: 'revoke', args: ['access-g1'] });
    expect(microsoft.calls.at(-1)).toEqual({ method: 'revoke', args: ['access-m1'] });
  });

  it('re-reads each added account’s address and calendars; one that must be connected again keeps its list', async () => {
    const { service, integrations, microsoft, added } = await twoAccounts();
    microsoft.account = {
      ...microsoft.account,
      email: 'ada@renamed.example',
      calendars: [{ id: 'microsoft-team', name: 'Team', color: null, timeZone: null, readOnly: true }],
    };
    await service.refreshCalendar(USER);
    expect(integrations.rows.get(added.id)).toMatchObject({
      email: 'ada@renamed.example',
      calendars: [{ id: 'microsoft-team', readOnly: true }],
    });
    const row = integrations.rows.get(added.id);
    if (row) row.needsReconnect = true;
    microsoft.account = { ...microsoft.account, calendars: [] };
    const calls = microsoft.calls.length;
    await service.refreshCalendar(USER);
    expect(microsoft.calls).toHaveLength(calls);
    expect(integrations.rows.get(added.id)?.calendars).toHaveLength(1);
  });

  it('an added account the provider refuses is marked for that account only', async () => {
    const { tokens, integrations, added, accessTokenOf } = await twoAccounts();
    const refusal = await failure(
      tokens.withAccountToken(USER, added.id, async () => {
        throw new ProviderUnauthorizedError('401');
      }),
    );
    expect(refusal).toBeInstanceOf(ReconnectRequiredError);
    expect(refusal).toMatchObject({ kind: 'calendar', accountId: added.id });
    expect(integrations.rows.get(added.id)?.needsReconnect).toBe(true);
    expect(integrations.rows.get(`${USER}:calendar`)?.needsReconnect).toBe(false);
    expect(await accessTokenOf('calendar')).toBe('access-g1');
  });
});
