import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { FaultController } from '../shared/faults.ts';
import { type Notifier, registerNotificationControls } from '../shared/notifier.ts';
import type { GoogleOAuth } from '../shared/oauth/google-oauth.ts';
import type { RequestCounter } from '../shared/request-counter.ts';
import { isTimeZone } from '../shared/wall-clock.ts';
import type { ChannelStore } from './google-calendar.channel-store.ts';
import type { GoogleCalendarClient } from './google-calendar.emulator.ts';
import { registerEventMoveControls } from './google-calendar.event-move-controls.ts';
import type { PageCursors } from './google-calendar.pages.ts';
import { formatScopes, parseScopes } from './google-calendar.scopes.ts';
import { ACCESS_ROLES, type CalendarStore } from './google-calendar.store.ts';

type ControlContext = {
  store: CalendarStore;
  oauth: GoogleOAuth;
  channels: ChannelStore;
  cursors: PageCursors<unknown>;
  notifier: Notifier;
  faults: FaultController;
  counter: RequestCounter;
  clients: readonly GoogleCalendarClient[];
};

const accountSchema = z.object({
  email: z.email(),
  name: z.string().optional(),
  timeZone: z.string().refine(isTimeZone, 'not an IANA time zone').optional(),
});
const tokenSchema = z.object({
  email: z.email(),
  scopes: z.array(z.string()).default(['https://www.googleapis.com/auth/calendar']),
  clientId: z.string().optional(),
});
const sharedCalendarSchema = z.object({
  email: z.email(),
  summary: z.string().min(1),
  accessRole: z.enum(ACCESS_ROLES).default('reader'),
});
const expireTokensSchema = z.object({ email: z.email().optional() }).default({});
const expireChannelsSchema = z
  .object({
    /** One channel; all live channels when absent (or those of `calendarId`). */
    id: z.string().optional(),
    calendarId: z.string().optional(),
    /** Age instead of expire: the channels expire this many seconds from now (never later than before). */
    inSeconds: z.number().int().min(0).optional(),
  })
  .default({});

