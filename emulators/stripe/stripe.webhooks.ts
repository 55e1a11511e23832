import { createHmac } from 'node:crypto';
import type { Notifier } from '../shared/notifier.ts';
import type { StripeClock } from './stripe.clock.ts';
import { stripeId } from './stripe.ids.ts';
import type { StripeEvent, StripeStore } from './stripe.store.ts';

export type WebhookEndpoint = {
  url: string | undefined;
  secret: string;
  /** Event types sent to the endpoint; `*` = all. */
  enabledEvents: string[];
};

export type EventRequest = { id: string | null; idempotency_key: string | null };

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.payload" keyed with the whole whsec_ secret>`. */
export function signatureHeader(payload: string, secret: string, timestamp: number): string {
  const signature = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${signature}`;
}

/**
 * Records every event (for `/v1/events`) and delivers it, signed, to the configured endpoint.
 * The data object is a snapshot: later changes to the object do not alter past events.
 */
export class StripeEvents {
  readonly endpoint: WebhookEndpoint;
  readonly #store: StripeStore;
  readonly #clock: StripeClock;
  readonly #notifier: Notifier;
  readonly #apiVersion: string;
  #request: EventRequest = { id: null, idempotency_key: null };

  constructor(options: {
    store: StripeStore;
    clock: StripeClock;
    notifier: Notifier;
    apiVersion: string;
    endpoint: WebhookEndpoint;
  }) {
    this.#store = options.store;
    this.#clock = options.clock;
    this.#notifier = options.notifier;
    this.#apiVersion = options.apiVersion;
    this.endpoint = { ...options.endpoint };
  }

  /** Runs `action` (synchronously) with its events attributed to an API request. */
  during<T>(request: EventRequest, action: () => T): T {
    const previous = this.#request;
    this.#request = request;
    try {
      return action();
    } finally {
      this.#request = previous;
    }
  }

  emit(type: string, object: object, previousAttributes?: Record<string, unknown>): StripeEvent {
    const deliver = this.#wants(type);
    const event: StripeEvent = {
      id: stripeId('event'),
      object: 'event',
      api_version: this.#apiVersion,
      created: this.#clock.now(),
      data: {
        object: structuredClone(object),
        ...(previousAttributes ? { previous_attributes: structuredClone(previousAttributes) } : {}),
      },
      livemode: false,
      pending_webhooks: deliver ? 1 : 0,
      request: { ...this.#request },
      type,
    };
    this.#store.events.push(event);
    if (deliver && this.endpoint.url) this.#send(this.endpoint.url, event);
    return event;
  }

  #wants(type: string): boolean {
    if (!this.endpoint.url) return false;
    return this.endpoint.enabledEvents.some((pattern) => pattern === '*' || pattern === type);
  }

  #send(url: string, event: StripeEvent): void {
    // Stripe sends pretty-printed JSON; receivers must verify the raw bytes, not a re-serialisation.
    const body = JSON.stringify(event, null, 2);
    // Real time, not the test clock: receivers check the timestamp against their own clock.
    const timestamp = Math.floor(Date.now() / 1000);
    this.#notifier.send({
      url,
      body,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
        'stripe-signature': signatureHeader(body, this.endpoint.secret, timestamp),
      },
    });
  }
}
