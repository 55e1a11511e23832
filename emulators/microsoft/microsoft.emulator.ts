import { randomUUID } from 'node:crypto';
import formbody from '@fastify/formbody';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import type { EmulatorFactoryOptions } from '../shared/emulator-options.ts';
import { installFaults } from '../shared/faults.ts';
import { acceptEmptyJsonBodies } from '../shared/json-bodies.ts';
import { createNotifier, type NotifierOptions, type OutgoingNotification } from '../shared/notifier.ts';
import { countRequests } from '../shared/request-counter.ts';
import { installUnknownFields } from '../shared/unknown-fields.ts';
import { registerAuthorizeRoutes } from './microsoft.authorize-routes.ts';
import { registerCategoryRoutes } from './microsoft.category-routes.ts';
import { DEFAULT_CERTIFICATE_DIR, ensureLocalCertificate } from './microsoft.certificate.ts';
import { registerControlRoutes } from './microsoft.control-routes.ts';
import { registerDeltaRoutes } from './microsoft.delta-routes.ts';
import { DeltaStore } from './microsoft.delta-store.ts';
import { faultErrorBody, GraphError, sendGraphError } from './microsoft.errors.ts';
import { registerEventRoutes } from './microsoft.event-routes.ts';
import { EventStore } from './microsoft.event-store.ts';
import { installGraphAuth } from './microsoft.graph-auth.ts';
import { IdentityStore } from './microsoft.identity-store.ts';
import { MailboxStore } from './microsoft.mailbox-store.ts';
import { registerMeRoutes } from './microsoft.me-routes.ts';
import { changeNotificationSubscription, notifyEventChanges } from './microsoft.notifications.ts';
import { registerScheduleRoutes } from './microsoft.schedule-routes.ts';
import {
  createSubscriptionLifecycle,
  type SubscriptionLifecycle,
} from './microsoft.subscription-lifecycle.ts';
import { registerSubscriptionRoutes } from './microsoft.subscription-routes.ts';
import { SubscriptionStore } from './microsoft.subscription-store.ts';
import { registerTokenRoutes } from './microsoft.token-routes.ts';
import type { HandshakeRecord } from './microsoft.validation-handshake.ts';

export type MicrosoftClient = {
  clientId: string;
  /** Absent for a public client (PKCE only). */
  clientSecret?: string;
  /** Shown on the consent page; defaults to the client id. */
  name?: string;
  /** When given, authorize requests must use one of these exactly (AADSTS50011 otherwise). */
  redirectUris?: readonly string[];
};

export type MicrosoftEmulatorOptions = EmulatorFactoryOptions & {
  clients: readonly MicrosoftClient[];
  /** Server key and certificate (PEM). When absent, `certificateDir` (default `.data/certs`) is used. */
  tls?: { key: string; cert: string };
  certificateDir?: string;
  /** Mailbox time zone of new users (default `UTC`). */
  defaultTimeZone?: string;
  /** Longest subscription lifetime for Outlook events (default 10,080 minutes). */
  maxSubscriptionMinutes?: number;
  /** How long the validation handshake may take (default 10 s, as Graph). */
  validationTimeoutMs?: number;
  /** Change and lifecycle notification delivery (defaults: 3 retries, 1 s base delay, 3 s timeout). */
  notifications?: Partial<NotifierOptions>;
  /** How long a repeated create's transactionId returns the first event (default 5 minutes). */
  transactionIdWindowSeconds?: number;
  /** How long before expiry `reauthorizationRequired` goes out by itself (default 10 minutes). */
  reauthorizationLeadSeconds?: number;
};

const INVALID_JSON =
  'Unable to read JSON request payload. Please ensure Content-Type header is set and payload is of valid JSON format.';

/** Behaviour a test may switch at runtime (`POST /_emulator/settings`); reset restores the defaults. */
export type GraphSettings = {
  transactionIdWindowMs: number;
  /** Applies to subscriptions created or renewed after it changes. */
  reauthorizationLeadMs: number;
  /** Delta sends an updated event as its id, etag, changeKey and changed properties only. */
  deltaChangedPropertiesOnly: boolean;
};

export type GraphContext = {
  mailboxes: MailboxStore;
  events: EventStore;
  deltas: DeltaStore;
  subscriptions: SubscriptionStore;
  lifecycle: SubscriptionLifecycle;
  settings: GraphSettings;
  defaultSettings: Readonly<GraphSettings>;
  handshakes: HandshakeRecord[];
  getOrigin: () => string;
  maxSubscriptionMinutes: number;
  validationTimeoutMs: number;
};

