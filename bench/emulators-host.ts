import { startEmulators } from '#emulators/index.ts';
import { serveParent } from './host-serve.ts';
import { createObserver } from './observer.ts';
import type { EmulatorApi, EmulatorsReady } from './protocol.ts';
import { distribution, loopDelayMonitor, now } from './stats.ts';

/**
 * The provider emulators in a process of their own, as the real providers are elsewhere: their work
 * (storing changes, sending notifications) does not run on the app's event loop. Times how long the
 * app takes to answer each notification, as the sender sees it.
 */

const readLoopDelay = loopDelayMonitor();
const emulators = await startEmulators({ host: 'localhost' });
let appOrigin = '';
const observer = createObserver({ todoist: '', calendar: '', app: () => appOrigin });

const handlers: EmulatorApi = {
  async setLatency({ latencyMs }) {
    // Every emulator with fault injection (sign-in's identity emulators have none; setup only uses them).
    const origins = [
      emulators.todoist.origin,
      emulators.googleCalendar.origin,
      emulators.microsoft.origin,
      emulators.stripe.origin,
    ];
    for (const origin of origins) {
      const response = await fetch(`${origin}/_emulator/faults`, {
        method: latencyMs > 0 ? 'POST' : 'DELETE',
        ...(latencyMs > 0
          ? {
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ kind: 'latency', latencyMs }),
            }
          : {}),
      });
      if (!response.ok) throw new Error(`${origin} refused the latency rule: ${response.status}`);
    }
  },

  async setApp({ origin, todoistWebhook }) {
    appOrigin = origin;
    await emulators.setWebhookUrls({ todoist: `${origin}${todoistWebhook}` });
  },

  async acks({ from, to }) {
    const deliveries = observer.requests.filter(
      (record) =>
        record.target === 'app' && record.start >= from && record.start <= to && record.end !== null,
    );
    const statuses: Record<string, number> = {};
    for (const delivery of deliveries)
      statuses[String(delivery.status)] = (statuses[String(delivery.status)] ?? 0) + 1;
    return {
      acks: distribution(deliveries.map((record) => (record.end as number) - record.start)),
      statuses,
      deliveries: deliveries.map((record) => ({
        key: record.deliveryKey,
        start: record.start,
        wireStart: record.wireStart,
        end: record.end as number,
      })),
    };
  },

  async burstTo({ url, count }) {
    const times = await Promise.all(
      Array.from({ length: count }, async () => {
        const start = now();
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ event_name: 'item:updated' }),
        });
        await response.arrayBuffer();
        return now() - start;
      }),
    );
    return distribution(times);
  },

  async inFlight() {
    return observer.deliveriesInFlight();
  },

  loopDelay: async () => readLoopDelay(),

  async memory() {
    const cpu = process.cpuUsage();
    return { peakRssMb: process.resourceUsage().maxRSS / 1024, cpuMs: (cpu.user + cpu.system) / 1000 };
  },

  async stop() {
    observer.close();
    await emulators.close();
  },
};

serveParent(handlers, () => emulators.close());

const ready: EmulatorsReady = {
  type: 'ready',
  emulators: {
    google: {
      issuer: emulators.google.issuer,
      clientId: emulators.google.clientId,
      clientSecret: emulators.google.clientSecret,
    },
    todoist: {
      origin: emulators.todoist.origin,
      clientId: emulators.todoist.clientId,
      clientSecret: emulators.todoist.clientSecret,
    },
    googleCalendar: {
      origin: emulators.googleCalendar.origin,
      apiRootUrl: emulators.googleCalendar.apiRootUrl,
      authUrl: emulators.googleCalendar.authUrl,
      tokenUrl: emulators.googleCalendar.tokenUrl,
      revokeUrl: emulators.googleCalendar.revokeUrl,
    },
    microsoft: {
      origin: emulators.microsoft.origin,
      graphBaseUrl: emulators.microsoft.graphBaseUrl,
      clientId: emulators.microsoft.clientId,
      clientSecret: emulators.microsoft.clientSecret,
      caPath: emulators.microsoft.caPath,
    },
  },
};
process.send?.(ready);
