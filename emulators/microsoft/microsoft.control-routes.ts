import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { FaultController } from '../shared/faults.ts';
import { type Notifier, registerNotificationControls } from '../shared/notifier.ts';
import type { RequestCounter } from '../shared/request-counter.ts';
import type { GraphContext, GraphSettings, MicrosoftClient } from './microsoft.emulator.ts';
import { registerEventMoveControls } from './microsoft.event-move-controls.ts';
import { IdentityStore } from './microsoft.identity-store.ts';
import { type LifecycleEvent, sendLifecycleNotification } from './microsoft.notifications.ts';
import { formatScope, parseScopes } from './microsoft.scopes.ts';
import { registerSharedCalendarControls } from './microsoft.shared-calendar-controls.ts';
import { CONSUMER_TENANT_ID } from './microsoft.tenants.ts';

type ControlContext = GraphContext & {
  identity: IdentityStore;
  notifier: Notifier;
  faults: FaultController;
  counter: RequestCounter;
  clients: readonly MicrosoftClient[];
};

const userSeedSchema = z.object({
  email: z.email(),
  name: z.string().optional(),
  timeZone: z.string().optional(),
  calendars: z.array(z.object({ name: z.string().min(1), color: z.string().optional() })).optional(),
  categories: z.array(z.object({ displayName: z.string().min(1), color: z.string() })).optional(),
});
const seedSchema = z.object({ users: z.array(userSeedSchema) });
const byUserSchema = z.object({ email: z.email().optional() }).optional();
const consentRevokeSchema = z
  .object({ email: z.email().optional(), clientId: z.string().optional() })
  .optional();
const tokenSchema = z.object({
  email: z.email(),
  name: z.string().optional(),
  clientId: z.string().optional(),
  scope: z.string().optional(),
});
const expireSoonSchema = z
  .object({
    /** One subscription; every live one when absent. */
    id: z.string().optional(),
    /** Seconds left until expiry (default 60); 0 removes it right after the reminder. */
    inSeconds: z.number().min(0).optional(),
  })
  .optional();
const settingsSchema = z.object({
  transactionIdWindowSeconds: z.number().min(0).optional(),
  reauthorizationLeadSeconds: z.number().min(0).optional(),
  deltaChangedPropertiesOnly: z.boolean().optional(),
});
const lifecycleSchema = z.object({
  lifecycleEvent: z.enum(['reauthorizationRequired', 'subscriptionRemoved', 'missed']),
});

const DEFAULT_TOKEN_SCOPE = 'offline_access User.Read Calendars.ReadWrite MailboxSettings.ReadWrite';

const settingsJson = (settings: GraphSettings) => ({
  transactionIdWindowSeconds: settings.transactionIdWindowMs / 1000,
  reauthorizationLeadSeconds: settings.reauthorizationLeadMs / 1000,
  deltaChangedPropertiesOnly: settings.deltaChangedPropertiesOnly,
});

function invalid(reply: FastifyReply, error: z.ZodError) {
  return reply.code(400).send({ error: 'invalid control request', issues: error.issues });
}

/**
 * `/_emulator/…`: state, reset, seeding, calendars shared with a user, tokens for the sandbox console,
 * and the expiry/lifecycle triggers.
 */
