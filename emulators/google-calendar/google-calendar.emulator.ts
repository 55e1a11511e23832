import formbody from '@fastify/formbody';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import type { EmulatorFactoryOptions } from '../shared/emulator-options.ts';
import { installFaults } from '../shared/faults.ts';
import { acceptEmptyJsonBodies } from '../shared/json-bodies.ts';
import { createNotifier, retryOnServerErrors } from '../shared/notifier.ts';
import { GoogleOAuth, type GoogleOAuthClient } from '../shared/oauth/google-oauth.ts';
import { countRequests } from '../shared/request-counter.ts';
import { installUnknownFields } from '../shared/unknown-fields.ts';
import { installApiAuth } from './google-calendar.api-auth.ts';
import { type ApiContext, registerCalendarRoutes } from './google-calendar.calendar-routes.ts';
import { registerCalendarWriteRoutes } from './google-calendar.calendar-write-routes.ts';
import { ChannelStore } from './google-calendar.channel-store.ts';
import { registerConsentRoutes } from './google-calendar.consent-routes.ts';
import { registerControlRoutes } from './google-calendar.control-routes.ts';
import { errors, faultErrorBody, GoogleApiError, googleErrorBody } from './google-calendar.errors.ts';
import { registerEventListRoutes } from './google-calendar.event-list-routes.ts';
import { registerEventPage } from './google-calendar.event-page.ts';
import { registerEventRoutes } from './google-calendar.event-routes.ts';
import { registerFreeBusyRoutes } from './google-calendar.freebusy-routes.ts';
import { PageCursors } from './google-calendar.pages.ts';
import { createPush } from './google-calendar.push.ts';
import { CalendarStore } from './google-calendar.store.ts';
import { registerTokenRoutes } from './google-calendar.token-routes.ts';
import { registerWatchRoutes } from './google-calendar.watch-routes.ts';

export type GoogleCalendarClient = GoogleOAuthClient;

export type GoogleCalendarEmulatorOptions = EmulatorFactoryOptions & {
  clients: readonly GoogleCalendarClient[];
  /** Default 3599, as Google's access tokens. */
  accessTokenLifetimeSeconds?: number;
  /** Time zone of the calendars seeded for a new account; default `Europe/Berlin`. */
  defaultTimeZone?: string;
  /** Longest (and default) watch-channel life; default 7 days. */
  channelMaxLifetimeSeconds?: number;
  /** Push delivery retries after a failed attempt (default 3) and the first backoff (default 1000 ms). */
  notificationRetries?: number;
  notificationRetryBaseDelayMs?: number;
};

const WEEK_SECONDS = 7 * 24 * 3600;

/**
 * Google Calendar API v3 with its own OAuth consent (calendar scopes): calendarList, calendars (get,
 * insert, patch, update, delete), colors, events with sync tokens, watch channels with push
 * notifications, freebusy.query. Serves www.googleapis.com, accounts.google.com and
 * oauth2.googleapis.com paths on one origin. Not listening yet.
 */
export async function createGoogleCalendarEmulator(
  options: GoogleCalendarEmulatorOptions,
): Promise<FastifyInstance> {
  const app = Fastify({ logger: options.logger ?? false, forceCloseConnections: true });
  await app.register(formbody);
  acceptEmptyJsonBodies(app, () => Object.assign(new Error('Parse Error'), { statusCode: 400 }));

  const store = new CalendarStore(options.defaultTimeZone ?? 'Europe/Berlin');
  const oauth = new GoogleOAuth(options.accessTokenLifetimeSeconds ?? 3599);
  const channels = new ChannelStore();
  const cursors = new PageCursors<unknown>();
  const notifier = createNotifier({
    retries: options.notificationRetries ?? 3,
    retryBaseDelayMs: options.notificationRetryBaseDelayMs ?? 1000,
    timeoutMs: 10_000,
    // Google retries a push only on 5xx (docs/provider-facts.md §1); a 4xx is final.
    retryOn: retryOnServerErrors,
  });
  const push = createPush(notifier, channels);
  store.onChange((calendar, state) => push.changed(calendar, state));
  const clients = new Map(options.clients.map((client) => [client.clientId, client]));

  const counter = countRequests(app);
  const faults = installFaults(app, { errorBody: faultErrorBody });
  installUnknownFields(app);
  app.setErrorHandler((error: FastifyError, _request, reply) => {
    if (error instanceof GoogleApiError)
      return reply.code(error.status).headers(error.headers).send(error.body());
    const status = error.statusCode ?? 500;
    if (status < 500) {
      const parse =
        error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ? 'Unsupported media type' : 'Parse Error';
      return reply
        .code(status)
        .send(googleErrorBody(status, parse, [{ domain: 'global', reason: 'parseError', message: parse }]));
    }
    reply.log.error(error);
    return reply
      .code(500)
      .send(
        googleErrorBody(500, 'Backend Error', [
          { domain: 'global', reason: 'backendError', message: 'Backend Error' },
        ]),
      );
  });
  app.setNotFoundHandler((_request, reply) => reply.code(404).send(errors.notFound().body()));

  registerConsentRoutes(app, { oauth, calendars: store, clients });
  registerTokenRoutes(app, { oauth, clients });
  registerEventPage(app, store);
  const context: ApiContext = {
    store,
    cursors,
    channels,
    push,
    getOrigin: options.getOrigin,
    channelMaxLifetimeMs: (options.channelMaxLifetimeSeconds ?? WEEK_SECONDS) * 1000,
  };
  await app.register(
    async (api) => {
      installApiAuth(api, oauth);
      registerCalendarRoutes(api, context);
      registerCalendarWriteRoutes(api, context);
      registerEventListRoutes(api, context);
      registerEventRoutes(api, context);
      registerWatchRoutes(api, context);
      registerFreeBusyRoutes(api, context);
    },
    { prefix: '/calendar/v3' },
  );
  registerControlRoutes(app, {
    store,
    oauth,
    channels,
    cursors,
    notifier,
    faults,
    counter,
    clients: options.clients,
  });
  app.addHook('onClose', async () => notifier.reset());

  return app;
}
