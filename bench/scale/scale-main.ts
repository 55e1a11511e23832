import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { PgBoss } from 'pg-boss';
import { trustCertificate } from '#emulators/microsoft/microsoft.certificate.ts';
import { RECONCILE_QUEUE } from '#server/jobs/queue-jobs.ts';
import { SYNC_PATHS } from '#shared/api/sync.schema.ts';
import { appEnvironment } from '../app-env.ts';
import { keepStatistics, openDatabase } from '../database.ts';
import { startChild } from '../host-client.ts';
import { cleanUpOnInterrupt } from '../interrupt.ts';
import { checkMachine } from '../machine.ts';
import type { Options } from '../options.ts';
import type { Emulators, Origins } from '../processes.ts';
import type { EmulatorApi, EmulatorsReady } from '../protocol.ts';
import { calendarName, log, phase } from '../report.ts';
import { now, round } from '../stats.ts';
import { AppProcesses, freePort } from './app-processes.ts';
import { liveChanges } from './live-changes.ts';
import { waitQueueEmpty } from './queue-watch.ts';
import { printScale, scaleFigures } from './scale-report.ts';
import { seedScaleUsers } from './scale-seed.ts';
import { runWave } from './wave.ts';

/** Worker processes of the scale run (and one web process), as a small deployment runs them. */
const WORKERS = 2;
/** The share of users making live changes during the wave. */
const LIVE_SHARE = 0.01;

/** Sends the reconcile job the schedule would send: the workers queue every active user's run. */
async function startReconcile(url: string, spreadSeconds: number) {
  const boss = new PgBoss({ connectionString: url, schema: 'pgboss', supervise: false, schedule: false });
  await boss.start();
  try {
    const id = await boss.send(RECONCILE_QUEUE, { jitterSeconds: spreadSeconds });
    if (!id) throw new Error('the reconcile job was not queued (another one is waiting)');
  } finally {
    await boss.stop({ graceful: false });
  }
}

/**
 * `npm run bench -- --scale [--users=10000] [--latency=100] [--spread=0] [--calendar=google|microsoft]`:
 * the app as deployed (one web and two worker processes on PostgreSQL) with `users` users seeded
 * directly, each with a calendar of `calendar` (Google Calendar unless asked), `latency` ms on every
 * provider call. A first reconcile wave makes every user's first run; then, while 1% of the users add
 * timeboxed tasks, a second wave reads every user's both sides again. Prints the figures, then one JSON
 * line with them under `scale`.
 */
