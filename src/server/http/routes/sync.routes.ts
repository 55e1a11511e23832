import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '#server/errors.ts';
import type { ActivityNamesReader } from '#server/sync/inbound/activity-names.ts';
import type { SyncPreviewService } from '#server/sync/inbound/sync-preview.ts';
import { proposedChange } from '#server/sync/plan/change-effect.ts';
import type { SyncService, WebhookOutcome } from '#server/sync/sync.service.ts';
import { contract } from '#shared/api/contract.ts';
import { SYNC_PATHS } from '#shared/api/sync.schema.ts';
import { fromContract } from './contract-route.ts';

type Options = { sync: SyncService; preview: SyncPreviewService; names: ActivityNamesReader };

const STATUS_OF_OUTCOME: Record<WebhookOutcome, number> = {
  queued: 200,
  ignored: 200,
  rejected: 403,
  malformed: 400,
};
const statusOf = (outcome: WebhookOutcome) => STATUS_OF_OUTCOME[outcome];

/**
 * Sync activity and preview for the dashboard, and the providers' notifications. Notifications are
 * verified and queued, nothing else: providers want an answer within a few hundred milliseconds.
 */
export async function syncRoutes(app: FastifyInstance, { sync, preview, names }: Options) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.route({
    ...fromContract(contract.sync.activity),
    handler: async (request) => {
      const userId = await request.requireUserId();
      return sync.activity(userId);
    },
  });

  routes.route({
    ...fromContract(contract.sync.activityNames),
    handler: async (request) => {
      const userId = await request.requireUserId();
      return names.names(userId);
    },
  });

  routes.route({
    ...fromContract(contract.sync.chooseHeld),
    handler: async (request) => {
      const userId = await request.requireUserId();
      return sync.chooseHeld(userId, request.params.choice, request.body?.items);
    },
  });

  routes.route({
    ...fromContract(contract.sync.previewChange),
    handler: async (request) => {
      const userId = await request.requireUserId();
      const change = proposedChange(request.query);
      if (!change) throw new AppError('bad_request', 'The change to preview is incomplete.');
      const result = await preview.previewChange(userId, change);
      if (!result)
        throw new AppError('bad_request', 'Nothing is synced yet, so this change affects nothing synced.');
      return result;
    },
  });

  routes.route({
    ...fromContract(contract.sync.previewAutoplan),
    handler: async (request) => {
      const userId = await request.requireUserId();
      const result = await preview.previewAutoplan(userId);
      if (!result)
        throw new AppError(
          'bad_request',
          'Connect Todoist and a calendar, and choose a calendar, to plan your day.',
        );
      return result;
    },
  });

  routes.route({
    ...fromContract(contract.sync.dismissLeftBehind),
    handler: async (request) => {
      const userId = await request.requireUserId();
      return sync.dismissLeftBehind(userId);
    },
  });

  routes.route({
    ...fromContract(contract.sync.dismissOtherSync),
    handler: async (request) => {
      const userId = await request.requireUserId();
      return sync.dismissOtherSync(userId);
    },
  });

  routes.route({
    ...fromContract(contract.sync.preview),
    handler: async (request) => {
      const userId = await request.requireUserId();
      const result = await preview.preview(userId);
      if (!result)
        throw new AppError('bad_request', 'Connect Todoist and a calendar, and choose a calendar first.');
      return result;
    },
  });

  await app.register(async (webhooks) => {
    // Signatures are computed over the exact bytes sent, so JSON stays unparsed here.
    webhooks.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
      done(null, body),
    );
    webhooks.post(SYNC_PATHS.todoistWebhook, { config: { skipCsrf: true } }, async (request, reply) => {
      const signature = request.headers['x-todoist-hmac-sha256'];
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const outcome = await sync.todoistWebhook(body, typeof signature === 'string' ? signature : undefined);
      return reply.code(statusOf(outcome)).send({ outcome });
    });
    webhooks.post(SYNC_PATHS.googleWebhook, { config: { skipCsrf: true } }, async (request, reply) => {
      const header = (name: string) => {
        const value = request.headers[name];
        return typeof value === 'string' ? value : undefined;
      };
      // The first message of a channel ('sync') only says it exists; every other one is a nudge.
      const outcome =
        header('x-goog-resource-state') === 'sync'
          ? 'ignored'
          : await sync.calendarPush(header('x-goog-channel-id'), header('x-goog-channel-token'));
      return reply.code(statusOf(outcome)).send();
    });

    // Graph: a new subscription is confirmed by echoing validationToken as text/plain (within 10 s).
    for (const [path, lifecycle] of [
      [SYNC_PATHS.microsoftWebhook, false],
      [SYNC_PATHS.microsoftLifecycle, true],
    ] as const) {
      webhooks.post(path, { config: { skipCsrf: true } }, async (request, reply) => {
        const { validationToken } = request.query as { validationToken?: string };
        if (typeof validationToken === 'string') {
          return reply.code(200).type('text/plain').send(validationToken);
        }
        const body = Buffer.isBuffer(request.body) ? request.body.toString('utf8') : '';
        const outcome = await sync.graphNotifications(body, lifecycle);
        return reply.code(outcome === 'queued' || outcome === 'ignored' ? 202 : statusOf(outcome)).send();
      });
    }
  });
}
