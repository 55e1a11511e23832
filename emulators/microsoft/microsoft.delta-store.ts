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

const MAX_LIVE_TOKENS = 20_000;

/**
 * State tokens live on the server (like Outlook's sync state); the token in the link is an opaque key.
 * Expiring them (control route, or the cap) makes the next use answer 410 `syncStateNotFound`.
 */
export class DeltaStore {
  #live = new Map<string, DeltaState>();
  #expired = new Map<string, DeltaScope>();

  issue(state: DeltaState): string {
    const token = `${state.kind === 'delta' ? 'R0usmcMp' : 'R0usmci3'}${randomUrlSafe(48)}`;
    this.#live.set(token, state);
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
    let count = 0;
    for (const [token, state] of this.#live) {
      if (userId && state.userId !== userId) continue;
      this.#expire(token);
      count += 1;
    }
    return count;
  }

  #expire(token: string): void {
    const state = this.#live.get(token);
    if (!state) return;
    this.#live.delete(token);
    const { userId, calendarId, from, to, path } = state;
    this.#expired.set(token, { userId, calendarId, from, to, path });
  }

  reset(): void {
    this.#live.clear();
    this.#expired.clear();
  }

  snapshot() {
    const tokens = [...this.#live.values()];
    return {
      liveDeltaTokens: tokens.filter((state) => state.kind === 'delta').length,
      liveSkipTokens: tokens.filter((state) => state.kind === 'skip').length,
      expiredTokens: this.#expired.size,
    };
  }
}
