import { describe, expect, it } from 'vitest';
import { createdEntry as entry, minute } from './activity.fixture.ts';
import { inMemorySyncActivity } from './in-memory-sync-store.ts';
import { ACTIVITY_KEPT } from './sync-activity.repository.ts';

/** The in-memory activity keeps what the repository's one statement keeps (its integration test). */
describe('in-memory sync activity', () => {
  it('keeps the newest entries from before a run beside the run’s own, as the repository does', async () => {
    const activity = inMemorySyncActivity();
    const rowsOf = (userId: string) => activity.rows.filter((row) => row.userId === userId).length;
    await activity.add('bob', [entry('bob-1')], minute(0));
    for (let run = 1; run <= ACTIVITY_KEPT + 5; run++)
      await activity.add('ada', [entry(`t${run}`)], minute(run));
    // The kept entries are chosen before the run's own go in: the last run's one is beside them.
    expect(rowsOf('ada')).toBe(ACTIVITY_KEPT + 1);
    await activity.add(
      'ada',
      [entry('last-a'), entry('last-b'), entry('last-c')],
      minute(ACTIVITY_KEPT + 10),
    );
    expect(rowsOf('ada')).toBe(ACTIVITY_KEPT + 3);
    const recent = await activity.recent('ada', ACTIVITY_KEPT);
    expect(
      recent
        .slice(0, 3)
        .map((row) => row.taskId)
        .sort(),
    ).toEqual(['last-a', 'last-b', 'last-c']);
    expect(recent.at(-1)?.taskId).toBe(`t${ACTIVITY_KEPT + 5 - (ACTIVITY_KEPT - 3) + 1}`);
    expect((await activity.recent('bob', 10)).map((row) => row.taskId)).toEqual(['bob-1']);
  });
});
