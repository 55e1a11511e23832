import type pg from 'pg';
import { RECONCILE_QUEUE, USER_SYNC_QUEUE } from '#server/jobs/queue-jobs.ts';
import { now, sleep } from '../stats.ts';

/** The user sync queue at one moment, read from the job table. */
export type QueueSample = {
  at: number;
  /** Jobs due and not started (a retry still waiting its back-off is not counted). */
  waiting: number;
  active: number;
  /** How long the oldest due job has waited. */
  oldestWaitingSeconds: number;
  /** Jobs completed so far (the queue keeps them an hour). */
  completed: number;
  /** Reconcile runs not yet done (queued or running). */
  reconcileLeft: number;
  /** The reconcile job itself (the one spreading the users): created, active, completed, failed, … */
  reconcileState: string | null;
};

export async function sampleQueue(client: pg.Client): Promise<QueueSample> {
  const { rows } = await client.query(
    `select
       count(*) filter (where state in ('created', 'retry') and start_after <= now())::int as waiting,
       count(*) filter (where state = 'active')::int as active,
       coalesce(extract(epoch from now() - min(start_after)
         filter (where state in ('created', 'retry') and start_after <= now())), 0)::float8 as oldest,
       count(*) filter (where state = 'completed')::int as completed,
       count(*) filter (where state in ('created', 'retry', 'active') and data->>'trigger' = 'reconcile')::int
         as reconcile_left,
       (select state from pgboss.job where name = $2 order by created_on desc limit 1) as reconcile_state
     from pgboss.job where name = $1`,
    [USER_SYNC_QUEUE, RECONCILE_QUEUE],
  );
  const row = rows[0] as Record<string, unknown>;
  return {
    at: now(),
    waiting: Number(row.waiting),
    active: Number(row.active),
    oldestWaitingSeconds: Number(row.oldest),
    completed: Number(row.completed),
    reconcileLeft: Number(row.reconcile_left),
    reconcileState: (row.reconcile_state as string | null) ?? null,
  };
}

/** Samples the queue every second until stopped; `onSample` sees each. */
export function watchQueue(client: pg.Client, onSample: (sample: QueueSample) => void) {
  const samples: QueueSample[] = [];
  let stopped = false;
  const done = (async () => {
    while (!stopped) {
      const sample = await sampleQueue(client);
      samples.push(sample);
      onSample(sample);
      await sleep(1000);
    }
  })();
  return {
    samples,
    async stop() {
      stopped = true;
      await done;
    },
  };
}

/** Until nothing is queued, running or due for the users' syncs (e.g. the first runs and their echoes). */
export async function waitQueueEmpty(client: pg.Client, timeoutMs: number): Promise<boolean> {
  const started = now();
  let emptyFor = 0;
  while (now() - started < timeoutMs) {
    const sample = await sampleQueue(client);
    // Empty three samples a second apart: an echo's notification may still be on its way after a run ends.
    emptyFor = sample.waiting + sample.active === 0 ? emptyFor + 1 : 0;
    if (emptyFor >= 3) return true;
    await sleep(1000);
  }
  return false;
}

/** Runs that ended in the window: how long they waited once due, and how long they ran (seconds). */
export async function runTimes(client: pg.Client, from: number, to: number) {
  const { rows } = await client.query(
    `select
       percentile_cont(array[0.5, 0.95]) within group (order by extract(epoch from started_on - start_after))
         as waited,
       percentile_cont(array[0.5, 0.95]) within group (order by extract(epoch from completed_on - started_on))
         as ran
     from pgboss.job
     where name = $1 and state = 'completed'
       and completed_on between to_timestamp($2 / 1000.0) and to_timestamp($3 / 1000.0)`,
    [USER_SYNC_QUEUE, from, to],
  );
  const row = rows[0] as { waited: number[] | null; ran: number[] | null };
  const pair = (values: number[] | null) => ({ p50: values?.[0] ?? 0, p95: values?.[1] ?? 0 });
  return { waitedSeconds: pair(row.waited), ranSeconds: pair(row.ran) };
}
