import type { RunningEmulators } from '#emulators/index.ts';
import type { BenchUser, UserPlan } from './bench-users.ts';
import type { CalendarKind } from './options.ts';
import type { SqlStatementStats } from './sql-profile.ts';
import type { Distribution } from './stats.ts';

/**
 * How the benchmark talks to the two processes it starts, the provider emulators and the app (Node IPC,
 * one request, one answer).
 */

/** Where the app finds the emulated providers (as it would find the real ones, by configuration). */
export type EmulatorEndpoints = {
  google: Pick<RunningEmulators['google'], 'issuer' | 'clientId' | 'clientSecret'>;
  todoist: RunningEmulators['todoist'];
  googleCalendar: Pick<
    RunningEmulators['googleCalendar'],
    'origin' | 'apiRootUrl' | 'authUrl' | 'tokenUrl' | 'revokeUrl'
  >;
  /** Microsoft identity and Graph, over HTTPS with the emulator's own CA (`caPath`). */
  microsoft: Pick<
    RunningEmulators['microsoft'],
    'origin' | 'graphBaseUrl' | 'clientId' | 'clientSecret' | 'caPath'
  >;
};

export type EmulatorsReady = { type: 'ready'; emulators: EmulatorEndpoints };

export type EmulatorApi = {
  setLatency(args: { latencyMs: number }): Promise<void>;
  /** Where notifications go: Todoist's webhook URL (Google channels and Graph subscriptions name their own). */
  setApp(args: { origin: string; todoistWebhook: string }): Promise<void>;
  /** How long the app took to answer the notifications sent in the window. */
  acks(args: { from: number; to: number }): Promise<{
    acks: Distribution;
    statuses: Record<string, number>;
    /** Each answered notification: when it was sent and answered, as the sender saw it. */
    deliveries: { key: string | null; start: number; wireStart: number | null; end: number }[];
  }>;
  /** `count` POSTs to `url` at the same moment, as notifications are sent: how long each took. */
  burstTo(args: { url: string; count: number }): Promise<Distribution>;
  /** Notifications sent and not yet answered. */
  inFlight(args: Record<string, never>): Promise<number>;
  memory(args: Record<string, never>): Promise<{ peakRssMb: number; cpuMs: number }>;
  /** The event loop's delay since the last call (see `loopDelayMonitor`). */
  loopDelay(args: Record<string, never>): Promise<{ p99Ms: number; maxMs: number }>;
  stop(args: Record<string, never>): Promise<void>;
};

export type HostOptions = {
  emulators: EmulatorEndpoints;
  database: { kind: 'pglite'; dataDir: string } | { kind: 'postgres'; url: string };
  logFile: string | null;
  /** Count and time the app's SQL statements. */
  sqlProfile: boolean;
  /** SYNC_MAX_RUNS_PER_WORKER of the app (null: its default). */
  maxRuns: number | null;
  /** The benchmark users' calendar. */
  calendar: CalendarKind;
};

export type Ready = { type: 'ready'; appOrigin: string };

/** Provider calls by side and kind. */
export type CallCounts = {
  todoistReads: number;
  todoistWrites: number;
  calendarReads: number;
  calendarWrites: number;
  /** Channel upkeep, token refreshes and anything else. */
  other: number;
};

export type ChangeObservation = {
  /** When the app's write on the other side was answered; null when it never came. */
  writtenAt: number | null;
  /** When the user had no run, no queued job and the echo of the write was handled. */
  settledAt: number | null;
  echoSeen: boolean;
  changeRuns: number;
  echoRuns: number;
  change: CallCounts;
  echo: CallCounts;
  /** The user's runs from the end of the last one before the change until the write: why a change waited. */
  timeline: {
    start: number;
    end: number | null;
    outcome: string | null;
    /** The provider reads the run made, per side. */
    reads: { todoist: number; calendar: number };
  }[];
};

export type RunSummary = {
  start: number;
  end: number;
  outcome: string;
  calls: CallCounts;
};

export type WindowStats = {
  /** Requests the app made to each emulator in the window (all users and none). */
  appRequests: { todoist: number; calendar: number };
  calls: CallCounts;
  /** Notifications as the app's server handled them (request read to answer sent). */
  served: Distribution;
  runs: { total: number; synced: number; retryLater: number; other: number; durations: Distribution };
  /** Sampled every 50 ms: runs in flight, lanes open, statements waiting for a database connection. */
  concurrency: { runs: Distribution; lanes: Distribution; waitingForConnection: Distribution };
};

/** Of the app process, in MB. */
export type Memory = {
  peakRssMb: number;
  rssMb: number;
  heapUsedMb: number;
  externalMb: number;
  cpuMs: number;
};

export type QueueRounds = { jobs: number; seconds: number; perRound: { jobs: number; seconds: number }[] };

/**
 * Statements each synced run issued itself (runs that wrote something, and the others: echoes, runs
 * with nothing to do), and the job queue's user-queue fetches (empty ones too) and job completions.
 */
export type RunStatements = {
  changeRuns: number[];
  otherRuns: number[];
  fetches: number;
  completions: number;
};

export type HostApi = {
  createUsers(args: UserPlan): Promise<BenchUser[]>;
  waitIdle(args: { userIds: string[]; timeoutMs: number }): Promise<{ idle: boolean; waitedMs: number }>;
  observeChange(args: {
    userId: string;
    sentAt: number;
    side: 'todoist' | 'calendar';
    timeoutMs: number;
    /** Only a write to this event counts (a user's changes overlap in the quick-edits phase). */
    eventId?: string;
  }): Promise<ChangeObservation>;
  window(args: { from: number; to: number }): Promise<WindowStats>;
  /** The user's sync jobs created in the window: when created, due, started and ended (ms epoch). */
  jobs(args: { userId: string; from: number; to: number }): Promise<
    {
      trigger: string | null;
      created: number;
      due: number;
      started: number | null;
      ended: number | null;
      state: string;
    }[]
  >;
  /** When each request the app made for the user to a provider started, and what it was answered. */
  userRequests(args: {
    userId: string;
    from: number;
    to: number;
  }): Promise<{ target: 'todoist' | 'calendar'; start: number; status: number | 'error' | null }[]>;
  queueRounds(args: { userIds: string[]; rounds: number }): Promise<QueueRounds>;
  waitForRun(args: { userId: string; after: number; timeoutMs: number }): Promise<RunSummary | null>;
  linkCount(args: { userId: string }): Promise<number>;
  memory(args: Record<string, never>): Promise<Memory>;
  /** The notifications the app's server read in the window: when read, when answered. */
  served(args: { from: number; to: number }): Promise<ServedRecord[]>;
  /** The event loop's delay since the last call (see `loopDelayMonitor`). */
  loopDelay(args: Record<string, never>): Promise<{ p99Ms: number; maxMs: number }>;
  sqlStats(args: { limit: number }): Promise<SqlStatementStats[]>;
  /** The statements of the sync runs that started in the window, and the queue's over it. */
  runStatements(args: { from: number; to: number }): Promise<RunStatements>;
  stop(args: Record<string, never>): Promise<void>;
};

import type { ServedRecord } from './observer.ts';

export type ProcessRequest = { id: number; cmd: string; args: unknown };
export type ProcessReply =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: string };
