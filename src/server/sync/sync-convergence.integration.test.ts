import { and, eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App, SyncRunReport } from '#server/app.ts';
import { integrations } from '#server/db/schema/integrations.table.ts';
import { createTokenCipher } from '#server/domain/integrations/token-cipher.ts';
import { testDatabases } from '#server/test/databases.ts';
import { berlinAt, emulatorControl, syncingUser } from '#server/test/sync-fixtures.ts';
import { expectedEvents, expectedTasks, initialModel, type Model, settled } from '#server/test/sync-model.ts';
import { modelRunOptions, type Real, userSequences } from '#server/test/sync-model-commands.ts';
import { createTestApp } from '#server/test/test-app.ts';

/**
 * Model-based: random sequences of what users do on both sides (tasks and events created, edited,
 * moved, resized, relabelled, completed, reopened, deleted; sync switched off and on; settings
 * changed) with faults injected (429 with Retry-After, 5xx, lost answers after the write, slow
 * answers, notifications dropped, duplicated, reordered and late, sync tokens and channels expired),
 * through the emulators, the webhooks, the queue and the worker. At every settle both sides must
 * match the model: every in-scope task has exactly one event with its title, time and length, every
 * synced event one task, nothing out of scope touched, nothing the user wrote lost, no duplicates.
 *
 * Each property run plays PARALLEL users' sequences at once (the worker serves them together).
 * SYNC_MODEL_RUNS and SYNC_MODEL_SEED set the number of runs and the seed (`npm run test:sync-soak`).
 * A failure prints the seed, the path and the shrunk sequences to replay it.
 */
const PARALLEL = 4;
const { runsFor, seed, maxCommands: MAX_COMMANDS } = modelRunOptions;

const BERLIN_HOUR = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/Berlin',
  hour: '2-digit',
  hourCycle: 'h23',
});

/** The local hour of a Todoist due (floating or fixed), or null for a date without a time. */
function dueHour(due: { date: string; datetime?: string | null } | null | undefined): number | null {
  const value = due?.datetime ?? due?.date ?? '';
  if (!value.includes('T')) return null;
  if (/(Z|[+-]\d\d:\d\d)$/.test(value)) return Number(BERLIN_HOUR.format(new Date(value)));
  return Number(value.slice(11, 13));
}

