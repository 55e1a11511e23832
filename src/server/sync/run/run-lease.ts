import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Clock } from '#server/domain/shared/clock.port.ts';
import type { LeaseAttempt, SyncRunLeaseRepository } from '../store/sync-run-lease.repository.ts';

/**
 * Takes the lease (`SyncRunLeaseRepository.acquire`), and may read what the run starts from in the
 * same statement (`SyncRunStart`): handed to the run once the lease is taken.
 */
export type LeaseTake<S> = (
  owner: string,
  until: Date,
  now: Date,
) => Promise<{ lease: LeaseAttempt; rows: S | null }>;

/**
 * The lease a run holds: its owner id, and `givenBack`, told by a run whose last statement gave it
 * back itself (`SyncStateRepository.saveRun`), so that no statement is spent on it after the run.
 */
export type HeldLease = { owner: string; givenBack(): void };

/**
 * What a run is told of its lease: 'reading' just before the statement that takes it (and may read
 * the run's settings) is sent, so nothing the run reads is older than that moment; 'start' once it is
 * taken; 'end' just before it is given back.
 */
export type LeasePhase = 'reading' | 'start' | 'end';

/** How long a lease holds without renewal: a worker that dies lets its user's runs go on after this. */
export const RUN_LEASE_MS = 15_000;
const RENEW_EVERY_MS = 5_000;
/** A run that finds its user's lease held tries again after the holder's time is up, at most this. */
const BUSY_RETRY_MAX_MS = 1_000;

/**
 * One run per user at a time, across every worker process (docs/decisions/018-one-run-per-user.md).
 * The queue already starts no second job of a user while one is active; the lease makes that a
 * guarantee (two fetches racing, a job retried while its first attempt still runs): a run takes the
 * user's lease, renews it while it lasts, and gives it back at its end. A run that finds it taken does
 * not start, and asks to be tried again shortly; what it would have read stays requested meanwhile.
 */
export function createRunLease(deps: { leases: SyncRunLeaseRepository; clock: Clock; log: Logger }) {
  return {
    async holding<T, S = never>(
      userId: string,
      work: (rows: S | null, lease: HeldLease | null) => Promise<T>,
      busy: (retryAfterMs: number) => T,
      held?: (phase: LeasePhase) => void,
      take: LeaseTake<S> = async (owner, until, now) => ({
        lease: await deps.leases.acquire(userId, owner, until, now),
        rows: null,
      }),
    ): Promise<T> {
      const owner = randomUUID();
      const now = deps.clock();
      held?.('reading');
      const { lease: attempt, rows } = await take(owner, new Date(now.getTime() + RUN_LEASE_MS), now);
      if (attempt.kind === 'busy') {
        const left = attempt.until.getTime() - now.getTime();
        return busy(Math.min(Math.max(left, 50), BUSY_RETRY_MAX_MS));
      }
      // A user gone: the run finds no one to sync, and nothing needs guarding.
      if (attempt.kind === 'no-user') return work(null, null);
      const renewal = setInterval(() => {
        const until = new Date(deps.clock().getTime() + RUN_LEASE_MS);
        deps.leases
          .renew(userId, owner, until)
          .then((stillOurs) => {
            if (!stillOurs) deps.log.error({ userId }, 'a sync run outlived its lease (its process stalled)');
          })
          .catch((error: unknown) => deps.log.warn({ userId, err: error }, 'could not renew a run lease'));
      }, RENEW_EVERY_MS);
      renewal.unref();
      let givenBack = false;
      const lease: HeldLease = {
        owner,
        givenBack() {
          if (givenBack) return;
          givenBack = true;
          // The run holds its user no longer: another run may start from here on.
          held?.('end');
          clearInterval(renewal);
        },
      };
      held?.('start');
      try {
        return await work(rows, lease);
      } finally {
        clearInterval(renewal);
        if (!givenBack) {
          held?.('end');
          await deps.leases
            .release(userId, owner)
            .catch((error: unknown) =>
              deps.log.warn({ userId, err: error }, 'could not release a run lease; it lapses by itself'),
            );
        }
      }
    },
  };
}
