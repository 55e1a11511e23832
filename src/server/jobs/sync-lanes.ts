import type { Job, PgBoss } from 'pg-boss';

/**
 * The lanes that run a worker process's sync jobs, each fetching one job at a time. Runs wait on the
 * providers, not on the CPU, so how many a process keeps in flight follows the work: there are
 * always `min` lanes; while no lane is starved (see below), every run that starts opens another lane
 * (which fetches the next waiting job at once), up to `max`, so a backlog of a thousand runs is worked
 * by `max` lanes within a few fetches; starved lanes beyond `spare` close, checked every `sweepMs`.
 *
 * A lane is starved when it has run nothing for `starvedAfterMs`: its last fetch found no job it
 * could take, and it waits for the queue's next notice or poll. A lane between two runs (its run
 * ended, its next fetch is on its way) is not: counting those as idle made a busy process close
 * lanes as fast as it opened them, and it settled at a fifth of its lanes with a backlog waiting.
 *
 * The CPU bounds them too: no lane opens while the process's event loop is busier than `openBelow`
 * (of its time), and above `closeAbove` a lane closes as its run ends (never below `min`). Past that
 * point more runs at once add no throughput and make every run slower, a user's live change among
 * them; kept below it, a live change (fetched before any waiting reconcile run) runs at full speed.
 * The database's pool bounds their growth: no lane opens while more than `openWhileWaiting` statements
 * wait for a connection. (Closing lanes on the pool's waits as well shrank a busy process to its four
 * lanes within a burst of quick edits, and some waited half a minute in the queue: docs/performance.md.)
 */
export type SyncLaneOptions = {
  queue: string;
  min: number;
  max: number;
  /** Starved lanes kept open beside the others (each polls the queue). */
  spare: number;
  pollingIntervalSeconds: number;
  /** Told when another lane could not be opened (the queue is stopping, say): the open ones go on. */
  onOpenFailed: (error: unknown) => void;
  /** How busy the process's event loop is now (0–1; loop-load.ts). */
  loopLoad: () => number;
  /** Lanes open only while the loop is less busy than this … */
  openBelow: number;
  /** … and close as runs end while it is busier than this. */
  closeAbove: number;
  /** Statements waiting for a database connection now (0 where there is no pool). */
  connectionsWaiting: () => number;
  /** Lanes open only while at most this many statements wait for a connection. */
  openWhileWaiting: number;
  /** How long a lane runs nothing before it counts as starved (longer than a fetch takes). */
  starvedAfterMs?: number;
  /** How often starved lanes beyond `spare` are closed. */
  sweepMs?: number;
  /** A monotonic clock in milliseconds (tests set it). */
  now?: () => number;
};

export type SyncLanes = {
  /** Lanes open now. */
  open(): number;
  /** Jobs running now. */
  busy(): number;
  /**
   * `count` jobs were just queued: as many lanes not running one fetch now, those waiting longest
   * first (where the queue wakes no lane itself: pg-boss-queues.ts). More jobs than idle lanes: the
   * lanes that take them open others, as for any backlog.
   */
  wake(count: number): void;
  /** Stops closing starved lanes (the queue's workers are stopped by the queue). */
  stop(): void;
};

const STARVED_AFTER_MS = 250;
const SWEEP_MS = 1000;

type Lane = { id: string | undefined; running: boolean; idleSince: number; closed: boolean };

export async function startSyncLanes(
  boss: PgBoss,
  options: SyncLaneOptions,
  run: (job: Job<unknown>) => Promise<void>,
): Promise<SyncLanes> {
  const now = options.now ?? (() => performance.now());
  const starvedAfterMs = options.starvedAfterMs ?? STARVED_AFTER_MS;
  const lanes = new Set<Lane>();
  let busy = 0;

  const starved = (at: number) =>
    [...lanes].filter((lane) => !lane.running && at - lane.idleSince >= starvedAfterMs);

  function close(lane: Lane) {
    if (lane.closed) return;
    lane.closed = true;
    lanes.delete(lane);
    if (lane.id) void boss.offWork(options.queue, { id: lane.id, wait: false });
  }

  function openAnother() {
    if (lanes.size >= options.max || options.loopLoad() >= options.openBelow) return;
    if (options.connectionsWaiting() > options.openWhileWaiting) return;
    openLane().catch((error: unknown) => options.onOpenFailed(error));
  }

  async function runOn(lane: Lane, job: Job<unknown>) {
    busy += 1;
    lane.running = true;
    // No lane is starved, so jobs are waiting: open another, which takes the next one at once,
    // unless the CPU or the database's pool is what limits runs now.
    if (!lane.closed && starved(now()).length === 0) openAnother();
    try {
      await run(job);
    } finally {
      busy -= 1;
      lane.running = false;
      lane.idleSince = now();
      if (lanes.size > options.min && options.loopLoad() > options.closeAbove) close(lane);
      // pg-boss would wait out its polling interval before the next fetch; a lane that just
      // finished a run looks for the next one at once (an empty fetch then waits as usual).
      else if (!lane.closed && lane.id) boss.notifyWorker(lane.id);
    }
  }

  async function openLane(): Promise<void> {
    const lane: Lane = { id: undefined, running: false, idleSince: now(), closed: false };
    lanes.add(lane);
    try {
      lane.id = await boss.work(
        options.queue,
        {
          pollingIntervalSeconds: options.pollingIntervalSeconds,
          // NOTIFY wakes workers for new jobs, but not when a deferred job (a retry, a back-off, a
          // spaced run) comes due: that only a poll finds, so polling stays short with NOTIFY too.
          notifyPollingIntervalSeconds: options.pollingIntervalSeconds,
          batchSize: 1,
          localConcurrency: 1,
          // No job of a user starts while another is active (judged at the fetch, in every process).
          groupConcurrency: 1,
        },
        async ([job]) => {
          if (job) await runOn(lane, job);
        },
      );
    } catch (error) {
      lanes.delete(lane);
      throw error;
    }
    // Closed before pg-boss said which worker it is: stop it now.
    if (lane.closed) void boss.offWork(options.queue, { id: lane.id, wait: false });
  }

  /** Starved lanes beyond the spare ones close, those starved longest first. */
  function sweep() {
    const closable = starved(now()).sort((a, b) => a.idleSince - b.idleSince);
    const excess = Math.min(closable.length - options.spare, lanes.size - options.min);
    for (const lane of closable.slice(0, Math.max(0, excess))) close(lane);
  }

  function wake(count: number) {
    const idle = [...lanes]
      .filter((lane) => !lane.running && !lane.closed && lane.id)
      .sort((a, b) => a.idleSince - b.idleSince);
    for (const lane of idle.slice(0, Math.max(0, count))) if (lane.id) boss.notifyWorker(lane.id);
  }

  for (let lane = 0; lane < options.min; lane++) await openLane();
  const sweeper = setInterval(sweep, options.sweepMs ?? SWEEP_MS);
  sweeper.unref();
  return { open: () => lanes.size, busy: () => busy, wake, stop: () => clearInterval(sweeper) };
}
