import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { SYNC_TRIGGERS } from '#server/jobs/queue-jobs.ts';
import { mailsCounter } from './mail-metrics.ts';
import type { OperationsReader } from './operations.reader.ts';

export const SYNC_RUN_OUTCOMES = ['synced', 'skipped', 'blocked', 'retry-later', 'failed'] as const;
export type SyncRunOutcome = (typeof SYNC_RUN_OUTCOMES)[number];

/** Channels (Google) and subscriptions (Graph) counted as expiring within this much time. */
const EXPIRING_WITHIN_MS = 24 * 3600_000;

/**
 * The app's Prometheus metrics, one registry per app (docs/operations.md lists them). Label values
 * are fixed words, providers, queue names, HTTP statuses and route patterns: never a user id, an
 * e-mail or anything a user typed. The counters are moved by hooks the composition root wires (job
 * handlers, the provider HTTP observer, the HTTP server's response hook, the channel renewals); the
 * gauges read the database when scraped, a few aggregate queries each time.
 */
export type Metrics = {
  /** Starts timing one queued sync run; call what it returns with how the run ended. */
  syncRunStarted(trigger: string): (outcome: SyncRunOutcome) => void;
  providerCall(provider: string, status: string): void;
  httpResponse(method: string, route: string, status: number): void;
  webhookAcknowledged(source: string, seconds: number): void;
  channelRenewal(provider: string, outcome: 'renewed' | 'failed'): void;
  /** A worker found the app-wide budget of a provider spent: its queued runs wait for the refill. */
  appBudgetShort(provider: string): void;
  /** The text exposition, and its content type. */
  render(): Promise<{ contentType: string; body: string }>;
  registry: Registry;
};