/**
 * Microsoft 365: the identity platform's OAuth v2 endpoints under `/{tenant}/oauth2/v2.0/` and a Graph
 * v1.0 calendar subset under `/v1.0/`, served over HTTPS (the Graph SDK sends tokens only to https
 * URLs). Not listening yet; `getOrigin()` must return `https://localhost:PORT`.
 */
export async function createMicrosoftEmulator(options: MicrosoftEmulatorOptions): Promise<FastifyInstance> {
  const tls =
    options.tls ?? (await ensureLocalCertificate(options.certificateDir ?? DEFAULT_CERTIFICATE_DIR));
  const app = Fastify({
    logger: options.logger ?? false,
    forceCloseConnections: true,
    https: { key: tls.key, cert: tls.cert },
    genReqId: () => randomUUID(),
    // Exchange ids run to 150+ characters; Fastify's default limit (100) would answer 414.
    routerOptions: { maxParamLength: 1000 },
  }) as unknown as FastifyInstance;
  await app.register(formbody);

  // Counted first, so throttled and failed requests count too.
  const counter = countRequests(app);
  const faults = installFaults(app, { errorBody: faultErrorBody });
  installUnknownFields(app);
  const identity = new IdentityStore();
  const subscriptions = new SubscriptionStore();
  // Graph retries a failed delivery for a while, then drops it and tells the lifecycle URL `missed`.
  const missed = (notification: OutgoingNotification) => {
    const subscriptionId = changeNotificationSubscription(notification.body);
    if (subscriptionId) lifecycle.missed(subscriptionId);
  };
  const notifier = createNotifier({
    retries: 3,
    retryBaseDelayMs: 1000,
    timeoutMs: 3000,
    onGiveUp: missed,
    ...options.notifications,
  });
  const lifecycle = createSubscriptionLifecycle({
    subscriptions,
    notifier,
    reauthorizationLeadMs: () => context.settings.reauthorizationLeadMs,
  });
  const defaultSettings: GraphSettings = {
    transactionIdWindowMs: (options.transactionIdWindowSeconds ?? 300) * 1000,
    reauthorizationLeadMs: (options.reauthorizationLeadSeconds ?? 600) * 1000,
    deltaChangedPropertiesOnly: false,
  };
  const context: GraphContext = {
    mailboxes: new MailboxStore(options.defaultTimeZone ?? 'UTC'),
    events: new EventStore(),
    deltas: new DeltaStore(),
    subscriptions,
    lifecycle,
    settings: { ...defaultSettings },
    defaultSettings,
    handshakes: [],
    getOrigin: options.getOrigin,
    maxSubscriptionMinutes: options.maxSubscriptionMinutes ?? 10_080,
    validationTimeoutMs: options.validationTimeoutMs ?? 10_000,
  };
  notifyEventChanges(context.events, context.subscriptions, notifier);
  const clients = new Map(options.clients.map((client) => [client.clientId, client]));

  registerAuthorizeRoutes(app, { identity, mailboxes: context.mailboxes, clients });
  registerTokenRoutes(app, { identity, clients });

  await app.register(
    async (graph) => {
      graph.addHook('onSend', async (request, reply) => {
        const clientRequestId = request.headers['client-request-id'];
        reply.header('request-id', request.id);
        reply.header('client-request-id', typeof clientRequestId === 'string' ? clientRequestId : request.id);
      });
      installGraphAuth(graph, identity, context.mailboxes);
      // The SDK's body-less POSTs (reauthorize) still say `Content-Type: application/json`, as Graph takes.
      acceptEmptyJsonBodies(graph, () => new GraphError(400, 'BadRequest', INVALID_JSON));
      graph.setErrorHandler((error: FastifyError, request, reply) => {
        if (error instanceof GraphError) return sendGraphError(reply, error);
        if (error.statusCode !== undefined && error.statusCode < 500) {
          return sendGraphError(reply, new GraphError(400, 'BadRequest', INVALID_JSON));
        }
        request.log.error(error);
        return sendGraphError(
          reply,
          new GraphError(500, 'InternalServerError', 'An internal server error occurred.'),
        );
      });
      graph.setNotFoundHandler((request, reply) => {
        const segment = request.url.split('?')[0]?.split('/').filter(Boolean).at(-1) ?? '';
        return sendGraphError(
          reply,
          new GraphError(400, 'BadRequest', `Resource not found for the segment '${segment}'.`),
        );
      });
      registerMeRoutes(graph, context);
      registerCategoryRoutes(graph, context);
      registerEventRoutes(graph, context);
      registerDeltaRoutes(graph, context);
      registerScheduleRoutes(graph, context);
      registerSubscriptionRoutes(graph, context);
    },
    { prefix: '/v1.0' },
  );

  registerControlRoutes(app, { ...context, identity, notifier, faults, counter, clients: options.clients });
  app.addHook('onClose', async () => lifecycle.reset());
  return app;
}
