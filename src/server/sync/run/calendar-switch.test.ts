import { describe, expect, it } from 'vitest';
import { inMemorySyncLinks } from '#server/test/in-memory-sync-store.ts';
import { syncSettings } from '#server/test/sync-settings.fixture.ts';
import type { CalendarTarget } from '../calendar-target.port.ts';
import { syncLink } from '../plan/plan.fixture.ts';
import { newSyncState } from '../sync-state.ts';
import { relocatePairs } from './calendar-switch.ts';

const USER = 'u1';
const NOW = new Date('2026-07-16T07:00:00Z');
const HOME = { provider: 'google', accountId: 'ada@example.com' } as const;
const WORK = { provider: 'microsoft', accountId: 'ada-work' } as const;

/** The switch with its pairs in memory; nothing of the calendar is called when accounts change. */
function switching() {
  const links = inMemorySyncLinks(() => NOW);
  const saved: unknown[] = [];
  const deps = {
    links,
    states: { save: async (_user: string, patch: unknown) => void saved.push(patch) },
    activity: { add: async () => {} },
    withToken: () => Promise.reject(new Error('no provider call expected')),
  };
  /** A run with the sync in `calendarId` of `account`, its last run in the state's. */
  const run = async (
    account: typeof HOME | typeof WORK,
    calendarId: string,
    last: { account: typeof HOME | typeof WORK; calendarId: string },
  ) =>
    relocatePairs(deps, {
      userId: USER,
      settings: syncSettings({ calendarProvider: account.provider, calendarId }),
      calendar: {} as CalendarTarget,
      state: newSyncState(USER, NOW, {
        calendarProvider: last.account.provider,
        calendarAccountId: last.account.accountId,
        calendarId: last.calendarId,
      }),
      calendarAccountId: account.accountId,
      links: await links.all(USER),
      now: NOW,
    });
  return { links, run, saved };
}

describe('leaving pairs behind and coming back to them', () => {
  it('parks the pairs in the account left, and takes them up again on the way back', async () => {
    const { links, run, saved } = switching();
    await links.insertPending(USER, syncLink({ id: 'a1', taskId: 't1', eventId: 'g1', calendarId: 'home' }));
    await links.insertPending(USER, syncLink({ id: 'a2', taskId: 't2', eventId: 'g2', calendarId: 'home' }));

    const away = await run(WORK, 'work', { account: HOME, calendarId: 'home' });
    expect(away).toEqual({ links: [], readAllTasks: true });
    expect(saved).toContainEqual(
      expect.objectContaining({ leftBehind: expect.objectContaining({ events: 2 }) }),
    );
    expect((await links.parked(USER, HOME, 'home')).map((link) => link.id)).toEqual(['a1', 'a2']);
    // Meanwhile the sync made t1's event in the other account.
    await links.insertPending(USER, syncLink({ id: 'b1', taskId: 't1', eventId: 'm1', calendarId: 'work' }));

    saved.length = 0;
    const back = await run(HOME, 'home', { account: WORK, calendarId: 'work' });
    expect(back.readAllTasks).toBe(true);
    expect(saved).toContainEqual({ todoistToken: null });
    expect(back.links.map((link) => link.id)).toEqual(['a1', 'a2']);
    expect((await links.all(USER)).map((link) => link.id).sort()).toEqual(['a1', 'a2']);
    expect((await links.parked(USER, WORK, 'work')).map((link) => link.id)).toEqual(['b1']);
  });

  it('keeps a pair the sync has already for the task, drops the parked one, and looks for none when it stayed', async () => {
    const { links, run } = switching();
    await links.insertPending(USER, syncLink({ id: 'a1', taskId: 't1', eventId: 'g1', calendarId: 'home' }));
    await run(WORK, 'work', { account: HOME, calendarId: 'home' });
    await links.insertPending(USER, syncLink({ id: 'b1', taskId: 't1', eventId: 'g9', calendarId: 'home' }));

    // Still where the last run was: nothing is looked up, the parked pair waits.
    const stayed = await run(HOME, 'home', { account: HOME, calendarId: 'home' });
    expect(stayed).toEqual({ links: [expect.objectContaining({ id: 'b1' })], readAllTasks: false });
    expect(await links.parked(USER, HOME, 'home')).toHaveLength(1);

    const back = await run(HOME, 'home', { account: WORK, calendarId: 'work' });
    expect(back).toEqual({ links: [expect.objectContaining({ id: 'b1' })], readAllTasks: false });
    expect(await links.parked(USER, HOME, 'home')).toEqual([]);
    expect((await links.all(USER)).map((link) => link.id)).toEqual(['b1']);
  });

  it('has every task read again when it takes pairs up with nothing left behind, even if the run fails after', async () => {
    const { links, run, saved } = switching();
    await links.insertPending(USER, syncLink({ id: 'a1', taskId: 't1', eventId: 'g1', calendarId: 'home' }));
    await run(WORK, 'work', { account: HOME, calendarId: 'home' });
    saved.length = 0;
    const back = await run(HOME, 'home', { account: WORK, calendarId: 'work' });
    expect(back).toEqual({ links: [expect.objectContaining({ id: 'a1' })], readAllTasks: true });
    expect(saved).toEqual([{ todoistToken: null }]);
  });

  it('removes rather than parks a pair with no event to come back to', async () => {
    const { links, run } = switching();
    await links.insertPending(
      USER,
      syncLink({ id: 'a1', taskId: 't1', eventId: null, completed: true, calendarId: 'home' }),
    );
    await run(WORK, 'work', { account: HOME, calendarId: 'home' });
    expect(links.rows.size).toBe(0);
  });
});
