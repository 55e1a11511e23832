import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { GraphContext } from './microsoft.emulator.ts';
import { badRequest, GraphError } from './microsoft.errors.ts';
import { authorize, type GraphCaller } from './microsoft.graph-auth.ts';
import { PERMISSIONS } from './microsoft.scopes.ts';
import type { ChangeTypeName, Subscription } from './microsoft.subscription-store.ts';
import { formatTimestamp } from './microsoft.time.ts';
import { validateEndpoint } from './microsoft.validation-handshake.ts';

const createSchema = z.object({
  changeType: z.string().min(1),
  notificationUrl: z.url(),
  lifecycleNotificationUrl: z.url().nullish(),
  resource: z.string().min(1),
  expirationDateTime: z.string(),
  clientState: z.string().max(128).nullish(),
  latestSupportedTlsVersion: z.enum(['v1_0', 'v1_1', 'v1_2', 'v1_3']).optional(),
  includeResourceData: z.boolean().optional(),
  '@odata.type': z.string().optional(),
});
const updateSchema = z.object({
  expirationDateTime: z.string().optional(),
  notificationUrl: z.url().optional(),
});

const CHANGE_TYPES = new Set<string>(['created', 'updated', 'deleted']);

/** `Operation: Create; Exception: [Status Code: BadRequest; Reason: …]`, Graph's wrapper for Outlook's refusals. */
const extensionError = (operation: string, reason: string, status = 'BadRequest') =>
  new GraphError(
    400,
    'ExtensionError',
    `Operation: ${operation}; Exception: [Status Code: ${status}; Reason: ${reason}]`,
  );

export function subscriptionJson(subscription: Subscription, origin: string) {
  return {
    '@odata.context': `${origin}/v1.0/$metadata#subscriptions/$entity`,
    id: subscription.id,
    resource: subscription.resource,
    applicationId: subscription.applicationId,
    changeType: subscription.changeTypes.join(','),
    clientState: subscription.clientState,
    notificationUrl: subscription.notificationUrl,
    notificationQueryOptions: null,
    lifecycleNotificationUrl: subscription.lifecycleNotificationUrl,
    expirationDateTime: formatTimestamp(subscription.expiresAt),
    creatorId: subscription.userId,
    includeResourceData: false,
    latestSupportedTlsVersion: subscription.latestSupportedTlsVersion,
    encryptionCertificate: null,
    encryptionCertificateId: null,
    notificationUrlAppId: null,
  };
}

