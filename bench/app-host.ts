import { readFileSync } from 'node:fs';
import { trustCertificate } from '#emulators/microsoft/microsoft.certificate.ts';
import { createApp } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';
import { linkedPairCount, userSyncJobs } from './app-database-reads.ts';
import { appEnvironment } from './app-env.ts';
import { createBenchUsers } from './bench-users.ts';
import { observeChange } from './change-observation.ts';
import { sampleConcurrency } from './concurrency-samples.ts';
import { serveParent } from './host-serve.ts';
import { createObserver } from './observer.ts';
import type { HostApi, HostOptions, Ready } from './protocol.ts';
import { queuedUsersOf } from './queued-users.ts';
import { recordsByUser } from './records-by-user.ts';
import { watchRunStatements } from './run-statements.ts';
import { profileSql } from './sql-profile.ts';
import { loopDelayMonitor, now, sleep } from './stats.ts';
import { userIdleness } from './user-idleness.ts';
import { windowStats } from './window-stats.ts';

/**
 * The app under test, in its own process as in production: role `all` (web and worker), listening on a
 * real port, configured for "live" providers that are the emulators in their own process. The benchmark
 * drives it from outside and asks this process, over IPC, what the observer saw.
 */

const readLoopDelay = loopDelayMonitor();
const options = JSON.parse(process.argv[2] ?? '{}') as HostOptions;
const providers = options.emulators;
// Graph is served over HTTPS with the emulator's own CA: trusted before anything connects (as
// NODE_EXTRA_CA_CERTS would at a deployment's start).
if (options.calendar === 'microsoft') trustCertificate(readFileSync(providers.microsoft.caPath, 'utf8'));
// Info, as in production: every request and sync run is logged (to a file, not the bench's output).
const config = loadConfig(appEnvironment({ ...options, logLevel: options.logFile ? 'info' : 'silent' }));
/** The users' calendar provider: where the app calls it, and where the users' own clients do. */
const calendarOrigin =
  options.calendar === 'microsoft' ? providers.microsoft.origin : providers.googleCalendar.origin;
// The reconcile every 15 minutes reads every user's both sides; the queue phase measures such runs on
// their own, and one falling inside the latency phase would count as extra reads of the changes there.
const app = await createApp(config, { role: 'all', scheduledReconcile: false });
let appOrigin = '';
const observer = createObserver({
  todoist: providers.todoist.origin,
  calendar: calendarOrigin,
  app: () => appOrigin,
});
observer.watchEngine(app.sync.engine);
const runStatements = watchRunStatements(app);
const connection = app.database.queueConnection;
const sqlProfile = options.sqlProfile
  ? profileSql(
      connection.kind === 'pglite' ? { kind: 'pglite', client: connection.client } : { kind: 'postgres' },
    )
  : null;
const address = await app.server.listen({ host: 'localhost', port: 0 });
appOrigin = address.replace('127.0.0.1', 'localhost').replace('[::1]', 'localhost');
await app.listening(appOrigin);

const concurrency = sampleConcurrency(app);
const records = recordsByUser(observer);
const { runsOf, callsOfRuns, lastRunEnd } = records;
/** Users with a sync job waiting or running in the queue. */
const queuedUsers = queuedUsersOf(app.database.db);
const idleness = userIdleness(observer, records, queuedUsers);

const handlers: HostApi = {
  createUsers: (plan) =>
    createBenchUsers(
      app,
      { todoist: providers.todoist.origin, calendar: calendarOrigin },
      options.calendar,
      plan,
    ),

  waitIdle: (args) => idleness.waitIdle(args),

  observeChange: (args) => observeChange(records, idleness.idleUser, args),

  jobs: (args) => userSyncJobs(app.database.db, args),

  async userRequests({ userId, from, to }) {
    return records
      .requestsOf(userId)
      .filter((record) => record.start >= from && record.start <= to)
      .flatMap((record) =>
        record.target === 'todoist' || record.target === 'calendar'
          ? [{ target: record.target, start: record.start, status: record.status }]
          : [],
      );
  },

  async window({ from, to }) {
    return windowStats(observer, concurrency.within(from, to), { from, to });
  },

  async queueRounds({ userIds, rounds }) {
    const perRound: { jobs: number; seconds: number }[] = [];
    for (let round = 0; round < rounds; round++) {
      await handlers.waitIdle({ userIds, timeoutMs: 60_000 });
      // Past the per-user spacing, so every queued run does its work at once.
      const spacingLeft = Math.max(...userIds.map((userId) => lastRunEnd(userId))) + 1100 - now();
      if (spacingLeft > 0) await sleep(spacingLeft);
      const started = now();
      await Promise.all(userIds.map((userId) => app.sync.service.request(userId)));
      let ended = started;
      const done = new Set<string>();
      while (done.size < userIds.length && now() - started < 120_000) {
        for (const userId of userIds) {
          if (done.has(userId)) continue;
          const run = runsOf(userId).find(
            (candidate) =>
              candidate.start >= started && candidate.end !== null && candidate.outcome === 'synced',
          );
          if (run) {
            done.add(userId);
            ended = Math.max(ended, run.end as number);
          }
        }
        if (done.size < userIds.length) await sleep(10);
      }
      perRound.push({ jobs: done.size, seconds: (ended - started) / 1000 });
    }
    return {
      jobs: perRound.reduce((sum, round) => sum + round.jobs, 0),
      seconds: perRound.reduce((sum, round) => sum + round.seconds, 0),
      perRound,
    };
  },

  async waitForRun({ userId, after, timeoutMs }) {
    const deadline = now() + timeoutMs;
    while (now() < deadline) {
      const run = runsOf(userId).find(
        (candidate) => candidate.start >= after && candidate.end !== null && candidate.outcome === 'synced',
      );
      if (run) {
        return {
          start: run.start,
          end: run.end as number,
          outcome: String(run.outcome),
          calls: callsOfRuns(userId, [run]),
        };
      }
      await sleep(20);
    }
    return null;
  },

  linkCount: ({ userId }) => linkedPairCount(app.database.db, userId),

  loopDelay: async () => readLoopDelay(),

  async served({ from, to }) {
    return observer.served.filter((record) => record.start >= from && record.start <= to);
  },

  async memory() {
    const usage = process.memoryUsage();
    const mb = (bytes: number) => bytes / 1024 / 1024;
    return {
      peakRssMb: process.resourceUsage().maxRSS / 1024,
      rssMb: mb(usage.rss),
      heapUsedMb: mb(usage.heapUsed),
      externalMb: mb(usage.external),
      cpuMs: (process.cpuUsage().user + process.cpuUsage().system) / 1000,
    };
  },

  async sqlStats({ limit }) {
    return sqlProfile?.top(limit) ?? [];
  },

  runStatements: async (window) => runStatements.within(window),

  async stop() {
    await app.close();
    observer.close();
  },
};

serveParent(handlers, () => app.close());

process.send?.({ type: 'ready', appOrigin } satisfies Ready);
