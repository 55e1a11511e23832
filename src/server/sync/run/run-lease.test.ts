import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { fakeClock } from '#server/domain/testing/fake-clock.ts';
import type { LeaseAttempt, SyncRunLeaseRepository } from '../store/sync-run-lease.repository.ts';
import { createRunLease, type LeasePhase } from './run-lease.ts';

describe('what a run is told of its lease', () => {
  /** A lease whose taking statement takes 40 ms of the clock, as a slow answer would. */
  function slowLease() {
    const clock = fakeClock('2026-12-04T09:00:00.000Z');
    const told: { phase: LeasePhase | 'sent'; at: number }[] = [];
    const taken: LeaseAttempt = { kind: 'taken' };
    const leases: SyncRunLeaseRepository = {
      acquire: async () => taken,
      renew: async () => true,
      release: async () => undefined,
    };
    const lease = createRunLease({ leases, clock, log: pino({ level: 'silent' }) });
    const held = (phase: LeasePhase) => told.push({ phase, at: clock().getTime() });
    const take = async () => {
      told.push({ phase: 'sent', at: clock().getTime() });
      clock.advance(40);
      return { lease: taken, rows: null };
    };
    return { lease, held, take, told, clock };
  }

  it('tells "reading" before the statement that takes it is sent, and "start" once its answer came', async () => {
    const { lease, held, take, told, clock } = slowLease();
    await lease.holding(
      'ada',
      async () => clock.advance(10),
      () => 'busy',
      held,
      take,
    );
    // A run's settings are read by the taking statement: anything committed before "reading" is in
    // them, while "start" may come after a change the run never saw.
    expect(told).toEqual([
      { phase: 'reading', at: Date.parse('2026-12-04T09:00:00.000Z') },
      { phase: 'sent', at: Date.parse('2026-12-04T09:00:00.000Z') },
      { phase: 'start', at: Date.parse('2026-12-04T09:00:00.040Z') },
      { phase: 'end', at: Date.parse('2026-12-04T09:00:00.050Z') },
    ]);
  });

  it('tells "reading" to a run that finds the lease taken, and nothing more', async () => {
    const { lease, held, told } = slowLease();
    const busy: LeaseAttempt = { kind: 'busy', until: new Date('2026-12-04T09:00:01.000Z') };
    const busyTake = async () => ({ lease: busy, rows: null });
    expect(
      await lease.holding(
        'ada',
        async () => 'ran',
        () => 'busy',
        held,
        busyTake,
      ),
    ).toBe('busy');
    expect(told.map((each) => each.phase)).toEqual(['reading']);
  });
});