export function registerSubscriptionRoutes(app: FastifyInstance, context: GraphContext): void {
  const { subscriptions } = context;
  const origin = () => context.getOrigin();

  const checkExpiration = (raw: string, operation: string): number => {
    const expiresAt = Date.parse(raw);
    if (Number.isNaN(expiresAt)) throw badRequest('BadRequest', `Invalid expirationDateTime '${raw}'.`);
    if (expiresAt <= Date.now())
      throw extensionError(operation, 'Subscription expiration can only be in the future.');
    if (expiresAt > Date.now() + context.maxSubscriptionMinutes * 60_000) {
      throw extensionError(
        operation,
        `Subscription expiration can only be ${context.maxSubscriptionMinutes} minutes in the future.`,
      );
    }
    return expiresAt;
  };
  const owned = (request: FastifyRequest, found: GraphCaller): Subscription => {
    const subscription = subscriptions.get((request.params as { id: string }).id);
    if (
      !subscription ||
      subscription.userId !== found.user.id ||
      subscription.applicationId !== found.grant.clientId
    ) {
      throw new GraphError(404, 'ResourceNotFound', 'The object was not found.');
    }
    return subscription;
  };
  const handshake = (url: string) => validateEndpoint(url, context.validationTimeoutMs, context.handshakes);

  app.post('/subscriptions', async (request, reply) => {
    const found = authorize(request, PERMISSIONS.readCalendars);
    const parsed = createSchema.safeParse(request.body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw badRequest(
        'InvalidRequest',
        `Invalid value for '${issue?.path.join('.') ?? ''}': ${issue?.message ?? ''}`,
      );
    }
    const input = parsed.data;
    const changeTypes = input.changeType.split(',').map((type) => type.trim());
    if (changeTypes.some((type) => !CHANGE_TYPES.has(type))) {
      throw badRequest('InvalidRequest', `Invalid changeType '${input.changeType}'.`);
    }
    if (input.includeResourceData) {
      throw badRequest(
        'InvalidRequest',
        'A valid encryptionCertificate must be provided when includeResourceData is true.',
      );
    }
    const calendarId = resolveResource(context, found, input.resource);
    const expiresAt = checkExpiration(input.expirationDateTime, 'Create');
    await handshake(input.notificationUrl);
    if (input.lifecycleNotificationUrl) await handshake(input.lifecycleNotificationUrl);
    const subscription = subscriptions.create({
      userId: found.user.id,
      applicationId: found.grant.clientId,
      tenantId: found.grant.tenantId,
      resource: input.resource,
      calendarId,
      changeTypes: [...new Set(changeTypes)] as ChangeTypeName[],
      notificationUrl: input.notificationUrl,
      lifecycleNotificationUrl: input.lifecycleNotificationUrl ?? null,
      clientState: input.clientState ?? null,
      latestSupportedTlsVersion: input.latestSupportedTlsVersion ?? 'v1_2',
      expiresAt,
    });
    context.lifecycle.schedule(subscription);
    return reply.code(201).send(subscriptionJson(subscription, origin()));
  });

  app.get('/subscriptions', async (request) => {
    const found = authorize(request, PERMISSIONS.readCalendars);
    return {
      '@odata.context': `${origin()}/v1.0/$metadata#subscriptions`,
      value: subscriptions
        .liveOf(found.user.id)
        .filter((s) => s.applicationId === found.grant.clientId)
        .map((s) => {
          const { '@odata.context': _context, ...json } = subscriptionJson(s, origin());
          return json;
        }),
    };
  });

  app.get('/subscriptions/:id', async (request) =>
    subscriptionJson(owned(request, authorize(request, PERMISSIONS.readCalendars)), origin()),
  );

  app.patch('/subscriptions/:id', async (request) => {
    const subscription = owned(request, authorize(request, PERMISSIONS.readCalendars));
    const body = request.body as Record<string, unknown> | null;
    if (body && 'lifecycleNotificationUrl' in body) {
      throw badRequest(
        'InvalidRequest',
        'lifecycleNotificationUrl cannot be updated. Delete and recreate the subscription.',
      );
    }
    const parsed = updateSchema.safeParse(body ?? {});
    if (!parsed.success)
      throw badRequest('InvalidRequest', parsed.error.issues[0]?.message ?? 'Invalid request.');
    const expiresAt = parsed.data.expirationDateTime
      ? checkExpiration(parsed.data.expirationDateTime, 'Update')
      : undefined;
    if (parsed.data.notificationUrl && parsed.data.notificationUrl !== subscription.notificationUrl) {
      await handshake(parsed.data.notificationUrl);
      subscription.notificationUrl = parsed.data.notificationUrl;
    }
    if (expiresAt !== undefined) {
      subscription.expiresAt = expiresAt;
      // "Renewing your subscription also reauthorizes" it: change notifications flow again.
      subscription.reauthorizationRequired = false;
      context.lifecycle.schedule(subscription);
    }
    return subscriptionJson(subscription, origin());
  });

  app.delete('/subscriptions/:id', async (request, reply) => {
    const subscription = owned(request, authorize(request, PERMISSIONS.readCalendars));
    subscriptions.delete(subscription.id);
    context.lifecycle.cancel(subscription.id);
    return reply.code(204).send();
  });

  // Reauthorizes without extending the expiry; change notifications flow again. 204, no body (MS Learn
  // "subscription: reauthorize").
  app.post('/subscriptions/:id/reauthorize', async (request, reply) => {
    const subscription = owned(request, authorize(request, PERMISSIONS.readCalendars));
    subscription.reauthorizationRequired = false;
    return reply.code(204).send();
  });
}

/** The calendar an Outlook events resource points at: `me/events`, `me/calendars/{id}/events`, `users/{id}/…`. */
function resolveResource(context: GraphContext, found: GraphCaller, resource: string): string {
  const path = resource.trim().replace(/^\/+/, '').replace(/\/+$/, '');
  const match =
    /^(?:me|users\/([^/]+))(?:\/calendar|\/calendars\/([^/]+)|\/calendars\('([^']+)'\))?\/events$/i.exec(
      path,
    );
  if (!match)
    throw badRequest('InvalidRequest', `The resource '${resource}' is not supported by the emulator.`);
  const [, userRef, calendarRef, quotedCalendarRef] = match;
  if (userRef) {
    const ref = decodeURIComponent(userRef).toLowerCase();
    if (ref !== found.user.id && ref !== found.user.email) {
      throw extensionError('Create', 'Access is denied. Check credentials and try again.', 'Forbidden');
    }
  }
  const calendarId = calendarRef ?? quotedCalendarRef;
  const calendar =
    calendarId === undefined
      ? context.mailboxes.defaultCalendar(found.user.id)
      : context.mailboxes.calendar(found.user.id, decodeURIComponent(calendarId));
  if (!calendar)
    throw extensionError('Create', 'The specified object was not found in the store.', 'NotFound');
  return calendar.id;
}
