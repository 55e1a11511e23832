import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '#server/app.ts';
import type { Config } from '#server/config.ts';
import type { SyncRunReport } from '#server/sync/worker.ts';
import { createScratchDatabase, postgresTestsEnabled } from '#server/test/postgres.ts';
import { emulatorControl } from '#server/test/sync-fixtures.ts';
import { modelRunOptions, userPlans } from '#server/test/sync-model-commands.ts';
import { createModelHarness } from '#server/test/sync-model-harness.ts';
import { createTestApp } from '#server/test/test-app.ts';
import { crashRunOptions, startWorkerProcess, type WorkerProcess } from '#server/test/worker-processes.ts';

/**
 * Crash safety with real processes: a web process (this one, with the emulators) and two sync worker
 * processes on one PostgreSQL. While users act on both sides, the workers are killed with SIGKILL,
 * at random moments and right after a provider took a write whose answer they were still waiting for
 * (before our commit), and started again. Every user must still end exactly as the model says, and
 * no two runs of one user may ever overlap, across both workers. Then, with no crashes, many users
 * play at once: both workers share them, and the same holds.
 */
const PARALLEL = 4;
const KILLS = crashRunOptions.kills;
/** The fewest crashes the whole test must see, and so each property run. */
const LEAST_KILLS = Math.min(KILLS, 4);
const LEAST_KILLS_PER_RUN = Math.ceil(LEAST_KILLS / crashRunOptions.runs);
const LOAD_USERS = crashRunOptions.loadUsers;

/** No two runs of one user overlap in time, whichever worker ran them. */
function expectNoOverlap(reports: SyncRunReport[]) {
  // A job that found another run of its user holding the lease started nothing (it only asked to be
  // tried again): the queue may hand out two jobs of a user at once in a race, the lease never two runs.
  const runs = reports.filter((run) => !(run.outcome.status === 'retry-later' && run.outcome.anotherRun));
  for (const [userId, userRuns] of Map.groupBy(runs, (run) => run.userId)) {
    const sorted = [...userRuns].sort((a, b) => a.startedAt - b.startedAt);
    for (let index = 1; index < sorted.length; index++) {
      const [before, after] = [sorted[index - 1], sorted[index]] as [SyncRunReport, SyncRunReport];
      expect(
        after.startedAt,
        `user ${userId}: a run began before the previous one ended`,
      ).toBeGreaterThanOrEqual(before.endedAt);
    }
  }
}

