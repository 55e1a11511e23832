import { execFileSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { POSTGRES_URL } from '#server/test/postgres.ts';
import { SYNC_PATHS } from '#shared/api/sync.schema.ts';
import { Actor, type ChangeKind, type MadeChange, ownRequests } from './actors.ts';
import type { BenchUser } from './bench-users.ts';
import { type Child, startChild } from './host-client.ts';
import type { ServedRecord } from './observer.ts';
import type {
  CallCounts,
  ChangeObservation,
  EmulatorApi,
  EmulatorsReady,
  HostApi,
  HostOptions,
  Ready,
} from './protocol.ts';
import { type Distribution, distribution, inBatches, now, ratio, round, sleep, table } from './stats.ts';

/**
 * `npm run bench [-- --db=pglite|postgres] [--users=50] [--latency=20] [--quick] [--profile] [--sql-profile]
 *   [--edits=8] [--quota-minutes=15]`
 *
 * Three processes: the provider emulators (`latency` ms added to every provider call), the app (web and
 * worker, configured for the emulators as for real providers) and this one, which acts as `users` users
 * with tasks and events and measures the sync end to end through the real path: a change through the
 * user's own Todoist or Google client, the provider's notification, the app's webhook route, the job
 * queue, the worker, and the app's write on the other side. Prints a table, then one JSON line.
 */

type Options = {
  db: 'pglite' | 'postgres';
  users: number;
  latencyMs: number;
  quick: boolean;
  profile: boolean;
  sqlProfile: boolean;
  changesPerUser: number;
  editsPerUser: number;
  /** Minutes of the quota phase (0: skipped). */
  quotaMinutes: number;
  burstPerUser: number;
  queueRounds: number;
  apiSeconds: number;
  initialTasks: number;
  initialEvents: number;
};

function parseOptions(args: string[]): Options {
  const value = (name: string) => args.find((arg) => arg.startsWith(`--${name}=`))?.split('=')[1];
  const flag = (name: string) => args.includes(`--${name}`);
  const number = (name: string, fallback: number) => {
    const raw = value(name);
    if (raw === undefined) return fallback;
    const parsed = Number(raw);
    if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`--${name} must be a whole number`);
    return parsed;
  };
  const known = [
    'db',
    'users',
    'latency',
    'quick',
    'profile',
    'sql-profile',
    'changes',
    'edits',
    'quota-minutes',
    'burst',
    'rounds',
    'api-seconds',
    'initial-tasks',
    'initial-events',
  ];
  for (const arg of args) {
    const name = arg.replace(/^--/, '').split('=')[0] ?? '';
    if (!arg.startsWith('--') || !known.includes(name)) throw new Error(`unknown option ${arg}`);
  }
  const db = value('db') ?? 'pglite';
  if (db !== 'pglite' && db !== 'postgres') throw new Error('--db must be pglite or postgres');
  const quick = flag('quick');
  return {
    db,
    users: Math.max(1, number('users', 50)),
    latencyMs: number('latency', 20),
    quick,
    profile: flag('profile'),
    sqlProfile: flag('sql-profile'),
    changesPerUser: Math.max(1, number('changes', quick ? 2 : 10)),
    editsPerUser: Math.max(1, number('edits', quick ? 4 : 8)),
    quotaMinutes: number('quota-minutes', 0),
    burstPerUser: Math.max(1, number('burst', quick ? 4 : 10)),
    queueRounds: Math.max(1, number('rounds', quick ? 1 : 5)),
    apiSeconds: Math.max(1, number('api-seconds', quick ? 4 : 20)),
    initialTasks: number('initial-tasks', 1000),
    initialEvents: number('initial-events', 2500),
  };
}

const TARGETS = {
  latencyP95Ms: 1000,
  /** At 20 ms per provider call: a change of a burst is written in about the time of its own calls. */
  burstLatencyP95Ms: 300,
  readsPerChange: 1,
  writesPerChange: 1,
  writesPerEcho: 0,
  ackP99Ms: 250,
  initialSyncSeconds: 60,
  apiP99Ms: 50,
};

type Host = Child<HostApi, Ready>;
type Emulators = Child<EmulatorApi, EmulatorsReady>;
type Origins = { app: string; todoist: string; google: string };

/** Until the app has nothing running or queued for these users and no notification is on its way. */
async function waitQuiet(host: Host, emulators: Emulators, userIds: string[], timeoutMs: number) {
  const started = now();
  for (;;) {
    const left = timeoutMs - (now() - started);
    const idle = await host.call('waitIdle', { userIds, timeoutMs: Math.max(0, left) });
    if (!idle.idle) return { idle: false, waitedMs: now() - started };
    if ((await emulators.call('inFlight', {})) === 0) return { idle: true, waitedMs: now() - started };
    if (now() - started > timeoutMs) return { idle: false, waitedMs: now() - started };
    await sleep(100);
  }
}

type Database = { options: HostOptions['database']; label: string; drop(): Promise<void> };

