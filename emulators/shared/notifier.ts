import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

/**
 * Outgoing notifications (webhooks, push notifications) with the faults real deliveries have:
 * dropped, duplicated, reordered, delayed, or received with the receiver's answer lost on the way back
 * (so the sender takes it for failed and sends it again, as its retries do), plus retries when the
 * receiver fails (doubling waits, or fixed ones as Todoist's).
 */
export const notificationFaultSchema = z.object({
  mode: z.enum(['drop', 'duplicate', 'reorder', 'delay', 'lose-answer']),
  delayMs: z.number().int().min(0).max(600_000).optional(),
  /** How many notifications the fault affects; absent = until cleared. */
  times: z.number().int().positive().optional(),
});
export type NotificationFault = z.infer<typeof notificationFaultSchema>;

export type OutgoingNotification = { url: string; headers: Record<string, string>; body: string };

export type DeliveryRecord = {
  url: string;
  body: string;
  attempt: number;
  /** `answer-lost`: the receiver got it, its answer never came back (a retry follows, if any is left). */
  status: number | 'network-error' | 'dropped' | 'answer-lost';
  at: string;
};

export type NotifierOptions = {
  /** Extra attempts after a failed delivery (a network error, or a status `retryOn` accepts). */
  retries: number;
  /**
   * Which failed statuses are worth another attempt; default every non-2xx (Todoist, Stripe, Graph).
   * Google retries only 500, 502, 503 and 504 (see `retryOnServerErrors`). Network errors always are.
   */
  retryOn?: (status: number) => boolean;
  /** Which statuses count as delivered; default every 2xx. Todoist counts only 200 (`deliveredOn200`). */
  delivered?: (status: number) => boolean;
  /** Called when a notification failed its last attempt (Graph then sends a `missed` lifecycle event). */
  onGiveUp?: (notification: OutgoingNotification) => void;
  /** The wait before the first retry; each next one waits twice as long, unless `retrySpacing` is fixed. */
  retryBaseDelayMs: number;
  /** `fixed`: every retry waits `retryBaseDelayMs` (Todoist: 15 minutes each); default `doubling`. */
  retrySpacing?: 'doubling' | 'fixed';
  /**
   * How the notifier waits before a retry or a delayed delivery; resolves early when `signal` aborts
   * (reset, close). Default real timers; a test passes one that records the waits.
   */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  timeoutMs?: number;
  /** The most recent deliveries the log keeps (default `DELIVERIES_KEPT`); older ones are dropped. */
  keep?: number;
};

/**
 * Deliveries the log keeps: a bound on the emulator's memory in a long run, larger than a scale
 * benchmark's waves of 10,000 users make.
 */
export const DELIVERIES_KEPT = 100_000;

export type Notifier = ReturnType<typeof createNotifier>;

/** Google push: "On 500, 502, 503 or 504 Google retries"; any other status is a final failure. */
export const retryOnServerErrors = (status: number): boolean => [500, 502, 503, 504].includes(status);

/** Todoist webhooks: "only an HTTP 200 response counts as a successful delivery" (docs/provider-facts.md §8). */
export const deliveredOn200 = (status: number): boolean => status === 200;

/** Waits `ms` on a timer, or less when `signal` aborts first. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** The wait before retry `retry` (1: the first) of a notifier with these options. */
export function retryDelayMs(
  options: Pick<NotifierOptions, 'retryBaseDelayMs' | 'retrySpacing'>,
  retry: number,
) {
  return options.retrySpacing === 'fixed'
    ? options.retryBaseDelayMs
    : options.retryBaseDelayMs * 2 ** (retry - 1);
}