export function registerControlRoutes(app: FastifyInstance, context: ControlContext): void {
  const userIdFor = (email: string | undefined) =>
    email ? (context.mailboxes.userByEmail(email)?.id ?? '-no-such-user-') : undefined;

  app.get('/_emulator/state', async () => ({
    origin: context.getOrigin(),
    ...context.mailboxes.snapshot(),
    ...context.events.snapshot(),
    ...context.identity.snapshot(),
    ...context.subscriptions.snapshot(),
    delta: context.deltas.snapshot(),
    handshakes: [...context.handshakes],
    notifications: context.notifier.deliveries(),
    faults: context.faults.rules(),
    requests: context.counter.counts(),
  }));

  app.post('/_emulator/reset', async () => {
    context.mailboxes.reset();
    context.events.reset();
    context.identity.reset();
    context.lifecycle.reset();
    context.subscriptions.reset();
    Object.assign(context.settings, context.defaultSettings);
    context.deltas.reset();
    context.handshakes.length = 0;
    context.notifier.reset();
    context.faults.clear();
    context.counter.reset();
    return { reset: true };
  });

  app.post('/_emulator/seed', async (request, reply) => {
    const parsed = seedSchema.safeParse(request.body);
    if (!parsed.success) return invalid(reply, parsed.error);
    const ids = new Set(parsed.data.users.map((seed) => context.mailboxes.ensureUser(seed).id));
    return reply.code(201).send(context.mailboxes.snapshotOf(ids));
  });

  registerSharedCalendarControls(app, context.mailboxes);
  registerEventMoveControls(app, context);

  // An access token without the consent page, for the sandbox console and for tests.
  app.post('/_emulator/tokens', async (request, reply) => {
    const parsed = tokenSchema.safeParse(request.body);
    if (!parsed.success) return invalid(reply, parsed.error);
    const clientId = parsed.data.clientId ?? context.clients[0]?.clientId ?? 'sandbox-console';
    const user = context.mailboxes.ensureUser({ email: parsed.data.email, name: parsed.data.name });
    const scopes = parseScopes(parsed.data.scope ?? DEFAULT_TOKEN_SCOPE);
    const grant = context.identity.grants.createGrant({
      clientId,
      userId: user.id,
      tenantId: CONSUMER_TENANT_ID,
      scopes,
    });
    return reply.code(201).send({
      token_type: 'Bearer',
      scope: formatScope(scopes),
      access_token: context.identity.grants.issueAccessToken(grant, scopes),
      refresh_token: context.identity.grants.issueRefreshToken(grant),
      user_id: user.id,
    });
  });

  app.post('/_emulator/tokens/expire', async (request, reply) => {
    const parsed = byUserSchema.safeParse(request.body ?? undefined);
    if (!parsed.success) return invalid(reply, parsed.error);
    const ofUser = IdentityStore.ofUser(userIdFor(parsed.data?.email));
    return { expired: context.identity.grants.expireAccessTokens(ofUser, { recount: true }) };
  });

  // Access lost: Graph removes the subscriptions the app can no longer read for, with `subscriptionRemoved`.
  const removeSubscriptionsOf = (userId: string | undefined, clientId?: string) =>
    context.lifecycle.accessLost(
      (subscription) =>
        (!userId || subscription.userId === userId) && (!clientId || subscription.applicationId === clientId),
    );

  /** Like a password change: the refresh tokens stop working, and the user's subscriptions are removed. */
  app.post('/_emulator/refresh-tokens/revoke', async (request, reply) => {
    const parsed = byUserSchema.safeParse(request.body ?? undefined);
    if (!parsed.success) return invalid(reply, parsed.error);
    const userId = userIdFor(parsed.data?.email);
    const revoked = context.identity.grants.revokeRefreshTokens(IdentityStore.ofUser(userId));
    return { revoked, subscriptionsRemoved: removeSubscriptionsOf(userId) };
  });

  /**
   * The user removes the app's permissions (account.microsoft.com, or an admin in the tenant): its grants
   * end with every token, and the app's subscriptions on the user's data are removed.
   */
  app.post('/_emulator/consent/revoke', async (request, reply) => {
    const parsed = consentRevokeSchema.safeParse(request.body ?? undefined);
    if (!parsed.success) return invalid(reply, parsed.error);
    const userId = userIdFor(parsed.data?.email);
    const clientId = parsed.data?.clientId;
    const ofUser = IdentityStore.ofUser(userId);
    const grants = context.identity.grants.removeGrants(
      (grant) => ofUser(grant) && (!clientId || grant.clientId === clientId),
    );
    return { grantsRemoved: grants.length, subscriptionsRemoved: removeSubscriptionsOf(userId, clientId) };
  });

  app.post('/_emulator/delta/expire', async (request, reply) => {
    const parsed = byUserSchema.safeParse(request.body ?? undefined);
    if (!parsed.success) return invalid(reply, parsed.error);
    return { expired: context.deltas.expire(userIdFor(parsed.data?.email)) };
  });

  /** Silent expiry: the subscription is simply gone, with no lifecycle notification. */
  app.post('/_emulator/subscriptions/:id/expire', async (request, reply) => {
    const { id } = request.params as { id: string };
    context.lifecycle.cancel(id);
    const expired = context.subscriptions.expire(id);
    return expired ? { expired: true } : reply.code(404).send({ error: 'no such subscription' });
  });

  /**
   * Ages subscriptions to just before their end, as Graph sees them then: `reauthorizationRequired`
   * goes to the lifecycle URL now and their change notifications pause until reauthorized or renewed;
   * unless renewed (PATCH expirationDateTime) a subscription stops at expiry, with no notification.
   */
  app.post('/_emulator/subscriptions/expire-soon', async (request, reply) => {
    const parsed = expireSoonSchema.safeParse(request.body ?? undefined);
    if (!parsed.success) return invalid(reply, parsed.error);
    const { id, inSeconds = 60 } = parsed.data ?? {};
    const targets = id
      ? [context.subscriptions.get(id)].filter((s) => s !== undefined)
      : context.subscriptions.live();
    if (id && targets.length === 0) return reply.code(404).send({ error: 'no such subscription' });
    for (const subscription of targets) context.lifecycle.expireSoon(subscription, inSeconds * 1000);
    return {
      subscriptions: targets.map((subscription) => ({
        id: subscription.id,
        expirationDateTime: new Date(subscription.expiresAt).toISOString(),
        reauthorizationRequired: subscription.reauthorizationRequired,
      })),
    };
  });

  app.get('/_emulator/settings', async () => settingsJson(context.settings));
  app.post('/_emulator/settings', async (request, reply) => {
    const parsed = settingsSchema.safeParse(request.body);
    if (!parsed.success) return invalid(reply, parsed.error);
    const { transactionIdWindowSeconds, reauthorizationLeadSeconds, deltaChangedPropertiesOnly } =
      parsed.data;
    if (transactionIdWindowSeconds !== undefined)
      context.settings.transactionIdWindowMs = transactionIdWindowSeconds * 1000;
    if (reauthorizationLeadSeconds !== undefined)
      context.settings.reauthorizationLeadMs = reauthorizationLeadSeconds * 1000;
    if (deltaChangedPropertiesOnly !== undefined)
      context.settings.deltaChangedPropertiesOnly = deltaChangedPropertiesOnly;
    return settingsJson(context.settings);
  });

  app.post('/_emulator/subscriptions/:id/lifecycle', async (request, reply) => {
    const parsed = lifecycleSchema.safeParse(request.body);
    if (!parsed.success) return invalid(reply, parsed.error);
    const subscription = context.subscriptions.get((request.params as { id: string }).id);
    if (!subscription) return reply.code(404).send({ error: 'no such subscription' });
    const lifecycleEvent: LifecycleEvent = parsed.data.lifecycleEvent;
    if (!sendLifecycleNotification(context.notifier, subscription, lifecycleEvent)) {
      return reply.code(409).send({ error: 'the subscription has no lifecycleNotificationUrl' });
    }
    // As Graph's own: change notifications pause until reauthorized, a removed subscription is gone.
    if (lifecycleEvent === 'reauthorizationRequired') subscription.reauthorizationRequired = true;
    if (lifecycleEvent === 'subscriptionRemoved') {
      context.subscriptions.delete(subscription.id);
      context.lifecycle.cancel(subscription.id);
    }
    return reply.code(202).send({ sent: lifecycleEvent });
  });

  registerNotificationControls(app, context.notifier);
}