/** `/_emulator/*`: state, reset, seeding, and the controls that make tokens, sync tokens and channels expire. */
export function registerControlRoutes(app: FastifyInstance, context: ControlContext): void {
  const { store, oauth, channels, notifier } = context;
  const invalid = (issues: unknown) => ({ error: 'invalid request', issues });

  app.get('/_emulator/state', async () => ({
    ...store.snapshot(),
    ...oauth.snapshot('email', { showExpired: true }),
    channels: channels.snapshot(),
    notifications: notifier.deliveries(),
    requests: context.counter.counts(),
  }));

  app.post('/_emulator/reset', async () => {
    store.reset();
    oauth.reset();
    channels.reset();
    context.cursors.reset();
    notifier.reset();
    context.faults.clear();
    context.counter.reset();
    return { reset: true };
  });

  app.post('/_emulator/accounts', async (request, reply) => {
    const parsed = accountSchema.safeParse(request.body);
    if (!parsed.success) return reply.code(400).send(invalid(parsed.error.issues));
    const account = store.ensureAccount(parsed.data.email, parsed.data.name ?? '', parsed.data.timeZone);
    const calendars = store
      .calendarsOf(account.email)
      .map(({ id, summary, timeZone, primary }) => ({ id, summary, timeZone, primary }));
    return reply.code(201).send({ email: account.email, name: account.name, calendars });
  });

  // A calendar someone else owns, shared with the account: on its calendar list with `accessRole`.
  app.post('/_emulator/calendars/shared', async (request, reply) => {
    const parsed = sharedCalendarSchema.safeParse(request.body);
    if (!parsed.success) return reply.code(400).send(invalid(parsed.error.issues));
    const account = store.ensureAccount(parsed.data.email, '');
    const calendar = store.createCalendar(account, {
      summary: parsed.data.summary,
      timeZone: store.defaultTimeZone,
    });
    calendar.accessRole = parsed.data.accessRole;
    return reply
      .code(201)
      .send({ id: calendar.id, summary: calendar.summary, accessRole: calendar.accessRole });
  });

  // The account's access to one of its calendars changes (shared to read only now, say).
  app.post('/_emulator/calendars/:calendarId/access', async (request, reply) => {
    const parsed = z.object({ accessRole: z.enum(ACCESS_ROLES) }).safeParse(request.body);
    if (!parsed.success) return reply.code(400).send(invalid(parsed.error.issues));
    const calendar = store.calendar((request.params as { calendarId: string }).calendarId);
    if (!calendar) return reply.code(404).send({ error: 'no such calendar' });
    calendar.accessRole = parsed.data.accessRole;
    return { id: calendar.id, accessRole: calendar.accessRole };
  });

  // An access token without the consent round trip, for the sandbox console and end-to-end tests.
  app.post('/_emulator/tokens', async (request, reply) => {
    const parsed = tokenSchema.safeParse(request.body);
    const scopes = parsed.success ? parseScopes(parsed.data.scopes.join(' ')) : undefined;
    if (!parsed.success || !scopes || 'unknown' in scopes) {
      return reply.code(400).send(invalid(parsed.success ? 'unknown scope' : parsed.error.issues));
    }
    const clientId = parsed.data.clientId ?? context.clients[0]?.clientId ?? 'sandbox';
    const account = store.ensureAccount(parsed.data.email, '');
    const grant = oauth.grants.createGrant({ clientId, account: account.email, scopes: scopes.scopes });
    return reply.code(201).send({
      access_token: oauth.grants.issueAccessToken(grant),
      expires_in: oauth.grants.accessTokenLifetimeSeconds,
      scope: formatScopes(grant.scopes),
      token_type: 'Bearer',
    });
  });

  app.post('/_emulator/oauth/expire-access-tokens', async (request, reply) => {
    const parsed = expireTokensSchema.safeParse(request.body ?? {});
    if (!parsed.success) return reply.code(400).send(invalid(parsed.error.issues));
    const email = parsed.data.email?.toLowerCase();
    return { expired: oauth.grants.expireAccessTokens((grant) => !email || grant?.account === email) };
  });

  app.post('/_emulator/calendars/:calendarId/expire-sync-tokens', async (request, reply) => {
    const { calendarId } = request.params as { calendarId: string };
    if (!store.calendar(calendarId)) return reply.code(404).send({ error: 'no such calendar' });
    return { expired: store.expireSyncTokens(calendarId) };
  });

  app.delete('/_emulator/calendars/:calendarId', async (request, reply) => {
    const calendar = store.calendar((request.params as { calendarId: string }).calendarId);
    if (!calendar) return reply.code(404).send({ error: 'no such calendar' });
    if (calendar.primary) return reply.code(400).send({ error: 'the primary calendar cannot be deleted' });
    store.deleteCalendar(calendar);
    return { deleted: true };
  });

  app.post('/_emulator/channels/:channelId/expire', async (request, reply) => {
    const channel = channels.find((request.params as { channelId: string }).channelId);
    if (!channel) return reply.code(404).send({ error: 'no such channel' });
    channels.expireNow(channel);
    return { expired: true, expiration: new Date(channel.expirationMs).toISOString() };
  });

  // Expired channels just go quiet, as at Google: no notification says so.
  app.post('/_emulator/channels/expire', async (request, reply) => {
    const parsed = expireChannelsSchema.safeParse(request.body ?? {});
    if (!parsed.success) return reply.code(400).send(invalid(parsed.error.issues));
    const { id, calendarId, inSeconds } = parsed.data;
    const matching = channels.liveMatching({ id, calendarId });
    if (id !== undefined && matching.length === 0)
      return reply.code(404).send({ error: 'no such live channel' });
    for (const channel of matching) {
      if (inSeconds === undefined) channels.expireNow(channel);
      else channels.age(channel, Date.now() + inSeconds * 1000);
    }
    return {
      channels: matching.map((channel) => ({
        id: channel.id,
        expiration: new Date(channel.expirationMs).toISOString(),
        live: channels.isLive(channel),
      })),
    };
  });

  registerEventMoveControls(app, store);
  registerNotificationControls(app, notifier);
}
