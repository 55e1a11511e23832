import { describe, it } from 'vitest';
import { inMemorySyncActivity } from '#server/test/in-memory-sync-store.ts';
import { playKeepsTheNewest, playLastHeld } from './activity.fixture.ts';

/** The in-memory activity keeps what the repository's one statement keeps (the same play as its test). */
describe('in-memory sync activity', () => {
  it('keeps the newest entries from before a run beside the run’s own, as the repository does', async () => {
    const activity = inMemorySyncActivity();
    const rowsOf = async (userId: string) => activity.rows.filter((row) => row.userId === userId).length;
    await playKeepsTheNewest(activity, rowsOf, { ada: 'ada', bob: 'bob' });
  });

  it('names the held items of the newest run that held any, as the repository does', async () => {
    await playLastHeld(inMemorySyncActivity(), { ada: 'ada', bob: 'bob' });
  });
});
