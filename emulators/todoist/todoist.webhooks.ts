import { createHmac, randomUUID } from 'node:crypto';
import type { Notifier } from '../shared/notifier.ts';
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

export type WebhookSettings = { url: string | null; events: WebhookEvent[] };

export type WebhookEmitter = ReturnType<typeof createWebhookEmitter>;

/** The app's webhook: signed JSON posts for the users who authorized the app through OAuth. */
export function createWebhookEmitter(options: {
  clientId: string;
  clientSecret: string;
  accounts: TodoistAccounts;
  notifier: Notifier;
  url: string | undefined;
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
      const body = JSON.stringify({
        event_name: event,
        user_id: user.id,
        event_data: eventData,
        initiator: initiatorWire(user),
        version: '1',
        triggered_at: `${now.slice(0, 23)}000Z`,
        ...(extra === undefined ? {} : { event_data_extra: extra }),
      });
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
