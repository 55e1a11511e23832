import type { SyncProblemCode } from '#shared/api/sync.schema.ts';
import type { SyncSide } from '../sync-sides.ts';

/** How one sync run of a user ended. */
export type SyncOutcome =
  /** `problems`: the user had problems when the run began, or it held removals back (a notice may change). */
  | { status: 'synced'; plans: number; writes: number; reads: SyncSide[]; problems: boolean }
  | { status: 'skipped'; reason: string }
  | { status: 'blocked'; problem: SyncProblemCode }
  /** `anotherRun`: another run of the user held the lease, so this one did not start at all. */
  | { status: 'retry-later'; afterMs: number; anotherRun?: true };