export function createNotifier(options: NotifierOptions) {
  let faults: (NotificationFault & { used: number })[] = [];
  let held: OutgoingNotification | undefined;
  let log: DeliveryRecord[] = [];
  const inFlight = new Set<Promise<void>>();
  const sleep = options.sleep ?? abortableSleep;
  // Aborted by reset and close: deliveries waiting for their turn (a retry, a delay) are forgotten, so
  // a reset emulator sends nothing queued before it, and a closed one leaves no timer behind.
  let stopping = new AbortController();
  const stopWaiting = () => {
    stopping.abort();
    stopping = new AbortController();
  };

  const keep = options.keep ?? DELIVERIES_KEPT;
  const record = (entry: Omit<DeliveryRecord, 'at'>) => {
    log.push({ ...entry, at: new Date().toISOString() });
    // Dropped a tenth at a time, so that each delivery costs no copy of the log.
    if (log.length > keep + Math.ceil(keep / 10)) log = log.slice(-keep);
  };

  /** Delivers with retries; the first `answersLost` attempts reach the receiver but count as failed. */
  async function deliver(notification: OutgoingNotification, delayMs = 0, answersLost = 0): Promise<void> {
    const { signal } = stopping;
    if (delayMs) await sleep(delayMs, signal);
    for (let attempt = 1; attempt <= options.retries + 1; attempt++) {
      if (signal.aborted) return;
      try {
        const response = await fetch(notification.url, {
          method: 'POST',
          headers: notification.headers,
          body: notification.body,
          signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
        });
        await response.body?.cancel();
        if (attempt <= answersLost) {
          // As a network error on the way back: every sender retries those.
          record({ url: notification.url, body: notification.body, attempt, status: 'answer-lost' });
        } else {
          record({ url: notification.url, body: notification.body, attempt, status: response.status });
          if (options.delivered ? options.delivered(response.status) : response.ok) return;
          if (options.retryOn && !options.retryOn(response.status)) break;
        }
      } catch {
        record({ url: notification.url, body: notification.body, attempt, status: 'network-error' });
      }
      if (attempt <= options.retries) await sleep(retryDelayMs(options, attempt), signal);
    }
    if (!signal.aborted) options.onGiveUp?.(notification);
  }

  function track(promise: Promise<void>) {
    inFlight.add(promise);
    void promise.finally(() => inFlight.delete(promise));
  }

  function takeFault(): NotificationFault | undefined {
    const fault = faults[0];
    if (!fault) return undefined;
    fault.used += 1;
    if (fault.times !== undefined && fault.used >= fault.times) faults = faults.slice(1);
    return fault;
  }

  return {
    /** Queues a notification; resolves at once, delivery happens in the background. */
    send(notification: OutgoingNotification): void {
      const fault = takeFault();
      const previouslyHeld = held;
      held = undefined;
      switch (fault?.mode) {
        case 'drop':
          record({ url: notification.url, body: notification.body, attempt: 0, status: 'dropped' });
          break;
        case 'duplicate':
          track(deliver(notification));
          track(deliver(notification));
          break;
        case 'reorder':
          held = notification; // goes out after the next one
          break;
        case 'delay':
          track(deliver(notification, fault.delayMs ?? 1000));
          break;
        case 'lose-answer':
          track(deliver(notification, 0, 1));
          break;
        default:
          track(deliver(notification));
      }
      if (previouslyHeld) track(deliver(previouslyHeld));
    },
    setFault(fault: NotificationFault): void {
      faults.push({ ...fault, used: 0 });
    },
    clearFaults(): void {
      faults = [];
    },
    /** Waits until every queued delivery (with its retries) is done; a held notification goes out. */
    async flush(): Promise<void> {
      if (held) {
        track(deliver(held));
        held = undefined;
      }
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    deliveries: (): DeliveryRecord[] => [...log],
    /** Forgets the deliveries waiting for a retry or a delay (the emulator closes). */
    stop: stopWaiting,
    reset(): void {
      stopWaiting();
      faults = [];
      held = undefined;
      log = [];
    },
  };
}

/**
 * The notification controls of an emulator that sends notifications: `GET /_emulator/notifications`
 * (the delivery log), `POST /_emulator/notifications/flush` (waits for every queued delivery, then
 * answers the log), and `POST`/`DELETE /_emulator/notifications/faults`. Closing the emulator forgets the
 * deliveries still waiting, so no timer outlives it.
 */
export function registerNotificationControls(app: FastifyInstance, notifier: Notifier): void {
  app.addHook('onClose', async () => notifier.stop());
  app.get('/_emulator/notifications', async () => ({ deliveries: notifier.deliveries() }));
  app.post('/_emulator/notifications/flush', async () => {
    await notifier.flush();
    return { deliveries: notifier.deliveries() };
  });
  app.post('/_emulator/notifications/faults', async (request, reply) => {
    const parsed = notificationFaultSchema.safeParse(request.body);
    if (!parsed.success)
      return reply.code(400).send({ error: 'invalid notification fault', issues: parsed.error.issues });
    notifier.setFault(parsed.data);
    return reply.code(201).send(parsed.data);
  });
  app.delete('/_emulator/notifications/faults', async () => {
    notifier.clearFaults();
    return { cleared: true };
  });
}
