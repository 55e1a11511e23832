import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { LABEL_COLORS } from '#shared/settings/constants.ts';
import type { FaultController } from '../shared/faults.ts';
import { type Notifier, registerNotificationControls } from '../shared/notifier.ts';
import type { RequestCounter } from '../shared/request-counter.ts';
import { isTimeZone } from '../shared/wall-clock.ts';
import { ALL_SCOPES } from './todoist.accounts.ts';
import { dueContext, type TodoistContext } from './todoist.context.ts';
import type { LabelOperations } from './todoist.label-operations.ts';
import { restLabelWire, taskWire } from './todoist.mappers.ts';
import { PREMIUM_STATUSES, type UserRecord } from './todoist.records.ts';
import { createTaskBody, restTaskFields } from './todoist.rest-schemas.ts';
import { syncLimitsSchema } from './todoist.sync-limits.ts';
import type { TaskOperations } from './todoist.task-operations.ts';
import { parseWith } from './todoist.validation.ts';
import { WEBHOOK_EVENTS } from './todoist.webhooks.ts';
import { PLAIN_WIRE_FORMS } from './todoist.wire-forms.ts';

const timeZone = z.string().refine(isTimeZone, 'Unknown IANA time zone');
const userSettings = z.object({
  name: z.string().optional(),
  premiumStatus: z.enum(PREMIUM_STATUSES).optional(),
  timezone: timeZone.optional(),
});
const seedSchema = z.object({
  users: z.array(
    userSettings.extend({
      email: z.email(),
      /** Authorize the app (an OAuth token, webhooks flow); otherwise only a personal token. */
      authorize: z.boolean().default(true),
      scopes: z.array(z.string()).default(['data:read_write', 'data:delete']),
      projects: z.array(z.object({ name: z.string().min(1) })).default([]),
      labels: z
        .array(
          z.object({
            name: z.string().min(1),
            color: z.enum(LABEL_COLORS).optional(),
            isFavorite: z.boolean().optional(),
          }),
        )
        .default([]),
      tasks: z.array(z.unknown()).default([]),
    }),
  ),
});
const webhookSchema = z.object({
  url: z.url().nullable().optional(),
  events: z.array(z.enum(WEBHOOK_EVENTS)).optional(),
  /** Also restore this URL on `POST /_emulator/reset` (how `startEmulators` wires the sandbox app). */
  keepOnReset: z.boolean().optional(),
});
const wireFormsSchema = z.object({
  dueFractionalSeconds: z.boolean().optional(),
  /** The shape of the ids made from now on (todoist.store.ts `IdShape`). */
  idShape: z.enum(['letters', 'digits']).optional(),
});
const expireSchema = z.object({ mode: z.enum(['full-sync', 'error']).optional() });

type Parts = {
  tasks: TaskOperations;
  labels: LabelOperations;
  notifier: Notifier;
  faults: FaultController;
  counter: RequestCounter;
};

export function registerControlRoutes(app: FastifyInstance, context: TodoistContext, parts: Parts): void {
  const { store, accounts, webhooks, clock } = context;
  const { notifier } = parts;

  function applySettings(user: UserRecord, settings: z.infer<typeof userSettings>): void {
    if (settings.name) user.fullName = settings.name;
    if (settings.premiumStatus) user.premiumStatus = settings.premiumStatus;
    if (settings.timezone) user.timeZone = settings.timezone;
    store.touch(user);
  }

  const findUser = (idOrEmail: string) => store.findUser(idOrEmail);

  app.get('/_emulator/state', async () => ({
    app: { clientId: context.app.clientId, redirectUri: context.app.redirectUri ?? null },
    ...store.snapshot(),
    ...accounts.snapshot(),
    webhook: webhooks.settings(),
    deliveries: notifier.deliveries(),
    requests: parts.counter.counts(),
  }));

  app.post('/_emulator/limits', async (request) => {
    context.syncLimits.set(parseWith(syncLimitsSchema, request.body));
    return context.syncLimits.limits();
  });
  app.delete('/_emulator/limits', async () => {
    context.syncLimits.reset();
    return context.syncLimits.limits();
  });

  // The documented forms the wire is written in (todoist.wire-forms.ts); reset writes the plain ones.
  app.post('/_emulator/forms', async (request) => {
    const { idShape, ...wire } = parseWith(wireFormsSchema, request.body);
    Object.assign(context.wire, wire);
    if (idShape) store.idShape = idShape;
    return { ...context.wire, idShape: store.idShape };
  });

  app.post('/_emulator/reset', async () => {
    store.reset();
    context.syncLimits.reset();
    Object.assign(context.wire, PLAIN_WIRE_FORMS);
    accounts.reset();
    webhooks.reset();
    notifier.reset();
    parts.faults.clear();
    context.commandFaults.clear();
    parts.counter.reset();
    return { reset: true };
  });

  app.post('/_emulator/seed', async (request) => {
    const seed = parseWith(seedSchema, request.body);
    const users = webhooks.muted(() =>
      seed.users.map((entry) => {
        const user = store.upsertUser(entry.email, entry.name ?? '', clock.stamp());
        applySettings(user, entry);
        for (const project of entry.projects) store.addProject(user.id, project.name, clock.stamp());
        const labels = entry.labels.map((label) => parts.labels.add(user, label));
        const tasks = entry.tasks.map((body) =>
          parts.tasks.add(user, restTaskFields(parseWith(createTaskBody, body), dueContext(context, user))),
        );
        const scopes = entry.scopes.filter((scope) => ALL_SCOPES.includes(scope));
        return {
          id: user.id,
          email: user.email,
          fullName: user.fullName,
          inboxProjectId: user.inboxProjectId,
          projects: store.userProjects(user.id).map((project) => ({ id: project.id, name: project.name })),
          accessToken: entry.authorize
            ? accounts.issueToken({ userId: user.id, kind: 'oauth', clientId: context.app.clientId, scopes })
            : null,
          personalToken: accounts.personalToken(user.id),
          labels: labels.map(restLabelWire),
          tasks: tasks.map((task) => taskWire(task)),
        };
      }),
    );
    return { users };
  });

  app.post<{ Params: { user: string } }>('/_emulator/users/:user', async (request, reply) => {
    const user = findUser(request.params.user);
    if (!user) return reply.code(404).send({ error: 'unknown user' });
    applySettings(user, parseWith(userSettings, request.body));
    return user;
  });

  /** Expires every sync token the user holds; the next incremental sync is answered per `mode`. */
  app.post<{ Params: { user: string } }>(
    '/_emulator/users/:user/expire-sync-tokens',
    async (request, reply) => {
      const user = findUser(request.params.user);
      if (!user) return reply.code(404).send({ error: 'unknown user' });
      const { mode } = parseWith(expireSchema, request.body);
      user.syncEpoch += 1;
      user.invalidSyncTokenMode = mode ?? 'full-sync';
      return { expired: true, mode: user.invalidSyncTokenMode };
    },
  );

  app.get('/_emulator/webhook', async () => webhooks.settings());
  app.post('/_emulator/webhook', async (request) => {
    const { keepOnReset, ...settings } = parseWith(webhookSchema, request.body);
    webhooks.configure(settings, keepOnReset);
    return webhooks.settings();
  });

  registerNotificationControls(app, notifier);
}
