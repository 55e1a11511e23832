import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import type { EmulatorFactoryOptions } from '../shared/emulator-options.ts';
import { installFaults } from '../shared/faults.ts';
import { acceptEmptyJsonBodies } from '../shared/json-bodies.ts';
import { createNotifier, type NotifierOptions } from '../shared/notifier.ts';
import { countRequests } from '../shared/request-counter.ts';
import { installUnknownFields } from '../shared/unknown-fields.ts';
import { TodoistAccounts } from './todoist.accounts.ts';
import { registerCommandFaults } from './todoist.command-faults.ts';
import type { TodoistApp, TodoistContext } from './todoist.context.ts';
import { registerControlRoutes } from './todoist.control-routes.ts';
import { errors, faultErrorBody, sendError, TodoistError } from './todoist.errors.ts';
import { createLabelOperations } from './todoist.label-operations.ts';
import { registerLabelRoutes } from './todoist.label-routes.ts';
import { registerOAuthRoutes } from './todoist.oauth-routes.ts';
import { createProjectOperations } from './todoist.project-operations.ts';
import { registerProjectRoutes } from './todoist.project-routes.ts';
import { TodoistStore } from './todoist.store.ts';
import { createSyncLimiter } from './todoist.sync-limits.ts';
import { registerSyncRoutes } from './todoist.sync-routes.ts';
import { createTaskOperations } from './todoist.task-operations.ts';
import { registerTaskRoutes } from './todoist.task-routes.ts';
import { createClock } from './todoist.time.ts';
import { registerUserRoutes } from './todoist.user-routes.ts';
import { createWebhookEmitter, webhookDelivery } from './todoist.webhooks.ts';
import { PLAIN_WIRE_FORMS } from './todoist.wire-forms.ts';

export type { TodoistApp } from './todoist.context.ts';

export type TodoistEmulatorOptions = EmulatorFactoryOptions & {
  app: TodoistApp;
  /** The app's webhook callback URL (also settable through `POST /_emulator/webhook`). */
  webhookUrl?: string;
  /** Extra delivery attempts after a failed webhook; default 3, as Todoist. */
  webhookRetries?: number;
  /**
   * The wait before each retry of a failed webhook; default 900 (Todoist's 15 minutes). Tests and the
   * sandbox scale it down (`TODOIST_WEBHOOK_RETRY_SECONDS`).
   */
  webhookRetrySeconds?: number;
  /** How the webhooks' retries wait (a test's recorder); default real timers. */
  webhookSleep?: NotifierOptions['sleep'];
  /** The emulator's clock (what "today" and "now" mean for due dates); default the system clock. */
  now?: () => Date;
  /** Time zone of a new account (from the consent page, or seeded without one); default `UTC`. */
  defaultTimeZone?: string;
};

/**
 * Todoist API v1 (REST subset, `/sync`), its OAuth pages and app webhooks, on one origin: point the SDK
 * at it with `new TodoistApi(token, { baseUrl: origin })` and the auth helpers with `{ baseUrl: origin }`.
 * REST: `/user`; `/tasks` (list, get, create, update, close, reopen, move, delete, completed by
 * completion date); `/labels` (list, get, create, update, delete); `/projects` (list, archived, get,
 * create, update, archive, unarchive, delete). `/sync` reads `items`, `labels`, `projects`, `user`
 * (others answer empty) and runs `item_add|update|close|complete|uncomplete|update_date_complete|
 * complete_undo|move|delete`, `label_add|update|rename|delete` and `project_add|update|move|archive|
 * unarchive|delete`. Webhooks: `item:*`, `label:*`, `project:*`. Faults: HTTP rules (`/_emulator/faults`)
 * and Sync commands refused one by one (`/_emulator/command-faults`).
 */
export async function createTodoistEmulator(options: TodoistEmulatorOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger: options.logger ?? false, forceCloseConnections: true });
  await app.register(formbody);
  acceptEmptyJsonBodies(app, () => errors.invalid('body', 'The request body is not valid JSON'));

  const counter = countRequests(app);
  const faults = installFaults(app, { errorBody: faultErrorBody });
  const unknownFields = installUnknownFields(app);
  // Keep `error_extra.retry_after` in an injected 429 equal to its Retry-After header.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (reply.statusCode !== 429 || typeof payload !== 'string') return payload;
    const retryAfter = Number(reply.getHeader('retry-after'));
    try {
      const body = JSON.parse(payload) as { error_extra?: Record<string, unknown> };
      if (!body.error_extra || !Number.isFinite(retryAfter)) return payload;
      body.error_extra.retry_after = retryAfter;
      return JSON.stringify(body);
    } catch {
      return payload;
    }
  });

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof TodoistError) return sendError(reply, error);
    const status = (error as { statusCode?: number }).statusCode;
    if (status !== undefined && status >= 400 && status < 500) {
      return sendError(reply, errors.invalid('body', (error as Error).message));
    }
    request.log.error(error);
    return reply.code(500).send(faultErrorBody(500));
  });
  app.setNotFoundHandler((_request, reply) => reply.code(404).send(faultErrorBody(404)));

  const store = new TodoistStore(options.defaultTimeZone);
  const accounts = new TodoistAccounts();
  const notifier = createNotifier({
    ...webhookDelivery(options.webhookRetrySeconds, options.webhookRetries),
    ...(options.webhookSleep ? { sleep: options.webhookSleep } : {}),
  });
  const context: TodoistContext = {
    app: options.app,
    store,
    accounts,
    clock: createClock(options.now),
    webhooks: createWebhookEmitter({
      clientId: options.app.clientId,
      clientSecret: options.app.clientSecret,
      accounts,
      notifier,
      url: options.webhookUrl,
      unknownFields: unknownFields.isOn,
    }),
    syncLimits: createSyncLimiter(),
    wire: { ...PLAIN_WIRE_FORMS },
    commandFaults: registerCommandFaults(app),
  };
  const tasks = createTaskOperations(context);
  const labels = createLabelOperations(context, tasks);
  const projects = createProjectOperations(context);

  registerOAuthRoutes(app, context);
  registerUserRoutes(app, context);
  registerTaskRoutes(app, context, tasks);
  registerLabelRoutes(app, context, labels);
  registerProjectRoutes(app, context, projects);
  registerSyncRoutes(app, context, { tasks, labels, projects });
  registerControlRoutes(app, context, { tasks, labels, notifier, faults, counter });

  return app;
}