for (const database of await testDatabases('sync convergence')) {
  describe.skipIf(!database.enabled)(`sync converges under faults (${database.name})`, () => {
    let app: App;
    let cleanup: () => Promise<void>;
    const runs: SyncRunReport[] = [];
    let users = 0;

    beforeAll(async () => {
      const created = await database.create();
      cleanup = created.cleanup;
      app = await createTestApp({
        database: created.target,
        // Runs of one user are spaced for provider quotas; the emulators have none, and the test
        // would mostly wait.
        env: { AUTH_RATE_LIMIT_PER_MINUTE: '100000', SYNC_RUN_SPACING_MS: '0' },
        overrides: { role: 'all', onSyncRun: (run) => runs.push(run) },
      });
      const address = await app.server.listen({ host: 'localhost', port: 0 });
      await app.listening(address.replace('127.0.0.1', 'localhost'));
    });
    afterAll(async () => {
      await app?.close();
      await cleanup?.();
    });

    /** The first run of the user that started at or after `since` and got to the end. */
    async function runSince(userId: string, since: number) {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const run = runs.find(
          (each) =>
            each.userId === userId && each.startedAt >= since && each.outcome.status !== 'retry-later',
        );
        if (run) return run;
        if (Date.now() > deadline) throw new Error('no sync run within 60 s');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }

    /** Asks for runs, as the reconcile would, until one finds nothing left to write. */
    async function quiet(userId: string) {
      for (let round = 0; round < 8; round++) {
        const since = Date.now();
        await app.sync.queue.requestSync(userId);
        const run = await runSince(userId, since);
        if (run.outcome.status !== 'synced') throw new Error(`sync run ended ${JSON.stringify(run.outcome)}`);
        if (run.outcome.writes === 0) return;
      }
      throw new Error('every run wrote something: the sync does not settle (an echo loop?)');
    }

    async function compare(model: Model, real: Real) {
      const { user } = real;
      const events =
        (await user.google.events.list({ calendarId: user.calendarId, maxResults: 2500 })).data.items ?? [];
      const openTasks = (await user.todoist.getTasks({ limit: 200 })).results;
      const wantedEvents = expectedEvents(model);
      const wantedTasks = expectedTasks(model);

      const sorted = (values: (string | null | undefined)[]) => values.map(String).sort();
      expect(sorted(events.map((event) => event.summary)), 'the calendar’s events').toEqual(
        sorted(wantedEvents.map((event) => event.summary)),
      );
      expect(sorted(openTasks.map((task) => task.content)), 'the open tasks').toEqual(
        sorted(wantedTasks.filter((task) => !task.checked).map((task) => task.content)),
      );

      for (const wanted of wantedEvents) {
        const event = events.find((each) => each.summary === wanted.summary);
        const start = new Date(event?.start?.dateTime ?? 0).getTime();
        const end = new Date(event?.end?.dateTime ?? 0).getTime();
        const label = `event “${wanted.summary}”`;
        expect(start, `${label} starts`).toBe(berlinAt(real.day, wanted.hour).instant.getTime());
        expect((end - start) / 60_000, `${label} lasts`).toBe(wanted.minutes);
        expect(event?.colorId ?? null, `${label} colour`).toBe(wanted.colour);
        if (wanted.linkDescription !== null) {
          const taskId = openTasks.find((task) => task.content === wanted.item.title)?.id ?? '?';
          expect(event?.description ?? null, `${label} description`).toBe(
            wanted.linkDescription ? `https://app.todoist.com/app/task/${taskId}` : null,
          );
        }
        real.eventIds.set(wanted.item.id, event?.id ?? '');
      }
      for (const wanted of wantedTasks) {
        const label = `task “${wanted.content}”`;
        if (wanted.checked) {
          const task = await user.todoist.getTask(real.taskIds.get(wanted.item.id) ?? '');
          expect(task.checked, `${label} is done`).toBe(true);
          continue;
        }
        const task = openTasks.find((each) => each.content === wanted.content);
        expect(task?.due?.date.slice(0, 10), `${label} day`).toBe(real.day);
        expect(dueHour(task?.due), `${label} hour`).toBe(wanted.hour);
        expect([...(task?.labels ?? [])].sort(), `${label} labels`).toEqual(wanted.labels);
        real.taskIds.set(wanted.item.id, task?.id ?? '');
      }
    }

    async function settle(model: Model, real: Real) {
      // While sync is off nothing moves; the changes wait for it to be switched on.
      if (!model.syncOn) return;
      await emulatorControl(real.user.origins.todoist, 'notifications/flush', {});
      await emulatorControl(real.user.origins.google, 'notifications/flush', {});
      await quiet(real.user.userId);
      await compare(model, real);
      settled(model);
    }

    async function appToken(userId: string, provider: 'todoist' | 'google') {
      const kind = provider === 'todoist' ? 'todoist' : 'calendar';
      const [row] = await app.database.db
        .select()
        .from(integrations)
        .where(and(eq(integrations.userId, userId), eq(integrations.kind, kind)));
      if (!row) throw new Error(`no ${kind} integration`);
      return createTokenCipher(app.config.tokenKeys).decrypt(row.accessTokenEncrypted);
    }

    async function play(commands: Iterable<fc.AsyncCommand<Model, Real>>, onComplete: Model['onComplete']) {
      users += 1;
      const user = await syncingUser(app, `model-${users}@example.com`, { onComplete });
      const day = new Date(Date.now() + 24 * 3600_000).toISOString().slice(0, 10);
      const model = initialModel(`m${users}`, onComplete);
      const real: Real = {
        user,
        day,
        taskIds: new Map(),
        eventIds: new Map(),
        appToken: (provider) => appToken(user.userId, provider),
        settle: (current) => settle(current, real),
      };
      await fc.asyncModelRun(() => ({ model, real }), commands);
      if (!model.syncOn) {
        await user.send('PATCH', '/api/settings/onsyncactive', { setting: true });
        model.syncOn = true;
      }
      await settle(model, real);
    }

    it(`plays ${runsFor(database.name) * PARALLEL} random sequences and ends with both sides as the model says`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.tuple(
              fc.constantFrom<Model['onComplete']>('nothing', 'checkmark', 'remove'),
              userSequences(MAX_COMMANDS),
            ),
            { minLength: PARALLEL, maxLength: PARALLEL },
          ),
          async (sequences) => {
            await Promise.all(sequences.map(([onComplete, commands]) => play(commands, onComplete)));
          },
        ),
        { numRuns: runsFor(database.name), ...(seed !== undefined ? { seed } : {}), verbose: 1 },
      );
    }, runsFor(database.name) * 60_000);
  });
}
