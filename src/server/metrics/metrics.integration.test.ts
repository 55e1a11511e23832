import { describe, expect, it } from 'vitest';
import { testDatabases } from '#server/test/databases.ts';
import { setUpTestApp } from '#server/test/suite-setup.ts';
import { emulatorControl, eventually, syncingUser, tomorrowAt } from '#server/test/sync-fixtures.ts';

type Sample = { name: string; labels: Record<string, string>; value: number };

/** Prometheus's text format, the samples only. */
function samples(text: string): Sample[] {
  return text.split('\n').flatMap((line) => {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)$/.exec(line);
    if (!match) return [];
    const [, name = '', labels = '', value = ''] = match;
    const pairs = [...labels.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((pair) => [pair[1], pair[2]]);
    return [{ name, labels: Object.fromEntries(pairs), value: Number(value) }];
  });
}

/** The sum of a metric's samples whose labels include `labels`. */
const total = (all: Sample[], name: string, labels: Record<string, string> = {}) =>
  all
    .filter((sample) => sample.name === name)
    .filter((sample) => Object.entries(labels).every(([key, value]) => sample.labels[key] === value))
    .reduce((sum, sample) => sum + sample.value, 0);

const METRIC_NAMES = [
  'timeboxer_sync_runs_total',
  'timeboxer_sync_run_duration_seconds',
  'timeboxer_provider_calls_total',
  'timeboxer_webhook_ack_duration_seconds',
  'timeboxer_http_requests_total',
  'timeboxer_queue_depth',
  'timeboxer_queue_oldest_waiting_seconds',
  'timeboxer_users_with_problems',
  'timeboxer_channels_expiring_24h',
  'timeboxer_channel_renewals_total',
  'timeboxer_provider_app_budget_short_total',
  'timeboxer_sync_active_users',
  'timeboxer_sync_lanes',
  'timeboxer_event_loop_utilization',
  'timeboxer_mails_total',
  'process_cpu_seconds_total',
  'process_resident_memory_bytes',
  'nodejs_eventloop_lag_seconds',
];

for (const database of await testDatabases('metrics')) {
  describe.skipIf(!database.enabled)(`/metrics (${database.name})`, () => {
    const app = setUpTestApp(database, {
      env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000' },
      overrides: { role: 'all' },
      listen: true,
    });
    const scrape = async () => {
      const response = await app().server.inject({ url: '/metrics' });
      expect(response.statusCode).toBe(200);
      return response.body;
    };

    it('is open on the app’s port in sandbox mode, in Prometheus’s text format, with every metric', async () => {
      const response = await app().server.inject({ url: '/metrics' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/plain; version=0.0.4');
      for (const name of METRIC_NAMES) expect(response.body, name).toContain(`# TYPE ${name} `);
      const all = samples(response.body);
      expect(total(all, 'timeboxer_queue_depth', { queue: 'user-runs' })).toBeGreaterThanOrEqual(0);
      expect(all.some((sample) => sample.labels.queue === 'user-runs')).toBe(true);
      expect(all.some((sample) => sample.labels.queue?.startsWith('__pgboss'))).toBe(false);
    });

    it('counts queued runs, notifications and failed provider calls, with no user in any label', async () => {
      const at = async () => samples(await scrape());
      const before = await at();
      const user = await syncingUser(app(), 'metrics@example.com');
      // Switching sync on queued the first run, which opened a push channel.
      await eventually(async () =>
        expect(total(await at(), 'timeboxer_sync_runs_total', { outcome: 'synced' })).toBeGreaterThan(
          total(before, 'timeboxer_sync_runs_total', { outcome: 'synced' }),
        ),
      );
      let now = await at();
      expect(total(now, 'timeboxer_sync_run_duration_seconds_count', { outcome: 'synced' })).toBeGreaterThan(
        0,
      );
      expect(total(now, 'timeboxer_sync_active_users')).toBe(1);
      // A worker keeps at least four lanes; the loop's busy share is a share.
      expect(total(now, 'timeboxer_sync_lanes', { state: 'open' })).toBeGreaterThanOrEqual(4);
      const loopLoad = total(now, 'timeboxer_event_loop_utilization');
      expect(loopLoad).toBeGreaterThan(0);
      expect(loopLoad).toBeLessThanOrEqual(1);
      expect(total(now, 'timeboxer_channels_expiring_24h')).toBe(0);
      expect(total(now, 'timeboxer_provider_calls_total', { provider: 'todoist' })).toBeGreaterThan(
        total(before, 'timeboxer_provider_calls_total', { provider: 'todoist' }),
      );
      expect(
        total(now, 'timeboxer_provider_calls_total', { provider: 'google', status: '200' }),
      ).toBeGreaterThan(0);

      // Todoist fails the next read once: the run fails (whatever queued it: a request folds into a
      // waiting job, which may be a spaced run's), and the queue's retry of it syncs.
      const failedCalls = total(now, 'timeboxer_provider_calls_total', {
        provider: 'todoist',
        status: '500',
      });
      const failedRuns = total(now, 'timeboxer_sync_runs_total', { outcome: 'failed' });
      const retried = total(now, 'timeboxer_sync_runs_total', { trigger: 'retry', outcome: 'synced' });
      await emulatorControl(user.origins.todoist, 'faults', {
        kind: 'status',
        status: 500,
        method: 'POST',
        path: '/api/v1/sync',
        times: 1,
      });
      await app().sync.service.request(user.userId);
      await eventually(async () => {
        const after = await at();
        expect(total(after, 'timeboxer_provider_calls_total', { provider: 'todoist', status: '500' })).toBe(
          failedCalls + 1,
        );
        expect(total(after, 'timeboxer_sync_runs_total', { outcome: 'failed' })).toBe(failedRuns + 1);
        expect(total(after, 'timeboxer_sync_run_duration_seconds_count', { outcome: 'failed' })).toBe(
          failedRuns + 1,
        );
        expect(
          total(after, 'timeboxer_sync_runs_total', { trigger: 'retry', outcome: 'synced' }),
        ).toBeGreaterThan(retried);
      });

      // A task added in Todoist comes in as a webhook, answered and timed.
      now = await at();
      const acks = total(now, 'timeboxer_webhook_ack_duration_seconds_count', { source: 'todoist' });
      const answered = total(now, 'timeboxer_http_requests_total', {
        method: 'POST',
        route: '/api/webhooks/todoist',
        status: '200',
      });
      const due = tomorrowAt(9);
      await user.addTask('Counted by webhook', due.day, 9, ['30min']);
      await eventually(async () => {
        const after = await at();
        expect(
          total(after, 'timeboxer_webhook_ack_duration_seconds_count', { source: 'todoist' }),
        ).toBeGreaterThan(acks);
        expect(
          total(after, 'timeboxer_http_requests_total', {
            method: 'POST',
            route: '/api/webhooks/todoist',
            status: '200',
          }),
        ).toBeGreaterThan(answered);
        expect((await user.events()).map((event) => event.summary)).toEqual(['Counted by webhook']);
      });

      const text = await scrape();
      expect(text).not.toContain(user.userId);
      expect(text).not.toContain('metrics@example.com');
    });
  });
}
