import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { trustCertificate } from '#emulators/microsoft/microsoft.certificate.ts';
import { createApp } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';
import { USER_SYNC_QUEUE } from '#server/jobs/queue-jobs.ts';
import { appEnvironment } from './app-env.ts';
import { createBenchUsers } from './bench-users.ts';
import { serveParent } from './host-serve.ts';
import { createObserver, type RequestRecord, type RunRecord } from './observer.ts';
import type { CallCounts, HostApi, HostOptions, Ready, WindowStats } from './protocol.ts';
import { queuedUsersOf } from './queued-users.ts';
import { profileSql } from './sql-profile.ts';
import { distribution, loopDelayMonitor, now, sleep } from './stats.ts';

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
const connection = app.database.queueConnection;
const sqlProfile = options.sqlProfile
  ? profileSql(
      connection.kind === 'pglite' ? { kind: 'pglite', client: connection.client } : { kind: 'postgres' },
    )
  : null;
const address = await app.server.listen({ host: 'localhost', port: 0 });
appOrigin = address.replace('127.0.0.1', 'localhost').replace('[::1]', 'localhost');
await app.listening(appOrigin);

/** Every 50 ms: runs in flight and lanes open, and statements waiting for a database connection. */
type ConcurrencySample = { at: number; runs: number; lanes: number; waiting: number };
const concurrency: ConcurrencySample[] = [];
setInterval(() => {
  const lanes = app.sync.queue.syncLanes();
  concurrency.push({
    at: now(),
    runs: lanes.busy,
    lanes: lanes.open,
    waiting: app.database.connections.waiting(),
  });
}, 50).unref();

const requestsByUser = new Map<string, RequestRecord[]>();
const runsByUser = new Map<string, RunRecord[]>();
const remember = <T>(map: Map<string, T[]>, key: string | null, value: T) => {
  if (key === null) return;
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
};
let indexedRequests = 0;
let indexedRuns = 0;
/** Records are appended as they start; index the new ones by user (cheap, incremental). */
function index() {
  for (; indexedRequests < observer.requests.length; indexedRequests++) {
    const record = observer.requests[indexedRequests] as RequestRecord;
    remember(requestsByUser, record.userId, record);
  }
  for (; indexedRuns < observer.runs.length; indexedRuns++) {
    const run = observer.runs[indexedRuns] as RunRecord;
    remember(runsByUser, run.userId, run);
  }
}
const requestsOf = (userId: string) => {
  index();
  return requestsByUser.get(userId) ?? [];
};
function concurrencyIn(from: number, to: number): WindowStats['concurrency'] {
  const samples = concurrency.filter((sample) => sample.at >= from && sample.at <= to);
  return {
    runs: distribution(samples.map((sample) => sample.runs)),
    lanes: distribution(samples.map((sample) => sample.lanes)),
    waitingForConnection: distribution(samples.map((sample) => sample.waiting)),
  };
}
const runsOf = (userId: string) => {
  index();
  return runsByUser.get(userId) ?? [];
};

/**
 * The records from the first that started at `from` on: each user's records are appended as they
 * start, so a binary search finds it, and a change's observer (polled every 25–50 ms, for hundreds of
 * users at once) never scans the user's whole history in the app's process it measures.
 */
function startingFrom<T extends { start: number }>(records: T[], from: number): T[] {
  let low = 0;
  let high = records.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((records[middle] as T).start < from) low = middle + 1;
    else high = middle;
  }
  return low === 0 ? records : records.slice(low);
}

const emptyCounts = (): CallCounts => ({
  todoistReads: 0,
  todoistWrites: 0,
  calendarReads: 0,
  calendarWrites: 0,
  other: 0,
});
function count(records: Iterable<RequestRecord>): CallCounts {
  const counts = emptyCounts();
  for (const record of records) {
    if (record.target === 'todoist' && record.kind === 'read') counts.todoistReads += 1;
    else if (record.target === 'todoist' && record.kind === 'write') counts.todoistWrites += 1;
    else if (record.target === 'calendar' && record.kind === 'read') counts.calendarReads += 1;
    else if (record.target === 'calendar' && record.kind === 'write') counts.calendarWrites += 1;
    else if (record.target === 'todoist' || record.target === 'calendar') counts.other += 1;
  }
  return counts;
}
const callsOfRuns = (userId: string, runs: RunRecord[]) => {
  const ids = new Set(runs.map((run) => run.id));
  return count(requestsOf(userId).filter((record) => record.runId !== null && ids.has(record.runId)));
};

/** Users with a sync job waiting or running in the queue. */
const queuedUsers = queuedUsersOf(app.database.db);

const lastRunEnd = (userId: string) => {
  const runs = runsOf(userId);
  return runs.length === 0 ? 0 : Math.max(...runs.map((run) => run.end ?? Number.POSITIVE_INFINITY));
};

async function idle(userIds: string[], quietMs: number): Promise<boolean> {
  const at = now();
  for (const userId of userIds) {
    if (observer.isRunning(userId) || at - lastRunEnd(userId) < quietMs) return false;
  }
  return (await queuedUsers(userIds)).size === 0;
}

