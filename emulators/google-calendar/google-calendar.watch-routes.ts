import type { FastifyInstance } from 'fastify';
import { callerFor } from './google-calendar.api-auth.ts';
import type { ApiContext } from './google-calendar.calendar-routes.ts';
import { errors } from './google-calendar.errors.ts';
import { channelInputSchema, parseBody, stopChannelSchema } from './google-calendar.schemas.ts';

/** events.watch and channels.stop. */
export function registerWatchRoutes(app: FastifyInstance, context: ApiContext): void {
  const { store, channels, push } = context;

  app.post('/calendars/:calendarId/events/watch', async (request) => {
    const caller = callerFor(request, 'eventsRead');
    const { calendarId } = request.params as { calendarId: string };
    const calendar = store.calendarFor(caller.email, calendarId);
    if (!calendar) throw errors.notFound();
    const input = parseBody(channelInputSchema, request.body);
    if (input.type !== 'web_hook' && input.type !== 'webhook')
      throw errors.invalid(`Unknown channel type: ${input.type}`);
    const address = URL.canParse(input.address) ? new URL(input.address) : undefined;
    if (!address || (address.protocol !== 'https:' && address.protocol !== 'http:')) {
      throw errors.invalid(`WebHook callback must be HTTPS: ${input.address}`);
    }
    const now = Date.now();
    const ttlSeconds = input.params?.ttl === undefined ? undefined : Number(input.params.ttl);
    if (ttlSeconds !== undefined && !(ttlSeconds > 0)) throw errors.invalid('Invalid value for: params.ttl');
    const requested = input.expiration == null ? undefined : Number(input.expiration);
    if (requested !== undefined && requested <= now) throw errors.invalid('Invalid value for: expiration');
    // The more restrictive of the requested lifetime and the emulator's limit, as Google does.
    const limit = now + context.channelMaxLifetimeMs;
    const expirationMs = Math.min(
      requested ?? limit,
      ttlSeconds === undefined ? limit : now + ttlSeconds * 1000,
      limit,
    );

    const channel = channels.create({
      id: input.id,
      resourceId: calendar.resourceId,
      resourceUri: `${context.getOrigin()}/calendar/v3/calendars/${encodeURIComponent(calendarId)}/events?alt=json`,
      token: input.token ?? undefined,
      address: address.href,
      expirationMs,
      calendarId: calendar.id,
      email: caller.email,
      clientId: caller.clientId,
    });
    if (!channel) throw errors.channelIdNotUnique(input.id);
    push.sync(channel);
    return {
      kind: 'api#channel',
      id: channel.id,
      resourceId: channel.resourceId,
      resourceUri: channel.resourceUri,
      ...(channel.token === undefined ? {} : { token: channel.token }),
      expiration: String(channel.expirationMs),
    };
  });

  app.post('/channels/stop', async (request, reply) => {
    const caller = callerFor(request, 'anyCalendar');
    const input = parseBody(stopChannelSchema, request.body);
    const channel = channels.find(input.id);
    const mine =
      channel &&
      channels.isLive(channel) &&
      channel.resourceId === input.resourceId &&
      channel.email === caller.email &&
      channel.clientId === caller.clientId;
    if (!channel || !mine) throw errors.channelNotFound(input.id);
    channels.stop(channel);
    return reply.code(204).send();
  });
}
