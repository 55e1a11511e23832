import { describe, expect, it } from 'vitest';
import { DeltaStore } from './microsoft.delta-store.ts';
import { untouchable } from './microsoft.store-testing.ts';

describe('DeltaStore', () => {
  const scope = (userId: string) => ({ userId, calendarId: 'default', from: 0, to: 1, path: '/p' });

  it("expires one user's tokens without reading any other user's", () => {
    const deltas = new DeltaStore();
    for (let index = 0; index < 50; index += 1) {
      const state = { ...scope(`other-${index}`), kind: 'delta' as const, seq: 1 };
      deltas.issue(state);
      untouchable(state, 'userId', 'kind', 'calendarId');
    }
    const first = deltas.issue({ ...scope('ada'), kind: 'delta', seq: 1 });
    const skip = {
      ...scope('ada'),
      kind: 'skip' as const,
      items: [],
      offset: 0,
      nextSeq: 2,
      maxPageSize: 10,
    };
    const second = deltas.issue(skip);
    expect(deltas.expire('ada')).toBe(2);
    expect(deltas.expire('ada')).toBe(0);
    expect(deltas.lookup(first, 'ada')).toEqual({ status: 'expired', scope: scope('ada') });
    expect(deltas.lookup(second, 'ada').status).toBe('expired');
    expect(deltas.snapshot()).toEqual({ liveDeltaTokens: 50, liveSkipTokens: 0, expiredTokens: 2 });
  });

  it('counts live tokens of each kind, and expires everyone when no user is named', () => {
    const deltas = new DeltaStore();
    const token = deltas.issue({ ...scope('ada'), kind: 'delta', seq: 1 });
    deltas.issue({ ...scope('grace'), kind: 'skip', items: [], offset: 0, nextSeq: 2, maxPageSize: 10 });
    expect(deltas.lookup(token, 'ada').status).toBe('live');
    expect(deltas.lookup(token, 'grace')).toEqual({ status: 'expired', scope: undefined });
    expect(deltas.snapshot()).toEqual({ liveDeltaTokens: 1, liveSkipTokens: 1, expiredTokens: 0 });
    expect(deltas.expire()).toBe(2);
    expect(deltas.snapshot()).toEqual({ liveDeltaTokens: 0, liveSkipTokens: 0, expiredTokens: 2 });
    deltas.reset();
    expect(deltas.snapshot()).toEqual({ liveDeltaTokens: 0, liveSkipTokens: 0, expiredTokens: 0 });
  });
});