const handlers: HostApi = {
  createUsers: (plan) =>
    createBenchUsers(
      app,
      { todoist: providers.todoist.origin, calendar: calendarOrigin },
      options.calendar,
      plan,
    ),

  async waitIdle({ userIds, timeoutMs }) {
    const started = now();
    // Twice idle 300 ms apart: a notification on its way in has arrived by then (the benchmark also
    // asks the emulators whether any is still on its way).
    while (now() - started < timeoutMs) {
      if (await idle(userIds, 300)) {
        await sleep(300);
        if (await idle(userIds, 300)) return { idle: true, waitedMs: now() - started };
      }
      await sleep(100);
    }
    return { idle: false, waitedMs: now() - started };
  },

  async observeChange({ userId, sentAt, side, timeoutMs, eventId }) {
    const deadline = sentAt + timeoutMs;
    let write: RequestRecord | undefined;
    while (!write && now() < deadline) {
      write = startingFrom(requestsOf(userId), sentAt).find(
        (record) =>
          record.target === side &&
          record.kind === 'write' &&
          record.end !== null &&
          (eventId === undefined ||
            record.path.includes(encodeURIComponent(eventId)) ||
            record.path.includes(eventId)),
      );
      // The write's own end is the figure, not when it was seen: polling less often costs the measure
      // nothing, and spares the app's process the search (hundreds of users wait at once at scale).
      if (!write) await sleep(25);
    }
    const writtenAt = write?.end ?? null;
    let settledAt: number | null = null;
    let echoSeen = false;
    if (writtenAt !== null) {
      // The write's own notification comes back (the echo) and is handled by a later run.
      while (now() < deadline) {
        echoSeen = startingFrom(runsOf(userId), writtenAt).some(
          (run) => run.start > writtenAt && run.end !== null,
        );
        if (echoSeen && (await idleUser(userId))) {
          settledAt = now();
          break;
        }
        await sleep(50);
      }
    }
    const runs = runsOf(userId);
    const changeRuns = runs.filter((run) => run.start >= sentAt && run.start <= (writtenAt ?? deadline));
    const echoRuns =
      writtenAt === null
        ? []
        : runs.filter((run) => run.start > writtenAt && run.start <= (settledAt ?? deadline));
    return {
      writtenAt,
      settledAt,
      echoSeen,
      changeRuns: changeRuns.length,
      echoRuns: echoRuns.length,
      change: callsOfRuns(userId, changeRuns),
      echo: callsOfRuns(userId, echoRuns),
      timeline: runs
        .filter(
          (run) =>
            (run.end ?? Number.POSITIVE_INFINITY) >= sentAt - 3000 && run.start <= (writtenAt ?? deadline),
        )
        .map((run) => {
          const calls = callsOfRuns(userId, [run]);
          return {
            start: run.start,
            end: run.end,
            outcome: run.outcome,
            reads: { todoist: calls.todoistReads, calendar: calls.calendarReads },
          };
        }),
    };
  },

  async jobs({ userId, from, to }) {
    const result = await app.database.db.execute(
      sql`select data->>'trigger' as trigger, state,
            extract(epoch from created_on) * 1000 as created, extract(epoch from start_after) * 1000 as due,
            extract(epoch from started_on) * 1000 as started, extract(epoch from completed_on) * 1000 as ended
          from pgboss.job where name = ${USER_SYNC_QUEUE} and singleton_key = ${userId}
            and created_on between to_timestamp(${from / 1000}) and to_timestamp(${to / 1000})
          order by created_on`,
    );
    const rows = (result as unknown as { rows: Record<string, unknown>[] }).rows;
    const time = (value: unknown) => (value === null || value === undefined ? null : Number(value));
    return rows.map((row) => ({
      trigger: (row.trigger as string | null) ?? null,
      state: String(row.state),
      created: Number(row.created),
      due: Number(row.due),
      started: time(row.started),
      ended: time(row.ended),
    }));
  },

  async userRequests({ userId, from, to }) {
    return requestsOf(userId)
      .filter((record) => record.start >= from && record.start <= to)
      .flatMap((record) =>
        record.target === 'todoist' || record.target === 'calendar'
          ? [{ target: record.target, start: record.start, status: record.status }]
          : [],
      );
  },

  async window({ from, to }) {
    const inWindow = (at: number) => at >= from && at <= to;
    const requests = observer.requests.filter((record) => inWindow(record.start));
    const runs = observer.runs.filter((run) => inWindow(run.start) && run.end !== null);
    const stats: WindowStats = {
      appRequests: {
        todoist: requests.filter((record) => record.target === 'todoist').length,
        calendar: requests.filter((record) => record.target === 'calendar').length,
      },
      calls: count(requests),
      served: distribution(
        observer.served
          .filter((entry) => inWindow(entry.start) && entry.path.startsWith('/api/webhooks/'))
          .map((entry) => entry.end - entry.start),
      ),
      runs: {
        total: runs.length,
        synced: runs.filter((run) => run.outcome === 'synced').length,
        retryLater: runs.filter((run) => run.outcome === 'retry-later').length,
        other: runs.filter((run) => run.outcome !== 'synced' && run.outcome !== 'retry-later').length,
        durations: distribution(
          runs.filter((run) => run.outcome === 'synced').map((run) => (run.end as number) - run.start),
        ),
      },
      concurrency: concurrencyIn(from, to),
    };
    return stats;
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

  async linkCount({ userId }) {
    const result = await app.database.db.execute(
      sql`select count(*)::int as n from sync_links
          where user_id = ${userId} and task_id is not null and event_id is not null`,
    );
    return (result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0;
  },

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

  async stop() {
    await app.close();
    observer.close();
  },
};

async function idleUser(userId: string): Promise<boolean> {
  if (observer.isRunning(userId) || now() - lastRunEnd(userId) < 150) return false;
  return (await queuedUsers([userId])).size === 0;
}

serveParent(handlers, () => app.close());

process.send?.({ type: 'ready', appOrigin } satisfies Ready);