describe.skipIf(!(await postgresTestsEnabled('sync crash safety')))(
  'sync survives workers killed mid-run, two at once (PostgreSQL)',
  () => {
    let app: App;
    let drop: () => Promise<void>;
    let workerConfig: Config;
    const runs: SyncRunReport[] = [];
    const workers = new Set<WorkerProcess>();
    /** Which worker process (pid) ended each run. */
    const workerOf = new WeakMap<SyncRunReport, number>();

    beforeAll(async () => {
      const scratch = await createScratchDatabase();
      drop = scratch.drop;
      app = await createTestApp({
        database: { kind: 'postgres', url: scratch.url },
        // As in the convergence test: a hanging provider given up on after 2 s.
        env: {
          AUTH_RATE_LIMIT_PER_MINUTE: '100000',
          SYNC_PROVIDER_TIMEOUT_MS: '2000',
          // The model knows no safety brake (its own tests prove it): a sequence's deletes never trip it.
          SYNC_BRAKE_MIN_ITEMS: '100000',
        },
        overrides: { role: 'web' },
      });
      const address = await app.server.listen({ host: 'localhost', port: 0 });
      await app.listening(address.replace('127.0.0.1', 'localhost'));
      workerConfig = { ...app.config, database: { kind: 'postgres', url: scratch.url } };
    });
    afterAll(async () => {
      for (const worker of workers) worker.child.kill('SIGKILL');
      await app?.close();
      await drop?.();
    });

    function startWorker(): WorkerProcess {
      const worker: WorkerProcess = startWorkerProcess(
        workerConfig,
        (run) => {
          runs.push(run);
          workerOf.set(run, worker.child.pid ?? 0);
        },
        app.emulators?.microsoft.caPath,
      );
      workers.add(worker);
      void worker.exited.then(() => workers.delete(worker));
      return worker;
    }

    async function killAll(): Promise<void> {
      const dying = [...workers];
      for (const worker of dying) worker.child.kill('SIGKILL');
      await Promise.all(dying.map((worker) => worker.exited));
    }

    /**
     * Holds the answer to the next write any provider gets (the method each is aimed at changes from
     * one crash to the next), then kills every worker meanwhile; if no such write comes within 10 s,
     * kills them anyway. The rules no write met are taken away: left armed, each would hold a later
     * call's answer (a read too: Todoist reads are POSTs) past the provider timeout, and a few of them
     * meeting one user's retries in a row left that user failing past the settle's patience.
     */
    async function killAfterAWrite(nth: number): Promise<string> {
      const emulators = app.emulators;
      if (!emulators) throw new Error('the test app runs in sandbox mode');
      const writes = [
        {
          name: 'Google',
          origin: emulators.googleCalendar.origin,
          path: '/calendar/v3/calendars/',
          methods: ['POST', 'PATCH', 'DELETE'],
        },
        { name: 'Todoist', origin: emulators.todoist.origin, path: '/api/v1/sync', methods: ['POST'] },
        {
          name: 'Microsoft',
          origin: emulators.microsoft.origin,
          path: '/v1.0/me/calendars/',
          methods: ['POST', 'PATCH', 'DELETE'],
        },
      ] as const;
      const armed = await Promise.all(
        writes.map(async (target) => {
          const method = target.methods[nth % target.methods.length] as string;
          const rule = await emulatorControl(target.origin, 'faults', {
            kind: 'late-response',
            latencyMs: 5000,
            times: 1,
            method,
            path: target.path,
          });
          return { ...target, method, id: rule.id as number };
        }),
      );
      const consumed = async (target: (typeof armed)[number]) => {
        const { rules } = await emulatorControl(target.origin, 'faults');
        return !rules.some((each: { id: number }) => each.id === target.id);
      };
      let held: (typeof armed)[number] | undefined;
      const deadline = Date.now() + 10_000;
      while (!held && Date.now() < deadline) {
        const met = await Promise.all(armed.map(consumed));
        held = armed[met.indexOf(true)];
        if (!held) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      // The write is stored; its answer is on hold: the worker dies before it can record it.
      await new Promise((resolve) => setTimeout(resolve, 100));
      await killAll();
      await Promise.all(
        armed
          .filter((target) => target !== held)
          .map((target) => fetch(`${target.origin}/_emulator/faults/${target.id}`, { method: 'DELETE' })),
      );
      return held ? `after a ${held.name} write (${held.method})` : 'while waiting for a provider write';
    }

    /** Kills the workers again and again while the users play, starting two new ones each time. */
    async function chaos(done: () => boolean, pauses: () => number, kills: string[]) {
      const before = kills.length;
      while (!done() && kills.length - before < KILLS) {
        await new Promise((resolve) => setTimeout(resolve, pauses()));
        if (done()) break;
        // Every other crash lands between a provider's write and our commit of it.
        if ((kills.length - before) % 2 === 0) {
          await killAll();
          kills.push('at a random moment');
        } else {
          const tried = kills.filter((kill) => kill.startsWith('after') || kill.startsWith('while')).length;
          kills.push(await killAfterAWrite(tried));
        }
        const restartedAt = Date.now();
        await Promise.all([startWorker().ready, startWorker().ready]);
        // Let the sync make progress before the next crash.
        const deadline = Date.now() + 30_000;
        while (!runs.some((run) => run.startedAt >= restartedAt) && Date.now() < deadline && !done()) {
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
    }

    it('ends every user as the model says, with no two runs of a user at once', async () => {
      await Promise.all([startWorker().ready, startWorker().ready]);
      const { play } = createModelHarness(app, runs, 'model', undefined, { pushChecked: false });
      const kills: string[] = [];
      await fc.assert(
        fc.asyncProperty(
          userPlans(PARALLEL, modelRunOptions.maxCommands),
          fc.infiniteStream(fc.integer({ min: 300, max: 2000 })),
          async (plans, pauses) => {
            let finished = false;
            const killsBefore = kills.length;
            const crashing = chaos(
              () => finished,
              () => pauses.next().value as number,
              kills,
            );
            try {
              // A fast sync can settle every user before the workers were crashed often enough: the
              // same actions are then played again by new users, crashed meanwhile, up to three times.
              for (let round = 0; round < 3; round++) {
                await Promise.all(plans.map(play));
                if (kills.length - killsBefore >= LEAST_KILLS_PER_RUN) break;
              }
            } finally {
              finished = true;
              await crashing;
            }
          },
        ),
        {
          numRuns: crashRunOptions.runs,
          endOnFailure: true,
          ...(modelRunOptions.seed !== undefined ? { seed: modelRunOptions.seed } : {}),
        },
      );
      expect(kills.length, `kills: ${kills.join('; ')}`).toBeGreaterThanOrEqual(LEAST_KILLS);
      expect(
        kills.some((kill) => kill.startsWith('after')),
        `kills: ${kills.join('; ')}`,
      ).toBe(true);
      expectNoOverlap(runs);
      // Every user of every property run was synced (a settle waits for it), crashes or not.
      expect(runs.length).toBeGreaterThanOrEqual(PARALLEL * crashRunOptions.runs);
    }, 600_000);

    it(`shares a load of ${LOAD_USERS} users at once between both workers, never syncing one user twice at once`, async () => {
      while (workers.size < 2) await startWorker().ready;
      const { play } = createModelHarness(app, runs, 'load', undefined, { pushChecked: false });
      const before = runs.length;
      await fc.assert(
        fc.asyncProperty(userPlans(LOAD_USERS, modelRunOptions.maxCommands), async (plans) => {
          await Promise.all(plans.map(play));
        }),
        {
          numRuns: 1,
          endOnFailure: true,
          ...(modelRunOptions.seed !== undefined ? { seed: modelRunOptions.seed } : {}),
        },
      );
      const loadRuns = runs.slice(before);
      expectNoOverlap(loadRuns);
      // Both processes took the load's runs, and each served several users.
      const byWorker = Map.groupBy(loadRuns, (run) => workerOf.get(run) ?? 0);
      expect(byWorker.size, 'workers that ran the load').toBe(2);
      for (const served of byWorker.values())
        expect(new Set(served.map((run) => run.userId)).size).toBeGreaterThan(1);
    }, 600_000);
  },
);
