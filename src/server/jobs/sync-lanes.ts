import type { Job, PgBoss } from 'pg-boss';

/**
 * The lanes that run a worker process's sync jobs, each fetching one job at a time. Runs wait on the
 * providers, not on the CPU, so how many a process keeps in flight follows the work: there are
 * always `min` lanes; when every lane is running a job, another is opened (it fetches the next
 * waiting job at once), up to `max`; a lane that finishes while more than `spare` others stand idle
 * closes. At 100–300 ms a provider call, a backlog is worked by as many runs as it needs, up to what
 * the database pool and the provider budgets allow, instead of a constant four.
 *
 * The CPU bounds them too: no lane opens while the process's event loop is busier than `openBelow`
 * (of its time), and above `closeAbove` a lane closes as its run ends (never below `min`). Past that
 * point more runs at once add no throughput and make every run slower, a user's live change among
 * them; kept below it, a live change (fetched before any waiting reconcile run) runs at full speed.
 */
export type SyncLaneOptions = {
  queue: string;
  min: number;
  max: number;
  /** Idle lanes kept open beside the busy ones (each polls the queue). */
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
};

export type SyncLanes = {
  /** Lanes open now. */
  open(): number;
  /** Jobs running now. */
  busy(): number;
};

export async function startSyncLanes(
  boss: PgBoss,
  options: SyncLaneOptions,
  run: (job: Job<unknown>) => Promise<void>,
): Promise<SyncLanes> {
  let open = 0;
  let busy = 0;

  async function openLane(): Promise<void> {
    open += 1;
    let laneId: string | undefined;
    laneId = await boss.work(
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
        if (!job) return;
        busy += 1;
        // Every lane is running: open another, which takes the next waiting job (if any) at once,
        // unless the CPU is what limits runs now.
        if (busy >= open && open < options.max && options.loopLoad() < options.openBelow) {
          openLane().catch((error: unknown) => {
            open -= 1;
            options.onOpenFailed(error);
          });
        }
        try {
          await run(job);
        } finally {
          busy -= 1;
          const idle = open - busy - 1;
          const saturated = options.loopLoad() > options.closeAbove;
          if (open > options.min && (idle > options.spare || saturated)) {
            open -= 1;
            if (laneId) void boss.offWork(options.queue, { id: laneId, wait: false });
          } else if (laneId) {
            // pg-boss would wait out its polling interval before the next fetch; a lane that just
            // finished a run looks for the next one at once (an empty fetch then waits as usual).
            boss.notifyWorker(laneId);
          }
        }
      },
    );
  }

  for (let lane = 0; lane < options.min; lane++) await openLane();
  return { open: () => open, busy: () => busy };
}
