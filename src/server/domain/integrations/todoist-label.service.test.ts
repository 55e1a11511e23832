import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { failure } from '#server/test/refusal.ts';
import { NotConfiguredError, StateConflictError } from '../shared/domain-errors.ts';
import { fakeClock } from '../testing/fake-clock.ts';
import { fakeTodoist } from '../testing/fake-integration-gateways.ts';
import { inMemoryIntegrations } from '../testing/in-memory-integrations.ts';
import { inMemorySettings, todoRow } from '../testing/in-memory-settings.ts';
import type { IntegrationLog } from './integration.service.ts';
import { ProviderFailedError, ProviderRequestError } from './integration-providers.port.ts';
import { createTodoistLabelService } from './todoist-label.service.ts';
import { createTokenCipher } from './token-cipher.ts';
import { createTokenManager, NotConnectedError, ReconnectRequiredError } from './token-manager.ts';

const USER = 'user-1';
const NOW = '2026-03-02T09:00:00.000Z';

async function setup(options: { connected?: boolean; configured?: boolean } = {}) {
  const clock = fakeClock(NOW);
  const integrations = inMemoryIntegrations();
  const settings = inMemorySettings(integrations);
  const cipher = createTokenCipher([{ id: 'test', key: randomBytes(32) }]);
  const tokens = createTokenManager({ integrations, cipher, refreshers: {}, clock });
  const todoist = fakeTodoist([
    { id: 'l1', name: 'deep', color: 'berry_red', item_order: 1 },
    { id: 'l2', name: 'meeting', color: 'blue', item_order: 2 },
  ]);
  if (options.connected ?? true) {
    await tokens.store(
      { userId: USER, provider: 'todoist', kind: 'todoist', accountId: 'todoist-42' },
      { accessToken: 'access-t', refreshToken: null, expiresAt: null },
    );
    // What we last read from Todoist: both labels.
    settings.todo.set(USER, todoRow(USER, { labels: todoist.labelList.map((label) => ({ ...label })) }));
  }
  const logged: string[] = [];
  const log: IntegrationLog = {
    info: (_d, message) => logged.push(message),
    warn: (_d, message) => logged.push(message),
  };
  const service = createTodoistLabelService({
    tokens,
    settings,
    todoist: (options.configured ?? true) ? todoist : null,
    clock,
    log,
  });
  clock.advance(60_000);
  const stored = () => settings.todo.get(USER)?.labels.map(({ id, name, color }) => ({ id, name, color }));
  return { service, settings, integrations, todoist, logged, stored };
}

const LATER = new Date('2026-03-02T09:01:00.000Z');

describe('Todoist label service', () => {
  it('creates a label at Todoist and stores the list Todoist then has', async () => {
    const { service, settings, todoist, stored } = await setup();
    await service.createLabel(USER, { name: 'errands', color: 'lime_green' });
    expect(todoist.calls.slice(0, 1)).toEqual([
      { method: 'addLabel', args: ['access-t', { name: 'errands', color: 'lime_green' }] },
    ]);
    expect(stored()).toEqual([
      { id: 'l1', name: 'deep', color: 'berry_red' },
      { id: 'l2', name: 'meeting', color: 'blue' },
      { id: 'l12', name: 'errands', color: 'lime_green' },
    ]);
    expect(settings.todo.get(USER)?.updatedAt).toEqual(LATER);
  });

  it('treats a label Todoist already has as created, and refreshes the stored list', async () => {
    const { service, todoist, logged, stored, settings } = await setup();
    settings.todo.set(USER, todoRow(USER, { labels: [] })); // our list was out of date
    await service.createLabel(USER, { name: 'deep', color: 'grape' });
    expect(logged).toContain('label already in Todoist; refreshing the stored labels');
    expect(todoist.calls.map((call) => call.method)).toEqual(['addLabel', 'labels']);
    expect(stored()).toEqual([
      { id: 'l1', name: 'deep', color: 'berry_red' },
      { id: 'l2', name: 'meeting', color: 'blue' },
    ]);
  });

  it('recolours one of the user’s labels', async () => {
    const { service, todoist, stored } = await setup();
    await service.updateLabelColor(USER, 'l2', 'grape');
    expect(todoist.calls[0]).toEqual({ method: 'updateLabelColor', args: ['access-t', 'l2', 'grape'] });
    expect(stored()?.find((label) => label.id === 'l2')?.color).toBe('grape');
  });

  it('acts on no label id outside the user’s stored list, and does not call Todoist', async () => {
    const { service, todoist } = await setup();
    for (const change of [
      service.updateLabelColor(USER, 'l-other', 'grape'),
      service.deleteLabel(USER, 'l-other'),
    ]) {
      const error = await failure(change);
      expect(error).toBeInstanceOf(StateConflictError);
      expect(error).toHaveProperty('message', 'This label is not in your Todoist account.');
    }
    expect(todoist.calls).toEqual([]);
  });

  it('refreshes the list and says so when the label to recolour is gone from Todoist', async () => {
    const { service, todoist, stored } = await setup();
    todoist.labelList.splice(0, 1); // deleted in Todoist since our last read
    const error = await failure(service.updateLabelColor(USER, 'l1', 'grape'));
    expect(error).toBeInstanceOf(StateConflictError);
    expect(error).toHaveProperty('message', 'This label no longer exists in your Todoist account.');
    expect(stored()).toEqual([{ id: 'l2', name: 'meeting', color: 'blue' }]);
  });

  it('deletes a label, and succeeds the same when Todoist no longer has it', async () => {
    const { service, todoist, stored } = await setup();
    await service.deleteLabel(USER, 'l1');
    expect(todoist.calls[0]).toEqual({ method: 'deleteLabel', args: ['access-t', 'l1'] });
    expect(stored()).toEqual([{ id: 'l2', name: 'meeting', color: 'blue' }]);

    todoist.labelList.splice(0, 1);
    await service.deleteLabel(USER, 'l2');
    expect(stored()).toEqual([]);
  });

  it('asks to connect Todoist first when it is not connected', async () => {
    const { service } = await setup({ connected: false });
    const error = await failure(service.createLabel(USER, { name: 'errands', color: 'grape' }));
    expect(error).toBeInstanceOf(NotConnectedError);
    expect(error).toHaveProperty('kind', 'todoist');
  });

  it('marks the connection and asks to connect again when Todoist refuses the token', async () => {
    const { service, todoist, integrations } = await setup();
    todoist.refusedTokens.add('access-t');
    const error = await failure(service.createLabel(USER, { name: 'errands', color: 'grape' }));
    expect(error).toBeInstanceOf(ReconnectRequiredError);
    expect(integrations.rows.get(`${USER}:todoist`)).toMatchObject({
      needsReconnect: true,
      updatedAt: LATER,
    });
  });

  it('names Todoist as the provider that failed', async () => {
    const { service, todoist, stored } = await setup();
    todoist.failWith = new ProviderRequestError('Could not add a label', 500);
    const error = await failure(service.createLabel(USER, { name: 'errands', color: 'grape' }));
    expect(error).toBeInstanceOf(ProviderFailedError);
    expect(error).toMatchObject({ kind: 'todoist' });
    expect(stored()).toHaveLength(2);
  });

  it('refuses label changes when Todoist is not configured', async () => {
    const { service } = await setup({ configured: false });
    const error = await failure(service.refreshLabels(USER));
    expect(error).toBeInstanceOf(NotConfiguredError);
    expect(error).toHaveProperty('feature', 'todoist');
  });
});