async function openDatabase(kind: Options['db']): Promise<Database> {
  if (kind === 'pglite') {
    // On disk, as the product keeps it by default (`.data/pglite`), in a folder of its own.
    const dataDir = join(tmpdir(), `timeboxer-bench-${process.pid}`);
    await rm(dataDir, { recursive: true, force: true });
    execFileSync(
      process.execPath,
      [fileURLToPath(new URL('./prepare-pglite.ts', import.meta.url)), dataDir],
      {
        stdio: 'inherit',
      },
    );
    return {
      options: { kind: 'pglite', dataDir },
      label: 'PGlite (embedded, on disk)',
      drop: () => rm(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `timeboxer_bench_${process.pid}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 5000 });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`drop database if exists ${name} with (force)`);
  await admin(`create database ${name}`);
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    options: { kind: 'postgres', url: url.toString() },
    label: 'PostgreSQL',
    drop: () => admin(`drop database if exists ${name} with (force)`),
  };
}

/** A small seeded generator, so runs choose the same changes. */
function seeded(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const log = (line: string) => console.log(line);
const phase = (name: string) => log(`\n== ${name}`);
/** The app process's memory after a phase (its peak so far, and what it holds now). */
async function memoryLine(host: Host) {
  const memory = await host.call('memory', {});
  log(
    `  app process memory: peak RSS ${round(memory.peakRssMb, 0)} MB; now RSS ${round(memory.rssMb, 0)} MB, ` +
      `JS heap ${round(memory.heapUsedMb, 0)} MB, external ${round(memory.externalMb, 0)} MB`,
  );
}

/** Requests per emulator route, as the emulators counted them (their control routes left out). */
async function emulatorRequests(origins: Origins) {
  const total = async (origin: string) => {
    const state = (await (await fetch(`${origin}/_emulator/state`)).json()) as {
      requests: Record<string, number>;
    };
    return Object.entries(state.requests)
      .filter(([route]) => !route.includes(' /_emulator/'))
      .reduce((sum, [, count]) => sum + count, 0);
  };
  return { todoist: await total(origins.todoist), google: await total(origins.google) };
}

const sumCounts = (items: CallCounts[]): CallCounts =>
  items.reduce(
    (sum, item) => ({
      todoistReads: sum.todoistReads + item.todoistReads,
      todoistWrites: sum.todoistWrites + item.todoistWrites,
      googleReads: sum.googleReads + item.googleReads,
      googleWrites: sum.googleWrites + item.googleWrites,
      other: sum.other + item.other,
    }),
    { todoistReads: 0, todoistWrites: 0, googleReads: 0, googleWrites: 0, other: 0 },
  );
const reads = (counts: CallCounts) => counts.todoistReads + counts.googleReads;
const writes = (counts: CallCounts) => counts.todoistWrites + counts.googleWrites;
const ms = (value: number) => (Number.isFinite(value) ? `${round(value)} ms` : 'n/a');
const describe = (d: Distribution) =>
  `p50 ${ms(d.p50)}, p95 ${ms(d.p95)}, p99 ${ms(d.p99)}, max ${ms(d.max)}`;

type Sample = { change: MadeChange; seen: ChangeObservation };

/**
 * What a burst costs before any app is involved: the emulators' sender posts `count` requests at once
 * (half the burst: Todoist's wave, then Google's) to a server in this process that answers each at
 * once, first on new connections, then on kept-alive ones. The app's acknowledgements cannot be faster.
 */
async function ackFloor(emulators: Emulators, count: number) {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.end('{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
  try {
    const address = server.address() as AddressInfo;
    const url = `http://localhost:${address.port}/webhook`;
    const cold = await emulators.call('burstTo', { url, count: Math.round(count) });
    const warm = await emulators.call('burstTo', { url, count: Math.round(count) });
    return { count: Math.round(count), cold, warm };
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

/**
 * Splits each acknowledgement the sender timed into the legs outside the app (both processes read the
 * same clock): from the sender's request to the app's server reading it, and from the app's answer to
 * the sender seeing it. What is left is the app's own time.
 */
function ackLegs(
  deliveries: { key: string | null; start: number; wireStart: number | null; end: number }[],
  served: ServedRecord[],
) {
  const servedByKey = new Map(
    served.flatMap((record) => (record.deliveryKey ? [[record.deliveryKey, record]] : [])),
  );
  const toApp: number[] = [];
  const back: number[] = [];
  const onWire: number[] = [];
  for (const delivery of deliveries) {
    const record = delivery.key ? servedByKey.get(delivery.key) : undefined;
    if (!record) continue;
    toApp.push(record.start - delivery.start);
    back.push(delivery.end - record.end);
    if (delivery.wireStart !== null) onWire.push(record.end - delivery.wireStart);
  }
  return {
    matched: toApp.length,
    toApp: distribution(toApp),
    back: distribution(back),
    /** From the request on the wire to the app's answer sent: the sender's own delays left out. */
    onWire: distribution(onWire),
  };
}

async function latencyPhase(host: Host, actors: Actor[], options: Options) {
  const kinds: ChangeKind[] = ['task-move', 'event-move', 'task-add'];
  const samples: Sample[] = [];
  await Promise.all(
    actors.map(async (actor, index) => {
      const random = seeded(1000 + index);
      // Users do not all start in the same second.
      await sleep(random() * 2000);
      for (let change = 0; change < options.changesPerUser; change++) {
        const kind = kinds[(index + change) % kinds.length] as ChangeKind;
        const made = await actor.change(kind, Math.floor(random() * 1000), random);
        const seen = await host.call('observeChange', {
          userId: actor.user.userId,
          sentAt: made.sentAt,
          side: made.side,
          timeoutMs: 30_000,
        });
        samples.push({ change: made, seen });
        // A person's next edit comes a moment later (after the echo of this one has been handled).
        await sleep(1000 + random() * 2000);
      }
    }),
  );
  return samples;
}

/**
 * Each user edits the way people type: a task moved, then another 0.2–3 s later, without waiting for
 * the sync of the one before (whose echo is then often still on its way). Each change's latency is
 * until the app wrote that task's event.
 */
async function quickEditsPhase(host: Host, actors: Actor[], options: Options) {
  const samples: Sample[] = [];
  await Promise.all(
    actors.map(async (actor, index) => {
      const random = seeded(5000 + index);
      await sleep(random() * 2000);
      const watching: Promise<void>[] = [];
      for (let edit = 0; edit < options.editsPerUser; edit++) {
        const made = await actor.change('task-move', edit, random);
        watching.push(
          host
            .call('observeChange', {
              userId: actor.user.userId,
              sentAt: made.sentAt,
              side: made.side,
              timeoutMs: 30_000,
              ...(made.eventId ? { eventId: made.eventId } : {}),
            })
            .then((seen) => {
              samples.push({ change: made, seen });
            }),
        );
        await sleep(200 + random() * 2800);
      }
      await Promise.all(watching);
    }),
  );
  return samples;
}

/**
 * One user edits without pause (a task moved every 0.1–0.5 s) for `minutes`: the app's calls to
 * Todoist for them stay within Todoist's published 1,000 per 15 minutes (the emulator enforces it and
 * would answer 429), and every change still reaches the calendar.
 */
async function quotaPhase(host: Host, emulators: Emulators, actor: Actor, minutes: number) {
  const started = now();
  const until = started + minutes * 60_000;
  const random = seeded(99);
  let changes = 0;
  while (now() < until) {
    await actor.change('task-move', changes, random);
    changes += 1;
    await sleep(100 + random() * 400);
  }
  await waitQuiet(host, emulators, [actor.user.userId], 120_000);
  const requests = await host.call('userRequests', { userId: actor.user.userId, from: started, to: now() });
  const todoist = requests
    .filter((request) => request.target === 'todoist')
    .map((request) => request.start)
    .sort((a, b) => a - b);
  let mostIn15Minutes = 0;
  for (let last = 0, first = 0; last < todoist.length; last++) {
    while ((todoist[last] as number) - (todoist[first] as number) >= 15 * 60_000) first += 1;
    mostIn15Minutes = Math.max(mostIn15Minutes, last - first + 1);
  }
  const consistency = await actor.consistency();
  return {
    minutes,
    changes,
    todoistCalls: todoist.length,
    mostTodoistCallsIn15Minutes: mostIn15Minutes,
    responses429: requests.filter((request) => request.status === 429).length,
    consistent: consistency.mismatches.length === 0,
  };
}

async function apiLoad(
  url: string,
  request: { method: 'GET' | 'PATCH'; headers: Record<string, string>; body?: string },
  seconds: number,
) {
  const run = (duration: number) =>
    autocannon({
      url,
      method: request.method,
      headers: request.headers,
      ...(request.body ? { body: request.body } : {}),
      connections: 10,
      overallRate: 200,
      duration,
    });
  await run(Math.min(2, Math.ceil(seconds / 4))); // warm-up, not counted
  const result = await run(seconds);
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    requests: result.requests.total,
    rate: result.requests.average,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

async function main() {
  const options = parseOptions(process.argv.slice(2));
  const benchStarted = now();
  const database = await openDatabase(options.db);
  const logFile = join(tmpdir(), `timeboxer-bench-${process.pid}.log`);
  const profileDir = join(process.cwd(), '.data', 'bench-profiles');
  let host: Host | undefined;
  let emulators: Emulators | undefined;
  const stopAll = async () => {
    await host?.stop().catch(() => undefined);
    await emulators?.stop().catch(() => undefined);
    host = undefined;
    emulators = undefined;
  };
  let interrupted = false;
  const onSignal = () => {
    if (interrupted) return;
    interrupted = true;
    console.error('interrupted: stopping the app and the emulators, removing the database');
    void stopAll().finally(() => database.drop().finally(() => process.exit(130)));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    log(
      `Timeboxer sync benchmark: ${options.users} users, ${options.latencyMs} ms added to every provider call, ` +
        `${database.label}${options.quick ? ', quick' : ''}`,
    );
    log(
      `app log: ${logFile}${options.profile ? `; CPU profiles of the app and the emulators in ${profileDir}` : ''}`,
    );
    emulators = await startChild<EmulatorApi, EmulatorsReady>(
      './emulators-host.ts',
      {},
      {
        execArgv: options.profile
          ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, '--cpu-prof-name=emulators.cpuprofile']
          : [],
      },
    );
    const endpoints = emulators.ready.emulators;
    const hostOptions: HostOptions = {
      emulators: endpoints,
      database: database.options,
      logFile,
      sqlProfile: options.sqlProfile,
    };
    host = await startChild<HostApi, Ready>('./app-host.ts', hostOptions, {
      logFile,
      execArgv: options.profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
    });
    const origins: Origins = {
      app: host.ready.appOrigin,
      todoist: endpoints.todoist.origin,
      google: endpoints.googleCalendar.origin,
    };
    await emulators.call('setApp', { origin: origins.app, todoistWebhook: SYNC_PATHS.todoistWebhook });
    await emulators.call('setLatency', { latencyMs: options.latencyMs });

    phase('Setting up users');
    let started = now();
    const users = await host.call('createUsers', {
      prefix: 'user',
      count: options.users,
      timeboxedTasks: 10,
      plainTasks: 5,
      uncolouredEvents: 2,
      colouredEvents: 3,
      syncOn: true,
      concurrency: 8,
    });
    const [apiUser] = (await host.call('createUsers', {
      prefix: 'api',
      count: 1,
      timeboxedTasks: 10,
      plainTasks: 5,
      uncolouredEvents: 2,
      colouredEvents: 3,
      syncOn: true,
      concurrency: 1,
    })) as [BenchUser];
    const everyone = [...users, apiUser].map((user) => user.userId);
    const settled = await waitQuiet(host, emulators, everyone, 180_000);
    if (!settled.idle) throw new Error('the first syncs of the users did not finish within 3 minutes');
    const actors = users.map((user) => new Actor(user, origins));
    await inBatches(actors, 10, (actor) => actor.loadPairs());
    const pairCounts = actors.map((actor) => actor.pairs.length);
    log(
      `${users.length + 1} users signed in, connected and synced in ${round((now() - started) / 1000)} s ` +
        `(10 timeboxed + 5 plain tasks, 2 uncoloured + 3 coloured events each; ` +
        `${Math.min(...pairCounts)}-${Math.max(...pairCounts)} task-event pairs per user)`,
    );

    const countersBefore = await emulatorRequests(origins);
    const ownBefore = { ...ownRequests };
    const windowStart = now();

    await memoryLine(host);
    phase('Latency: one change at a time per user, all users at once');
    started = now();
    const samples = await latencyPhase(host, actors, options);
    const latencyWindow = await host.call('window', { from: started, to: now() });
    const written = samples.filter((sample) => sample.seen.writtenAt !== null);
    const latencies = written.map((sample) => (sample.seen.writtenAt as number) - sample.change.ackAt);
    const latency = distribution(latencies);
    const withEcho = written.filter((sample) => sample.seen.echoSeen && sample.seen.settledAt !== null);
    const changeCalls = sumCounts(written.map((sample) => sample.seen.change));
    const echoCalls = sumCounts(withEcho.map((sample) => sample.seen.echo));
    const perKind = (['task-move', 'event-move', 'task-add'] as const).map((kind) => {
      const of = written.filter((sample) => sample.change.kind === kind);
      return {
        kind,
        latency: distribution(of.map((sample) => (sample.seen.writtenAt as number) - sample.change.ackAt)),
      };
    });
    log(
      `${samples.length} changes in ${round((now() - started) / 1000)} s; written ${written.length}, ` +
        `never written ${samples.length - written.length}, echo handled ${withEcho.length}`,
    );
    for (const { kind, latency: d } of perKind) log(`  ${kind.padEnd(10)} ${describe(d)} (n=${d.count})`);
    log(`  all        ${describe(latency)}`);
    // The slowest changes, with the user's runs around them (times from the change's acknowledgement).
    const slowest = [...written]
      .sort(
        (a, b) =>
          (b.seen.writtenAt as number) - b.change.ackAt - ((a.seen.writtenAt as number) - a.change.ackAt),
      )
      .slice(0, 3);
    const runsAround = (sample: Sample) => {
      const at = (time: number | null) =>
        time === null ? '…' : `${round((time - sample.change.ackAt) / 1000, 2)}`;
      const read = ({ todoist, google }: { todoist: number; google: number }) =>
        todoist + google === 0
          ? ''
          : ` (read ${[todoist && `Todoist ${todoist}`, google && `Google ${google}`].filter(Boolean).join(', ')})`;
      return sample.seen.timeline
        .map((run) => `${at(run.start)}..${at(run.end)} ${run.outcome}${read(run.reads)}`)
        .join(', ');
    };
    for (const sample of slowest) {
      log(
        `  slow: ${sample.change.kind} written after ${ms((sample.seen.writtenAt as number) - sample.change.ackAt)}; runs (s): ${runsAround(sample)}`,
      );
    }
    // A change carried over by more than one read: which runs read what (times from the acknowledgement).
    const extraReads = written.filter((sample) => reads(sample.seen.change) > 1);
    log(`  changes carried over with more than one read: ${extraReads.length} of ${written.length}`);
    for (const sample of extraReads.slice(0, 3)) {
      log(`    ${sample.change.kind}: runs (s): ${runsAround(sample)}`);
    }
    log(
      `  runs per change ${round(ratio(sum(written.map((s) => s.seen.changeRuns)), written.length), 2)}, ` +
        `per echo ${round(ratio(sum(withEcho.map((s) => s.seen.echoRuns)), withEcho.length), 2)}; ` +
        `synced runs took ${describe(latencyWindow.runs.durations)}`,
    );
    log(
      `  per change: Todoist reads ${fmt(changeCalls.todoistReads, written.length)}, writes ${fmt(changeCalls.todoistWrites, written.length)}; ` +
        `Google reads ${fmt(changeCalls.googleReads, written.length)}, writes ${fmt(changeCalls.googleWrites, written.length)}; other ${fmt(changeCalls.other, written.length)}`,
    );
    log(
      `  per echo:   Todoist reads ${fmt(echoCalls.todoistReads, withEcho.length)}, writes ${fmt(echoCalls.todoistWrites, withEcho.length)}; ` +
        `Google reads ${fmt(echoCalls.googleReads, withEcho.length)}, writes ${fmt(echoCalls.googleWrites, withEcho.length)}; other ${fmt(echoCalls.other, withEcho.length)}`,
    );

    await memoryLine(host);
    phase(`Quick edits: every user moves ${options.editsPerUser} tasks 0.2-3 s apart, not waiting for each`);
    await waitQuiet(host, emulators, everyone, 60_000);
    const editsStart = now();
    const edits = await quickEditsPhase(host, actors, options);
    await waitQuiet(host, emulators, everyone, 60_000);
    const editsWindow = await host.call('window', { from: editsStart, to: now() });
    const editsWritten = edits.filter((sample) => sample.seen.writtenAt !== null);
    const burstLatency = distribution(
      editsWritten.map((sample) => (sample.seen.writtenAt as number) - sample.change.ackAt),
    );
    const callsPerEdit = round(
      ratio(editsWindow.appRequests.todoist + editsWindow.appRequests.google, edits.length),
      2,
    );
    log(
      `${edits.length} changes; written ${editsWritten.length}, never written ${edits.length - editsWritten.length}; ` +
        `latency ${describe(burstLatency)}; provider calls per change (echoes included) ${callsPerEdit}; ` +
        `${editsWindow.runs.total} runs (${editsWindow.runs.retryLater} deferred for a budget)`,
    );
    for (const sample of [...editsWritten]
      .sort(
        (a, b) =>
          (b.seen.writtenAt as number) - b.change.ackAt - ((a.seen.writtenAt as number) - a.change.ackAt),
      )
      .slice(0, 3)) {
      const jobs = await host.call('jobs', {
        userId: sample.change.userId,
        from: sample.change.ackAt - 3000,
        to: sample.seen.writtenAt as number,
      });
      const at = (time: number | null) =>
        time === null ? '…' : `${round((time - sample.change.ackAt) / 1000, 2)}`;
      log(
        `  slow: written after ${ms((sample.seen.writtenAt as number) - sample.change.ackAt)}; runs (s): ${runsAround(sample)}; ` +
          `jobs (created/due/started/ended, s): ${jobs.map((job) => `${job.trigger ?? '-'} ${at(job.created)}/${at(job.due)}/${at(job.started)}/${at(job.ended)}`).join(', ')}`,
      );
    }

    await memoryLine(host);
    phase(`Burst: every user makes ${options.burstPerUser} changes at the same moment`);
    const cpuBefore = {
      app: (await host.call('memory', {})).cpuMs,
      emulators: (await emulators.call('memory', {})).cpuMs,
    };
    await host.call('loopDelay', {});
    await emulators.call('loopDelay', {});
    const burstStart = now();
    const burstRandom = seeded(7);
    await Promise.all(
      actors.flatMap((actor) =>
        Array.from({ length: Math.min(options.burstPerUser, actor.pairs.length) }, (_, pair) =>
          actor.change('task-move', pair, burstRandom),
        ),
      ),
    );
    const burstSent = now();
    const burstIdle = await waitQuiet(host, emulators, everyone, 180_000);
    const burstEnd = now();
    const burst = await host.call('window', { from: burstStart, to: burstEnd });
    const busy = async (process: 'app' | 'emulators') => {
      const cpu =
        process === 'app'
          ? (await host?.call('memory', {}))?.cpuMs
          : (await emulators?.call('memory', {}))?.cpuMs;
      return round((100 * ((cpu ?? 0) - cpuBefore[process])) / (burstEnd - burstStart), 0);
    };
    const burstCpu = { app: await busy('app'), emulators: await busy('emulators') };
    const burstLoop = {
      app: await host.call('loopDelay', {}),
      emulators: await emulators.call('loopDelay', {}),
    };
    const burstAcks = await emulators.call('acks', { from: burstStart, to: burstEnd });
    log(
      `${round(burstSent - burstStart)} ms to make the changes; all synced and quiet after ` +
        `${round((burstEnd - burstStart) / 1000, 2)} s${burstIdle.idle ? '' : ' (NOT quiet: timed out)'}`,
    );
    log(
      `  ${burstAcks.acks.count} notifications acknowledged, as sent: ${describe(burstAcks.acks)}; statuses ${JSON.stringify(burstAcks.statuses)}`,
    );
    log(
      `  ${burst.served.count} in the app's server (request read to answer sent): ${describe(burst.served)}`,
    );
    const legs = ackLegs(burstAcks.deliveries, await host.call('served', { from: burstStart, to: burstEnd }));
    log(
      `  where the time went (${legs.matched} matched by delivery id): sent to read by the app ${describe(legs.toApp)}; ` +
        `answered to seen by the sender ${describe(legs.back)}`,
    );
    log(
      `  from the request written to the socket to the app's answer sent (the sender's own delays left out): ${describe(legs.onWire)}`,
    );
    log(
      `  CPU over the burst: app process ${burstCpu.app}%, emulators process ${burstCpu.emulators}% (of one core)`,
    );
    log(
      `  event loop delay over the burst, p99 / max: app process ${ms(burstLoop.app.p99Ms)} / ${ms(burstLoop.app.maxMs)}, ` +
        `emulators process ${ms(burstLoop.emulators.p99Ms)} / ${ms(burstLoop.emulators.maxMs)}`,
    );
    log(
      `  ${burst.runs.total} runs (${burst.runs.synced} synced, ${burst.runs.retryLater} spaced/deferred, ${burst.runs.other} other); ` +
        `synced runs took ${describe(burst.runs.durations)}`,
    );
    const floor = await ackFloor(emulators, burstAcks.acks.count / 2);
    log(
      `  the same sender, ${floor.count} POSTs at once to a server in another process that answers at once: ` +
        `new connections ${describe(floor.cold)}; kept-alive ${describe(floor.warm)}`,
    );
    const consistency = await inBatches(actors, 10, (actor) => actor.consistency());
    const mismatches = consistency.flatMap((entry) => entry.mismatches);
    log(
      `  both sides agree for ${consistency.length - consistency.filter((entry) => entry.mismatches.length > 0).length}/${consistency.length} users ` +
        `(${sum(consistency.map((entry) => entry.pairs))} pairs checked)`,
    );
    for (const mismatch of mismatches.slice(0, 5)) log(`    mismatch: ${mismatch}`);

    const windowEnd = now();
    const appInWindow = await host.call('window', { from: windowStart, to: windowEnd });
    const countersAfter = await emulatorRequests(origins);
    const counterCheck = (['todoist', 'google'] as const).map((provider) => {
      const counted = countersAfter[provider] - countersBefore[provider];
      const own = ownRequests[provider] - ownBefore[provider];
      return { provider, counted, own, app: counted - own, observed: appInWindow.appRequests[provider] };
    });
    log(
      `  emulator counters vs the app's observed calls: ${counterCheck
        .map(
          (entry) =>
            `${entry.provider} ${entry.counted} counted - ${entry.own} by the bench = ${entry.app} by the app` +
            ` (${entry.app === entry.observed ? 'matches' : `observed ${entry.observed}: MISMATCH`})`,
        )
        .join('; ')}`,
    );

    await memoryLine(host);
    phase(`Queue throughput: every user's sync queued at once, ${options.queueRounds} rounds`);
    const queue = await host.call('queueRounds', {
      userIds: users.map((user) => user.userId),
      rounds: options.queueRounds,
    });
    // The median round: one slow round (a job retried after a back-off, say) says little of the rate.
    const rates = queue.perRound.map((entry) => entry.jobs / entry.seconds).sort((a, b) => a - b);
    const jobsPerSecond = rates[Math.floor(rates.length / 2)] ?? Number.NaN;
    log(
      `${queue.jobs} runs (incremental reads of both sides, nothing to write) in ${round(queue.seconds, 2)} s: ` +
        `${round(jobsPerSecond)} jobs/s in the median round; rounds ${queue.perRound.map((entry) => `${entry.jobs} in ${round(entry.seconds, 2)} s`).join(', ')}`,
    );

    await memoryLine(host);
    phase(`JSON API at 200 requests/s for ${options.apiSeconds} s each`);
    const cookie = `sid=${apiUser.sid}`;
    const currentUser = await apiLoad(
      `${origins.app}/api/current_user`,
      { method: 'GET', headers: { cookie } },
      options.apiSeconds,
    );
    const settingsPatch = await apiLoad(
      `${origins.app}/api/settings/oncomplete`,
      {
        method: 'PATCH',
        headers: { cookie, 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
        body: JSON.stringify({ setting: 'checkmark' }),
      },
      options.apiSeconds,
    );
    for (const [name, result] of [
      ['GET /api/current_user', currentUser],
      ['PATCH /api/settings/oncomplete', settingsPatch],
    ] as const) {
      log(
        `${name.padEnd(31)} p50 ${result.p50} ms, p99 ${result.p99} ms, max ${result.max} ms; ` +
          `${result.requests} requests (${result.rate}/s), ${result.non2xx} not 2xx, ${result.errors} errors`,
      );
    }
    await waitQuiet(host, emulators, [apiUser.userId], 60_000);

    await memoryLine(host);
    phase(`Initial sync: one user with ${options.initialTasks} tasks and ${options.initialEvents} events`);
    started = now();
    const [heavy] = (await host.call('createUsers', {
      prefix: 'initial',
      count: 1,
      timeboxedTasks: options.initialTasks,
      plainTasks: 0,
      uncolouredEvents: options.initialEvents,
      colouredEvents: 0,
      syncOn: false,
      concurrency: 1,
    })) as [BenchUser];
    log(
      `seeded in ${round((now() - started) / 1000)} s: every task timeboxed and every event uncoloured and ` +
        'from tomorrow on, so everything is mirrored (the most work an initial sync of this size can be)',
    );
    const switchedOnAt = now();
    const switched = await fetch(`${origins.app}/api/settings/onsyncactive`, {
      method: 'PATCH',
      headers: {
        cookie: `sid=${heavy.sid}`,
        'content-type': 'application/json',
        'sec-fetch-site': 'same-origin',
      },
      body: JSON.stringify({ setting: true }),
    });
    if (!switched.ok) throw new Error(`switching sync on answered ${switched.status}`);
    const firstRun = await host.call('waitForRun', {
      userId: heavy.userId,
      after: switchedOnAt,
      timeoutMs: 900_000,
    });
    if (!firstRun) throw new Error('the initial sync did not finish within 15 minutes');
    const initialSyncSeconds = (firstRun.end - switchedOnAt) / 1000;
    const links = await host.call('linkCount', { userId: heavy.userId });
    log(
      `synced ${round(initialSyncSeconds, 2)} s after switching on (run ${round((firstRun.end - firstRun.start) / 1000, 2)} s, ` +
        `queue ${round(firstRun.start - switchedOnAt)} ms); ${links} pairs linked (expected ${options.initialTasks + options.initialEvents})`,
    );
    log(
      `  calls: Todoist reads ${firstRun.calls.todoistReads}, writes ${firstRun.calls.todoistWrites}; ` +
        `Google reads ${firstRun.calls.googleReads}, writes ${firstRun.calls.googleWrites}; other ${firstRun.calls.other}`,
    );
    const echoStart = firstRun.end;
    const echoIdle = await waitQuiet(host, emulators, [heavy.userId], 600_000);
    const initialEcho = await host.call('window', { from: echoStart, to: now() });
    const notified = await emulators.call('acks', { from: switchedOnAt, to: now() });
    log(
      `  its echo (${notified.acks.count} notifications, ack ${describe(notified.acks)}) handled ` +
        `${round((now() - echoStart) / 1000, 2)} s after the run` +
        `${echoIdle.idle ? '' : ' (timed out)'} with ${reads(initialEcho.calls)} reads and ${writes(initialEcho.calls)} writes`,
    );

    let quota: Awaited<ReturnType<typeof quotaPhase>> | null = null;
    const quotaActor = actors[0];
    if (options.quotaMinutes > 0 && quotaActor) {
      await memoryLine(host);
      phase(`Quota: one user moves a task every 0.1-0.5 s for ${options.quotaMinutes} min`);
      quota = await quotaPhase(host, emulators, quotaActor, options.quotaMinutes);
      log(
        `${quota.changes} changes; the app called Todoist ${quota.todoistCalls} times for them, at most ` +
          `${quota.mostTodoistCallsIn15Minutes} in 15 minutes (limit 1,000); ${quota.responses429} answers 429; ` +
          `both sides agree: ${quota.consistent ? 'yes' : 'NO'}`,
      );
    }

    await memoryLine(host);
    const memory = await host.call('memory', {});
    const figures = {
      latencyMs: { p50: latency.p50, p95: latency.p95, p99: latency.p99 },
      burstLatencyMs: { p50: burstLatency.p50, p95: burstLatency.p95, p99: burstLatency.p99 },
      callsPerBurstChange: callsPerEdit,
      burstUnwritten: edits.length - editsWritten.length,
      quota,
      readsPerChange: round(ratio(reads(changeCalls), written.length), 2),
      writesPerChange: round(ratio(writes(changeCalls), written.length), 2),
      readsPerEcho: round(ratio(reads(echoCalls), withEcho.length), 2),
      writesPerEcho: round(ratio(writes(echoCalls), withEcho.length), 2),
      // The app's acknowledgement: from the notification written to the app's socket to its answer sent.
      // What the sender saw adds the sender's own delays (its event loop, on the same cores).
      ackP99Ms: legs.onWire.p99,
      ackAsSentP99Ms: burstAcks.acks.p99,
      ackInAppP99Ms: burst.served.p99,
      ackFloorP99Ms: floor.cold.p99,
      burstNotifications: burstAcks.acks.count,
      initialSyncSeconds: round(initialSyncSeconds, 1),
      jobsPerSecond: round(jobsPerSecond, 1),
      peakRssMb: round(memory.peakRssMb, 0),
      apiP99Ms: Math.max(currentUser.p99, settingsPatch.p99),
      database: options.db,
      users: options.users,
      providerLatencyMs: options.latencyMs,
      quick: options.quick,
      changes: samples.length,
      unwritten: samples.length - written.length,
      inconsistentUsers: consistency.filter((entry) => entry.mismatches.length > 0).length,
      api: { currentUserP99Ms: currentUser.p99, settingsPatchP99Ms: settingsPatch.p99 },
      benchSeconds: round((now() - benchStarted) / 1000, 0),
    };

    phase('Summary');
    const check = (met: boolean) => (met ? 'yes' : 'NO');
    log(
      table(
        ['figure', 'measured', 'target', 'met'],
        [
          [
            'change to other side written',
            `p50 ${figures.latencyMs.p50} / p95 ${figures.latencyMs.p95} / p99 ${figures.latencyMs.p99} ms`,
            `p95 <= ${TARGETS.latencyP95Ms} ms`,
            check(figures.latencyMs.p95 <= TARGETS.latencyP95Ms),
          ],
          [
            'quick edits (0.2-3 s apart): change written',
            `p50 ${figures.burstLatencyMs.p50} / p95 ${figures.burstLatencyMs.p95} / p99 ${figures.burstLatencyMs.p99} ms`,
            `p95 <= ${TARGETS.burstLatencyP95Ms} ms at 20 ms a call`,
            options.latencyMs === 20 ? check(figures.burstLatencyMs.p95 <= TARGETS.burstLatencyP95Ms) : '',
          ],
          ['  provider calls per quick edit (with its echo)', String(figures.callsPerBurstChange), '-', ''],
          [
            'provider reads per change',
            String(figures.readsPerChange),
            `<= ${TARGETS.readsPerChange}`,
            check(figures.readsPerChange <= TARGETS.readsPerChange),
          ],
          [
            'provider writes per change',
            String(figures.writesPerChange),
            `<= ${TARGETS.writesPerChange}`,
            check(figures.writesPerChange <= TARGETS.writesPerChange),
          ],
          ['provider reads per echo', String(figures.readsPerEcho), '-', ''],
          [
            'provider writes per echo',
            String(figures.writesPerEcho),
            `${TARGETS.writesPerEcho}`,
            check(figures.writesPerEcho === TARGETS.writesPerEcho),
          ],
          [
            `webhook ack p99 (burst of ${burstAcks.acks.count}), request written to answer sent`,
            `${figures.ackP99Ms} ms`,
            `<= ${TARGETS.ackP99Ms} ms`,
            check(figures.ackP99Ms <= TARGETS.ackP99Ms),
          ],
          ['  the same, as the sender saw it', `${figures.ackAsSentP99Ms} ms`, '-', ''],
          ['  the same, inside the app', `${figures.ackInAppP99Ms} ms`, '-', ''],
          ['  the same burst to a server doing nothing', `${figures.ackFloorP99Ms} ms`, '-', ''],
          [
            `initial sync (${options.initialTasks} tasks + ${options.initialEvents} events)`,
            `${figures.initialSyncSeconds} s`,
            `<= ${TARGETS.initialSyncSeconds} s`,
            check(figures.initialSyncSeconds <= TARGETS.initialSyncSeconds),
          ],
          ['sync jobs per second', String(figures.jobsPerSecond), '-', ''],
          ['peak RSS (app process)', `${figures.peakRssMb} MB`, '-', ''],
          [
            'JSON API p99 at 200 req/s',
            `${currentUser.p99} ms GET current_user, ${settingsPatch.p99} ms PATCH settings`,
            `<= ${TARGETS.apiP99Ms} ms`,
            check(figures.apiP99Ms <= TARGETS.apiP99Ms),
          ],
        ],
      ),
    );
    if (figures.unwritten > 0 || figures.inconsistentUsers > 0) {
      log(
        `WARNING: ${figures.unwritten} changes never written; ${figures.inconsistentUsers} users out of sync`,
      );
    }
    if (options.sqlProfile) {
      phase('SQL statements by time spent (the whole run)');
      const statements = await host.call('sqlStats', { limit: 20 });
      log(
        table(
          ['ms', 'count', 'rows', 'mean ms', 'max ms', 'statement'],
          statements.map((entry) => [
            String(round(entry.totalMs, 0)),
            String(entry.count),
            String(entry.rows),
            String(round(entry.meanMs, 2)),
            String(round(entry.maxMs, 1)),
            entry.sql,
          ]),
        ),
      );
    }
    await stopAll();
    await database.drop();
    console.log(JSON.stringify(figures));
  } catch (error) {
    await stopAll();
    await database.drop().catch(() => undefined);
    throw error;
  }
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
const fmt = (count: number, of: number) => String(round(ratio(count, of), 2));

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
