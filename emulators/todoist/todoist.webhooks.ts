import { createHmac, randomUUID } from 'node:crypto';
import { deliveredOn200, type Notifier, type NotifierOptions } from '../shared/notifier.ts';
import { withUnknownFields } from '../shared/unknown-fields.ts';
import type { TodoistAccounts } from './todoist.accounts.ts';
import { initiatorWire } from './todoist.mappers.ts';
import type { UserRecord } from './todoist.records.ts';

export const WEBHOOK_EVENTS = [
  'item:added',
  'item:updated',
  'item:deleted',
  'item:completed',
  'item:uncompleted',
  'label:added',
  'label:updated',
  'label:deleted',
  'project:added',
  'project:updated',
  'project:deleted',
  'project:archived',
  'project:unarchived',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** Todoist's wait before each retry of a failed webhook: 15 minutes (docs/provider-facts.md §8). */
export const WEBHOOK_RETRY_SECONDS = 900;
/** Todoist's retries of a failed webhook: at most 3 (docs/provider-facts.md §8). */
export const WEBHOOK_RETRIES = 3;

/**
 * How Todoist delivers webhooks: only a 200 counts as delivered, and a failed delivery is tried again
 * `retries` times, `retrySeconds` apart (the same body and headers, so the same `X-Todoist-Delivery-ID`).
 */
export function webhookDelivery(
  retrySeconds = WEBHOOK_RETRY_SECONDS,
  retries = WEBHOOK_RETRIES,
): Pick<NotifierOptions, 'retries' | 'retryBaseDelayMs' | 'retrySpacing' | 'delivered'> {
  return { retries, retryBaseDelayMs: retrySeconds * 1000, retrySpacing: 'fixed', delivered: deliveredOn200 };
}

export type WebhookSettings = { url: string | null; events: WebhookEvent[] };

export type WebhookEmitter = ReturnType<typeof createWebhookEmitter>;

/** The app's webhook: signed JSON posts for the users who authorized the app through OAuth. */
export function createWebhookEmitter(options: {
  clientId: string;
  clientSecret: string;
  accounts: TodoistAccounts;
  notifier: Notifier;
  url: string | undefined;
  /** Whether the webhooks carry fields the app does not know, as the API's answers then do. */
  unknownFields?: () => boolean;
}) {
  // What `reset` returns to: the start option, or a URL configured with `keepOnReset`.
  let defaultUrl = options.url ?? null;
  const initial = (): WebhookSettings => ({ url: defaultUrl, events: [...WEBHOOK_EVENTS] });
  let settings = initial();
  let muted = false;

  return {
    settings: (): WebhookSettings => ({ ...settings, events: [...settings.events] }),
    /** `keepOnReset`: the URL also survives `POST /_emulator/reset` (the sandbox app's own receiver). */
    configure(next: Partial<WebhookSettings>, keepOnReset = false): void {
      if (keepOnReset && next.url !== undefined) defaultUrl = next.url;
      settings = {
        url: next.url === undefined ? settings.url : next.url,
        events: next.events ?? settings.events,
      };
    },
    reset(): void {
      settings = initial();
    },
    /** Runs `action` without sending webhooks (seeding is not a user's doing). */
    muted<T>(action: () => T): T {
      muted = true;
      try {
        return action();
      } finally {
        muted = false;
      }
    },
    emit(user: UserRecord, event: WebhookEvent, eventData: object, extra?: object): void {
      if (muted || !settings.url || !settings.events.includes(event)) return;
      if (!options.accounts.hasAuthorized(user.id, options.clientId)) return;
      const now = new Date().toISOString();
      const payload = {
        event_name: event,
        user_id: user.id,
        event_data: eventData,
        initiator: initiatorWire(user),
        version: '1',
        triggered_at: `${now.slice(0, 23)}000Z`,
        ...(extra === undefined ? {} : { event_data_extra: extra }),
      };
      const body = JSON.stringify(options.unknownFields?.() ? withUnknownFields(payload) : payload);
      options.notifier.send({
        url: settings.url,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Todoist-Webhooks',
          'x-todoist-hmac-sha256': createHmac('sha256', options.clientSecret).update(body).digest('base64'),
          'x-todoist-delivery-id': randomUUID(),
        },
        body,
      });
    },
  };
}
