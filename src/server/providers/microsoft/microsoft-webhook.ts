import { createHash, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

/**
 * Pure helpers for the Graph change-notification receiver. What the routes must do (they live in
 * http/, wired by the app), for `POST /api/webhooks/microsoft` and `POST /api/webhooks/microsoft/lifecycle`:
 *
 * 1. Validation handshake: when the query has `validationToken`, Graph is checking the endpoint (on
 *    subscription create, for both URLs). Answer 200 with `Content-Type: text/plain` and the token,
 *    URL-decoded (Fastify's parsed query already is), as the body, within 10 s; no other checks, no
 *    body to parse (Graph sends an empty text/plain one). Otherwise the subscription is not created,
 *    and `watch()` fails.
 * 2. Otherwise parse the JSON body with `parseGraphNotifications`; null → 400. For each notification,
 *    look the subscription up by `subscriptionId` and compare `clientState` with the stored channel
 *    secret by `clientStateMatches`; ignore (but still acknowledge) the ones that fail.
 * 3. Answer 202 at once (Graph wants a 2xx within 3 s, and throttles slow endpoints), then enqueue a
 *    debounced sync for the user: a notification is only a nudge, the changes are read by delta.
 * 4. Lifecycle events: `reauthorizationRequired` → renew in place (`renewWatch`: PATCH, which
 *    reauthorizes) and sync; `subscriptionRemoved` → watch again (the renewal finds it gone) and sync;
 *    `missed` → sync. One POST may mix several subscriptions.
 */

const LIFECYCLE_EVENTS = ['reauthorizationRequired', 'subscriptionRemoved', 'missed'] as const;
export type LifecycleEvent = (typeof LIFECYCLE_EVENTS)[number] | 'unknown';

const notificationSchema = z.object({
  subscriptionId: z.string().min(1).max(200),
  clientState: z.string().nullish(),
  changeType: z.string().optional(),
  resourceData: z
    .object({ id: z.string().max(500).optional(), '@odata.etag': z.string().max(500).optional() })
    .optional(),
  lifecycleEvent: z
    .string()
    .optional()
    .transform((value): LifecycleEvent | undefined =>
      value === undefined
        ? undefined
        : (((LIFECYCLE_EVENTS as readonly string[]).includes(value) ? value : 'unknown') as LifecycleEvent),
    ),
});
const notificationBodySchema = z.object({ value: z.array(notificationSchema).min(1).max(1000) });

export type GraphNotification = {
  subscriptionId: string;
  clientState: string | null;
  /** Present on lifecycle notifications only. */
  lifecycleEvent?: LifecycleEvent;
  /**
   * The event a create or update left, and its change key then (from `resourceData`); absent for a
   * deletion, or when Graph did not say.
   */
  changed?: { eventId: string; version: string };
};

/** `W/"<changeKey>"` → the change key. */
const changeKeyOf = (etag: string | undefined) => etag?.match(/^(?:W\/)?"(.+)"$/)?.[1];

/** The notifications in a Graph POST body (JSON text or parsed); null when it is not one. */
export function parseGraphNotifications(body: unknown): GraphNotification[] | null {
  let json = body;
  if (typeof body === 'string') {
    try {
      json = JSON.parse(body);
    } catch {
      return null;
    }
  }
  const parsed = notificationBodySchema.safeParse(json);
  if (!parsed.success) return null;
  return parsed.data.value.map(
    ({ subscriptionId, clientState, lifecycleEvent, changeType, resourceData }) => {
      const eventId = resourceData?.id;
      const version = changeKeyOf(resourceData?.['@odata.etag']);
      const changed = (changeType === 'created' || changeType === 'updated') && eventId && version;
      return {
        subscriptionId,
        clientState: clientState ?? null,
        ...(lifecycleEvent ? { lifecycleEvent } : {}),
        ...(changed ? { changed: { eventId, version } } : {}),
      };
    },
  );
}

/** Compares a received clientState with the channel's secret in constant time (digests of equal length). */
export function clientStateMatches(received: string | null | undefined, expected: string): boolean {
  if (!received || !expected) return false;
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(received), digest(expected));
}
