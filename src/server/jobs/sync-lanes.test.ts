import type { Job, PgBoss } from 'pg-boss';
import { describe, expect, it } from 'vitest';
import { type SyncLaneOptions, startSyncLanes } from './sync-lanes.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * pg-boss's workers as far as the lanes see them: each fetches one job at a time (a fetch takes
 * `fetchMs`), runs it, fetches again at once when notified meanwhile, and after an empty fetch waits
 * for the poll or a new job's notice.
 */
function fakeQueue(fetchMs: number) {
  const waiting: Job<unknown>[] = [];
  const workers = new Map<string, { stopped: boolean; notified: boolean; wake: () => void }>();
  let ids = 0;
  let fetches = 0;
  const boss = {
    async work(
      _queue: string,
      options: { pollingIntervalSeconds: number },
      handler: (jobs: Job<unknown>[]) => Promise<void>,
    ) {
      const id = `lane-${++ids}`;
      const worker = { stopped: false, notified: false, wake: () => {} };
      workers.set(id, worker);
      void (async () => {
        while (!worker.stopped) {
          worker.notified = false;
          await sleep(fetchMs);
          fetches += 1;
          const job = waiting.shift();
          if (job) await handler([job]);
          if (worker.notified || worker.stopped) continue;
          await new Promise<void>((resolve) => {
            worker.wake = resolve;
            setTimeout(resolve, options.pollingIntervalSeconds * 1000);
          });
        }
      })();
      return id;
    },
    async offWork(_queue: string, { id }: { id: string }) {
      const worker = workers.get(id);
      if (worker) worker.stopped = true;
      worker?.wake();
      workers.delete(id);
    },
    notifyWorker(id: string) {
      const worker = workers.get(id);
      if (!worker) return;
      worker.notified = true;
      worker.wake();
    },
  };
  return {
    boss: boss as unknown as PgBoss,
    push(count: number) {
      for (let index = 0; index < count; index++) waiting.push({ id: `job-${index}` } as Job<unknown>);
      for (const worker of workers.values()) worker.wake();
    },
    /** Queues jobs without waking any lane (a queue without NOTIFY). */
    pushQuietly(count: number) {
      for (let index = 0; index < count; index++) waiting.push({ id: `quiet-${index}` } as Job<unknown>);
    },
    fetches: () => fetches,
    waiting: () => waiting.length,
    /** Drops the jobs still waiting (a test's backlog left over). */
    clear: () => waiting.splice(0),
  };
}

const options: SyncLaneOptions = {
  queue: 'user-runs',
  min: 4,
  max: 32,
  spare: 2,
  pollingIntervalSeconds: 0.5,
  onOpenFailed: () => {},
  loopLoad: () => 0,
  openBelow: Number.POSITIVE_INFINITY,
  closeAbove: Number.POSITIVE_INFINITY,
  connectionsWaiting: () => 0,
  openWhileWaiting: 10,
  starvedAfterMs: 100,
  sweepMs: 100,
};

describe('sync lanes', () => {
  it('open up to the most allowed while a backlog waits, though each lane spends a part of its time fetching', async () => {
    // A fetch takes a sixth of a run: a lane between two runs is not idle, and must not count as idle.
    const queue = fakeQueue(20);
    let running = 0;
    let mostAtOnce = 0;
    const lanes = await startSyncLanes(queue.boss, options, async () => {
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      await sleep(120);
      running -= 1;
    });
    try {
      queue.push(400);
      while (queue.waiting() > 0) await sleep(20);
      expect(mostAtOnce).toBeGreaterThanOrEqual(30);
      expect(lanes.open()).toBe(32);
    } finally {
      lanes.stop();
    }
  });

  it('close starved lanes, beyond the spare ones, down to the fewest once the backlog is worked', async () => {
    const queue = fakeQueue(5);
    let finished = 0;
    const lanes = await startSyncLanes(queue.boss, options, async () => {
      await sleep(50);
      finished += 1;
    });
    try {
      queue.push(200);
      while (finished < 200) await sleep(20);
      expect(lanes.open()).toBeGreaterThan(4);
      const deadline = Date.now() + 3000;
      while (lanes.open() > 4 && Date.now() < deadline) await sleep(20);
      expect(lanes.open()).toBe(4);
      expect(lanes.busy()).toBe(0);
    } finally {
      lanes.stop();
    }
  });

  it('keep every lane open while a trickle of work leaves none starved for long', async () => {
    const queue = fakeQueue(5);
    const lanes = await startSyncLanes(queue.boss, { ...options, starvedAfterMs: 5_000 }, async () => {
      await sleep(30);
    });
    try {
      queue.push(100);
      while (queue.waiting() > 0) await sleep(20);
      const opened = lanes.open();
      await sleep(500);
      // Nothing has been starved for five seconds yet: no lane closed.
      expect(lanes.open()).toBe(opened);
    } finally {
      lanes.stop();
    }
  });

  it('wake as many idle lanes as jobs were queued, not every lane, and each job is fetched at once', async () => {
    const queue = fakeQueue(5);
    const ran: number[] = [];
    const lanes = await startSyncLanes(
      queue.boss,
      { ...options, min: 16, pollingIntervalSeconds: 30 },
      async () => {
        ran.push(Date.now());
      },
    );
    try {
      await sleep(100);
      expect(lanes.open()).toBe(16);
      const before = queue.fetches();
      const queuedAt = Date.now();
      queue.pushQuietly(2);
      lanes.wake(2);
      while (ran.length < 2 && Date.now() - queuedAt < 2000) await sleep(5);
      expect(ran).toHaveLength(2);
      // Long before the 30-second poll: the woken lanes fetched them.
      expect(Math.max(...ran) - queuedAt).toBeLessThan(500);
      await sleep(100);
      // Two fetches that found a job, and the one each of those lanes makes once its run ended (and
      // any lane those runs opened): far from the 16 a wake of every lane costs.
      expect(queue.fetches() - before).toBeLessThanOrEqual(6);
    } finally {
      lanes.stop();
    }
  });

  it('open none while statements queue for the database’s connections, and keep those open while they queue', async () => {
    const queue = fakeQueue(5);
    let waiting = 20;
    // No lane is starved within the test (a backlog waits throughout).
    const bounded = { ...options, starvedAfterMs: 5_000, connectionsWaiting: () => waiting };
    const lanes = await startSyncLanes(queue.boss, bounded, async () => {
      await sleep(30);
    });
    try {
      // More statements wait than may open a lane: the backlog is worked by the fewest.
      queue.push(100);
      await sleep(300);
      expect(lanes.open()).toBe(4);
      // The pool keeps up: lanes open to the most allowed.
      waiting = 0;
      queue.push(5000);
      const opened = Date.now() + 3000;
      while (lanes.open() < 32 && Date.now() < opened) await sleep(10);
      expect(lanes.open()).toBe(32);
      // Statements queue again: no lane closes while the backlog waits (closing them on the pool's
      // waits shrank a busy process to its fewest lanes, and jobs waited half a minute).
      waiting = 100;
      await sleep(300);
      expect(lanes.open()).toBe(32);
      expect(queue.waiting()).toBeGreaterThan(0);
    } finally {
      lanes.stop();
      queue.clear();
    }
  });
});
