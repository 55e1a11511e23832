import { readFileSync } from 'node:fs';
import { trustCertificate } from '#emulators/microsoft/microsoft.certificate.ts';
import { SYNC_PATHS } from '#shared/api/sync.schema.ts';
import type { Database } from './database.ts';
import { type Child, startChild } from './host-client.ts';
import type { Options } from './options.ts';
import type { EmulatorApi, EmulatorsReady, HostApi, HostOptions, Ready } from './protocol.ts';
import { now, sleep } from './stats.ts';

export type Host = Child<HostApi, Ready>;
export type Emulators = Child<EmulatorApi, EmulatorsReady>;
/** Where the app and the providers listen (`calendar`: the users' calendar, Google's or Microsoft's). */
export type Origins = { app: string; todoist: string; calendar: string };

/** What every phase works with: the two processes, where they listen, and the run's options. */
export type Bench = { host: Host; emulators: Emulators; origins: Origins; options: Options };

/**
 * The provider emulators (`latencyMs` added to every provider call) and the app (web and worker,
 * configured for the emulators as for real providers), each in a process of its own.
 */
export class BenchProcesses {
  private host: Host | undefined;
  private emulators: Emulators | undefined;

  async start(
    options: Options,
    database: Database,
    files: { logFile: string; profileDir: string },
  ): Promise<Bench> {
    const { logFile, profileDir } = files;
    const emulators = await startChild<EmulatorApi, EmulatorsReady>(
      './emulators-host.ts',
      {},
      {
        execArgv: options.profile
          ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, '--cpu-prof-name=emulators.cpuprofile']
          : [],
      },
    );
    this.emulators = emulators;
    const endpoints = emulators.ready.emulators;
    const hostOptions: HostOptions = {
      emulators: endpoints,
      database: database.options,
      logFile,
      sqlProfile: options.sqlProfile,
      maxRuns: options.maxRuns,
      calendar: options.calendar,
    };
    const microsoft = options.calendar === 'microsoft';
    // Graph is served over HTTPS with the emulator's own CA: the app's process trusts it (see
    // app-host.ts), and so does this one, where the users act through their own clients.
    if (microsoft) trustCertificate(readFileSync(endpoints.microsoft.caPath, 'utf8'));
    const host = await startChild<HostApi, Ready>('./app-host.ts', hostOptions, {
      logFile,
      // As `npm start` runs the app (package.json): V8's young generation kept small.
      execArgv: [
        '--max-semi-space-size=16',
        ...(options.profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
      ],
    });
    this.host = host;
    const origins: Origins = {
      app: host.ready.appOrigin,
      todoist: endpoints.todoist.origin,
      calendar: microsoft ? endpoints.microsoft.origin : endpoints.googleCalendar.origin,
    };
    await emulators.call('setApp', { origin: origins.app, todoistWebhook: SYNC_PATHS.todoistWebhook });
    await emulators.call('setLatency', { latencyMs: options.latencyMs });
    return { host, emulators, origins, options };
  }

  /** Stops whichever processes have started (never throws). */
  async stop(): Promise<void> {
    await this.host?.stop().catch(() => undefined);
    await this.emulators?.stop().catch(() => undefined);
    this.host = undefined;
    this.emulators = undefined;
  }
}

/** Until the app has nothing running or queued for these users and no notification is on its way. */
export async function waitQuiet(bench: Bench, userIds: string[], timeoutMs: number) {
  const { host, emulators } = bench;
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

/** Requests per emulator route, as the emulators counted them (their control routes left out). */
export async function emulatorRequests(origins: Origins) {
  const total = async (origin: string) => {
    const state = (await (await fetch(`${origin}/_emulator/state`)).json()) as {
      requests: Record<string, number>;
    };
    return Object.entries(state.requests)
      .filter(([route]) => !route.includes(' /_emulator/'))
      .reduce((sum, [, count]) => sum + count, 0);
  };
  return { todoist: await total(origins.todoist), calendar: await total(origins.calendar) };
}
