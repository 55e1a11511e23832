import { randomUrlSafe } from '../shared/ids.ts';

/** What a delta round is about: one calendar of one user, in a window, reached through one path. */
export type DeltaScope = { userId: string; calendarId: string; from: number; to: number; path: string };

/**
 * An item still to be sent in the round: an event or occurrence id, or the id of one that is gone.
 * `changedFields` (later rounds) says what changed, for partial items; absent = send it whole.
 */
export type PendingItem = { id: string; removed: boolean; changedFields?: string[] | 'all' };

export type DeltaState =
  | (DeltaScope & { kind: 'delta'; seq: number })
  | (DeltaScope & {
      kind: 'skip';
      items: PendingItem[];
      offset: number;
      nextSeq: number;
      maxPageSize: number;
    });

export type TokenLookup = { status: 'live'; state: DeltaState } | { status: 'expired'; scope?: DeltaScope };

/**
 * Live tokens kept before the oldest are dropped (answering 410 as an expired one does): a bound on the
 * emulator's memory, large enough for the scale benchmark's 10,000 users to keep theirs over its waves.
 */
const MAX_LIVE_TOKENS = 200_000;

/**
 * State tokens live on the server (like Outlook's sync state); the token in the link is an opaque key.
 * Expiring them (control route, or the cap) makes the next use answer 410 `syncStateNotFound`.
 * Each user's live tokens are indexed, and the live ones of each kind counted, so that expiring one
 * user's and the state view do not go through every user's.
 */
export class DeltaStore {
  #live = new Map<string, DeltaState>();
  #expired = new Map<string, DeltaScope>();
  /** Live tokens by user id. */
  #liveOfUser = new Map<string, Set<string>>();
  #liveCount = { delta: 0, skip: 0 };

  issue(state: DeltaState): string {
    const token = `${state.kind === 'delta' ? 'R0usmcMp' : 'R0usmci3'}${randomUrlSafe(48)}`;
    this.#live.set(token, state);
    this.#liveCount[state.kind] += 1;
    const own = this.#liveOfUser.get(state.userId) ?? new Set();
    this.#liveOfUser.set(state.userId, own.add(token));
    if (this.#live.size > MAX_LIVE_TOKENS) {
      const [oldest] = this.#live.keys();
      if (oldest) this.#expire(oldest);
    }
    return token;
  }

  lookup(token: string, userId: string): TokenLookup {
    const state = this.#live.get(token);
    if (state && state.userId === userId) return { status: 'live', state };
    const scope = this.#expired.get(token);
    return { status: 'expired', scope: scope?.userId === userId ? scope : undefined };
  }

  /** Expires every live token, or those of one user; returns how many. */
  expire(userId?: string): number {
    const tokens = [...(userId ? (this.#liveOfUser.get(userId) ?? []) : this.#live.keys())];
    for (const token of tokens) this.#expire(token);
    return tokens.length;
  }

  #expire(token: string): void {
    const state = this.#live.get(token);
    if (!state) return;
    this.#live.delete(token);
    this.#liveCount[state.kind] -= 1;
    const own = this.#liveOfUser.get(state.userId);
    own?.delete(token);
    if (own?.size === 0) this.#liveOfUser.delete(state.userId);
    const { userId, calendarId, from, to, path } = state;
    this.#expired.set(token, { userId, calendarId, from, to, path });
  }

  reset(): void {
    this.#live.clear();
    this.#expired.clear();
    this.#liveOfUser.clear();
    this.#liveCount = { delta: 0, skip: 0 };
  }

  snapshot() {
    return {
      liveDeltaTokens: this.#liveCount.delta,
      liveSkipTokens: this.#liveCount.skip,
      expiredTokens: this.#expired.size,
    };
  }
}