export function createMetrics(deps: { operations: OperationsReader; log: Logger }): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  registry.registerMetric(mailsCounter);
  const registers = [registry];

  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
    new Counter<L>({ name, help, labelNames, registers });
  const histogram = <L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    buckets: number[],
  ) => new Histogram<L>({ name, help, labelNames, buckets, registers });

  const syncRuns = counter(
    'timeboxer_sync_runs_total',
    'Queued sync runs that ended, by what queued them and how they ended.',
    ['trigger', 'outcome'],
  );
  for (const trigger of SYNC_TRIGGERS) {
    for (const outcome of SYNC_RUN_OUTCOMES) syncRuns.inc({ trigger, outcome }, 0);
  }
  const syncRunSeconds = histogram(
    'timeboxer_sync_run_duration_seconds',
    'How long queued sync runs took, by outcome.',
    ['outcome'],
    [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
  );
  const providerCalls = counter(
    'timeboxer_provider_calls_total',
    'HTTP requests to providers, by provider and HTTP status ("error": no answer).',
    ['provider', 'status'],
  );
  const httpRequests = counter(
    'timeboxer_http_requests_total',
    'HTTP requests answered, by method, route pattern and status.',
    ['method', 'route', 'status'],
  );
  const webhookSeconds = histogram(
    'timeboxer_webhook_ack_duration_seconds',
    'Time from a provider notification arriving to its answer, by source.',
    ['source'],
    [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  );
  const renewals = counter(
    'timeboxer_channel_renewals_total',
    'Renewals of calendar push channels (Google) and subscriptions (Graph), by outcome.',
    ['provider', 'outcome'],
  );
  for (const provider of ['google', 'microsoft']) {
    for (const outcome of ['renewed', 'failed']) renewals.inc({ provider, outcome }, 0);
  }
  const appBudgetShort = counter(
    'timeboxer_provider_app_budget_short_total',
    'Times a worker found the app-wide budget of a provider (Google per project, Microsoft per app) spent.',
    ['provider'],
  );
  for (const provider of ['google', 'microsoft']) appBudgetShort.inc({ provider }, 0);

  /** A gauge filled on scrape; a failed read empties it (and says so) instead of failing the scrape. */
  const scraped = <L extends string>(
    config: { name: string; help: string; labelNames: readonly L[] },
    read: (gauge: Gauge<L>) => Promise<void>,
  ) =>
    new Gauge<L>({
      ...config,
      registers,
      async collect() {
        this.reset();
        try {
          await read(this);
        } catch (error) {
          this.reset();
          deps.log.warn({ err: error, metric: config.name }, 'could not read a metric');
        }
      },
    });

  let queueRead: Promise<Awaited<ReturnType<OperationsReader['queues']>>> | null = null;
  // Both queue gauges come from one query per scrape.
  const queues = () => {
    queueRead ??= deps.operations.queues().finally(() => {
      setImmediate(() => {
        queueRead = null;
      });
    });
    return queueRead;
  };
  scraped(
    {
      name: 'timeboxer_queue_depth',
      help: 'Jobs waiting per queue (deferred ones too).',
      labelNames: ['queue'],
    },
    async (gauge) => {
      for (const row of await queues()) gauge.set({ queue: row.queue }, row.depth);
    },
  );
  scraped(
    {
      name: 'timeboxer_queue_oldest_waiting_seconds',
      help: 'How long the oldest job that is due has waited to start, per queue (0: none waiting).',
      labelNames: ['queue'],
    },
    async (gauge) => {
      for (const row of await queues()) gauge.set({ queue: row.queue }, row.oldestWaitingSeconds);
    },
  );
  scraped(
    {
      name: 'timeboxer_users_with_problems',
      help: 'Users with an open sync problem only they can solve, by kind.',
      labelNames: ['kind'],
    },
    async (gauge) => {
      for (const row of await deps.operations.usersWithProblems()) gauge.set({ kind: row.kind }, row.users);
    },
  );
  scraped(
    {
      name: 'timeboxer_channels_expiring_24h',
      help: 'Calendar push channels (Google) and subscriptions (Graph) that expire in the next 24 h.',
      labelNames: ['provider'],
    },
    async (gauge) => {
      for (const row of await deps.operations.channelsExpiring(EXPIRING_WITHIN_MS)) {
        gauge.set({ provider: row.provider }, row.channels);
      }
    },
  );
  scraped(
    { name: 'timeboxer_sync_active_users', help: 'Users with sync switched on.', labelNames: [] },
    async (gauge) => gauge.set(await deps.operations.activeUsers()),
  );
  scraped(
    {
      name: 'timeboxer_sync_lanes',
      help: "This process's sync lanes: open, and busy with a run (jobs/sync-lanes.ts).",
      labelNames: ['state'],
    },
    async (gauge) => {
      const lanes = deps.operations.lanes();
      gauge.set({ state: 'open' }, lanes.open);
      gauge.set({ state: 'busy' }, lanes.busy);
    },
  );
  scraped(
    {
      name: 'timeboxer_event_loop_utilization',
      help: "Share of the last half second this process's event loop was busy (0-1); lanes stop opening above 0.7.",
      labelNames: [],
    },
    async (gauge) => gauge.set(deps.operations.lanes().loopLoad),
  );

  return {
    syncRunStarted(trigger) {
      const started = performance.now();
      return (outcome) => {
        syncRuns.inc({ trigger, outcome });
        syncRunSeconds.observe({ outcome }, (performance.now() - started) / 1000);
      };
    },
    providerCall: (provider, status) => providerCalls.inc({ provider, status }),
    httpResponse: (method, route, status) => httpRequests.inc({ method, route, status: String(status) }),
    webhookAcknowledged: (source, seconds) => webhookSeconds.observe({ source }, seconds),
    channelRenewal: (provider, outcome) => renewals.inc({ provider, outcome }),
    appBudgetShort: (provider) => appBudgetShort.inc({ provider }),
    render: async () => ({ contentType: registry.contentType, body: await registry.metrics() }),
    registry,
  };
}