export async function scaleBench(options: Options): Promise<void> {
  const benchStarted = now();
  const database = await openDatabase('postgres');
  if (database.options.kind !== 'postgres') throw new Error('the scale run needs PostgreSQL');
  const url = database.options.url;
  const logFile = join(tmpdir(), `timeboxer-scale-${process.pid}.log`);
  const profileDir = join(process.cwd(), '.data', 'bench-profiles');
  const apps = new AppProcesses();
  let emulators: Emulators | undefined;
  const client = new pg.Client({ connectionString: url });
  const statistics = keepStatistics(url);
  cleanUpOnInterrupt(async () => {
    await statistics.stop();
    await client.end().catch(() => undefined);
    await apps.stop();
    await emulators?.stop().catch(() => undefined);
    await database.drop();
  });
  const microsoft = options.calendar === 'microsoft';
  calendarName.label = microsoft ? 'Microsoft' : 'Google';
  try {
    log(
      `Timeboxer scale benchmark: ${options.users} users with ${microsoft ? 'Microsoft 365' : 'Google Calendar'}, ` +
        `${options.latencyMs} ms added ` +
        `to every provider call, PostgreSQL, one web and ${WORKERS} worker processes; app log: ${logFile}` +
        (options.profile ? `; CPU profiles of the app's processes in ${profileDir}` : ''),
    );
    const machine = checkMachine();
    log(
      `this machine now: ${machine.loopNsPerStep} ns a loop step, ${machine.memoryLatencyNs} ns a dependent load`,
    );
    emulators = await startChild<EmulatorApi, EmulatorsReady>('./emulators-host.ts', {});
    const endpoints = emulators.ready.emulators;
    // Graph is served over HTTPS with the emulator's own CA: this process (which seeds the users through
    // it) trusts it now, the app's processes at their start (NODE_EXTRA_CA_CERTS).
    if (microsoft) trustCertificate(readFileSync(endpoints.microsoft.caPath, 'utf8'));

    phase('Seeding users in the emulators and the database');
    let started = now();
    const run = { count: options.users, kind: options.calendar };
    const users = await seedScaleUsers(endpoints, url, run, (seeded) => {
      if (seeded % 2000 < 250) log(`  ${seeded} users`);
    });
    log(`${users.length} users seeded in ${round((now() - started) / 1000)} s`);

    const port = await freePort();
    const origin = `http://localhost:${port}`;
    const env = {
      ...appEnvironment({
        emulators: endpoints,
        database: database.options,
        maxRuns: options.maxRuns,
        calendar: options.calendar,
        logLevel: 'info',
      }),
      ...(microsoft ? { NODE_EXTRA_CA_CERTS: endpoints.microsoft.caPath } : {}),
      APP_URL: origin,
      HOST: 'localhost',
      PORT: String(port),
      // The benchmark starts the waves itself.
      SYNC_RECONCILE_MINUTES: '0',
    };
    const files = { logFile, profileDir: options.profile ? profileDir : null };
    await apps.start('web', env, files);
    for (let worker = 0; worker < WORKERS; worker++) await apps.start('worker', env, files);
    await emulators.call('setApp', { origin, todoistWebhook: SYNC_PATHS.todoistWebhook });
    await emulators.call('setLatency', { latencyMs: options.latencyMs });
    await client.connect();
    const origins: Origins = {
      app: origin,
      todoist: endpoints.todoist.origin,
      calendar: microsoft ? endpoints.microsoft.origin : endpoints.googleCalendar.origin,
    };

    phase("First wave: every user's first run (full reads, a push channel each)");
    started = now();
    const first = await runWave({ client, apps, emulators, origins }, () =>
      startReconcile(url, options.spreadSeconds),
    );
    if (!(await waitQueueEmpty(client, 600_000)))
      throw new Error('the first runs did not settle in 10 minutes');
    log(`first runs and their echoes settled in ${round((now() - started) / 1000)} s`);

    phase(`Reconcile wave with live changes of ${Math.round(LIVE_SHARE * 100)}% of the users`);
    const live = users.slice(0, Math.max(1, Math.round(users.length * LIVE_SHARE)));
    let waveRunning = true;
    const changes = liveChanges(live, endpoints.todoist.origin, client, () => waveRunning);
    const wave = await runWave(
      { client, apps, emulators, origins },
      () => startReconcile(url, options.spreadSeconds),
      () => {
        waveRunning = false;
      },
    );
    const figures = scaleFigures({
      options,
      users: users.length,
      first,
      wave,
      changes: await changes,
      database: await databaseSize(client),
      benchSeconds: (now() - benchStarted) / 1000,
    });
    printScale(figures);
    await statistics.stop();
    await client.end();
    await apps.stop();
    await emulators.stop();
    await database.drop();
    console.log(JSON.stringify({ scale: { ...figures, calendar: options.calendar, machine } }));
  } catch (error) {
    await statistics.stop();
    await client.end().catch(() => undefined);
    await apps.stop();
    await emulators?.stop().catch(() => undefined);
    await database.drop().catch(() => undefined);
    throw error;
  }
}

/** The app's tables (all but the job queue's) and the whole database, in bytes. */
async function databaseSize(client: pg.Client) {
  const { rows } = await client.query(
    `select
       (select sum(pg_total_relation_size(c.oid)) from pg_class c join pg_namespace n on n.oid = c.relnamespace
         where n.nspname = 'public' and c.relkind = 'r')::float8 as app,
       pg_database_size(current_database())::float8 as total`,
  );
  const row = rows[0] as { app: number; total: number };
  return { appBytes: Number(row.app), totalBytes: Number(row.total) };
}
