import { describe, expect, it } from 'vitest';
import { StateConflictError } from '#server/domain/shared/domain-errors.ts';
import { fakeClock } from '#server/domain/testing/fake-clock.ts';
import { inMemorySyncActivity, inMemorySyncStates } from '#server/test/in-memory-sync-store.ts';
import { createSyncService } from './sync.service.ts';

const USER = 'user-1';
const SINCE = new Date('2026-11-25T08:55:00.000Z');

/**
 * The user's choice on held removals, for all or for single items, on the in-memory repositories: six
 * events held (the brake logged them), a run queued for every choice saved.
 */
async function setUp() {
  const clock = fakeClock('2026-11-25T09:00:00.000Z');
  const states = inMemorySyncStates();
  const activity = inMemorySyncActivity();
  const queued: string[] = [];
  await states.save(USER, { heldEvents: 5, heldTasks: 1, heldSince: SINCE }, SINCE);
  await activity.add(
    USER,
    [1, 2, 3, 4, 5, 6].map((n) => ({
      direction: n === 6 ? 'calendar-to-todoist' : 'todoist-to-calendar',
      action: 'held',
      taskId: `task-${n}`,
      eventId: `event-${n}`,
      detail: null,
    })),
    SINCE,
  );
  const service = createSyncService({
    intake: {
      submit: async (notice) => {
        if (notice.source === 'app') queued.push(notice.userId);
        return 'queued';
      },
    },
    channels: { stop: async () => undefined },
    states,
    activity,
    links: { refused: async () => ({ total: 0, pairs: [] }) },
    appBudget: { heldUntil: async () => null },
    readTodoistWebhook: () => ({ kind: 'ignored' }),
    parseGraphNotifications: () => null,
    clock,
  });
  return { service, states, queued };
}

describe('choosing for held removals', () => {
  it('saves a choice for named items beside the others, and shows each item with its choice', async () => {
    const { service, states, queued } = await setUp();
    await service.chooseHeld(USER, 'keep', [{ taskId: 'task-1', eventId: 'event-1' }]);
    // Named by one of its ids, an item is the held pair that has it.
    const answer = await service.chooseHeld(USER, 'remove', [{ taskId: null, eventId: 'event-6' }]);
    expect(states.rows.get(USER)?.brakeItems).toEqual([
      { taskId: 'task-1', eventId: 'event-1', choice: 'keep' },
      { taskId: 'task-6', eventId: 'event-6', choice: 'remove' },
    ]);
    expect(states.rows.get(USER)?.brakeChoice).toBeNull();
    expect(queued).toEqual([USER, USER]);
    const items = answer.heldRemovals?.items ?? [];
    expect(items.find((item) => item.taskId === 'task-1')).toMatchObject({
      removes: 'event',
      choice: 'keep',
    });
    expect(items.find((item) => item.taskId === 'task-6')).toMatchObject({
      removes: 'task',
      choice: 'remove',
    });
    expect(items.filter((item) => item.choice === null)).toHaveLength(4);
    expect(answer.heldRemovals?.choice).toBeNull();
  });

  it('saves a choice for all as before, leaving the items’ own choices', async () => {
    const { service, states } = await setUp();
    await service.chooseHeld(USER, 'keep', [{ taskId: 'task-2', eventId: 'event-2' }]);
    const answer = await service.chooseHeld(USER, 'remove');
    expect(answer.heldRemovals).toMatchObject({ choice: 'remove' });
    expect(states.rows.get(USER)?.brakeItems).toHaveLength(1);
  });

  it('refuses, saving nothing, a choice naming an item that is not held', async () => {
    const { service, states, queued } = await setUp();
    const refused = service.chooseHeld(USER, 'remove', [
      { taskId: 'task-1', eventId: 'event-1' },
      { taskId: 'task-1', eventId: 'event-2' },
    ]);
    await expect(refused).rejects.toThrow(StateConflictError);
    await expect(refused).rejects.toThrow('Some of these items are not held back any more');
    await expect(service.chooseHeld(USER, 'keep', [{ taskId: 'task-9', eventId: null }])).rejects.toThrow(
      'This item is not held back any more, so your choice was not saved.',
    );
    expect(states.rows.get(USER)?.brakeItems).toBeNull();
    expect(queued).toEqual([]);
  });

  it('refuses any choice once the brake is over, even one read just before it ended', async () => {
    const { service, states } = await setUp();
    // The brake ends (a run found nothing left to hold) between the read and the save.
    const find = states.find;
    states.find = async (userId) => {
      const state = await find(userId);
      await states.saveRun(
        USER,
        { heldEvents: 0, heldTasks: 0, heldSince: null },
        { todoist: 0, calendar: 0 },
        SINCE,
      );
      return state;
    };
    await expect(service.chooseHeld(USER, 'remove')).rejects.toThrow('Nothing is held back.');
    expect(states.rows.get(USER)?.brakeChoice).toBeNull();
    states.find = find;
    await expect(
      service.chooseHeld(USER, 'keep', [{ taskId: 'task-1', eventId: 'event-1' }]),
    ).rejects.toThrow('Nothing is held back.');
  });
});
