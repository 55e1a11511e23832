import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { SettingsService } from '#server/domain/settings/settings.service.ts';
import type { AccountReader } from '#server/domain/users/account.repository.ts';
import { AppError } from '#server/errors.ts';
import {
  addTimeboxSchema,
  booleanSettingSchema,
  calendarCategorySchema,
  calendarColorSchema,
  calendarIdSchema,
  calendarPrivateSchema,
  editTimeboxSchema,
  labelParamSchema,
  onCompleteSchema,
  reminderSchema,
  taskDurationActiveSchema,
  taskDurationLabelSchema,
  todoistLinkDescriptionSchema,
  wizardSeenSchema,
} from '#shared/settings/settings.schema.ts';

type Options = { settings: SettingsService; accounts: AccountReader };

/** Spec §7 settings calls; each validates its payload, applies the rules, and returns the updated user. */
export async function settingsRoutes(app: FastifyInstance, { settings, accounts }: Options) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const updated = async (userId: string) => {
    const user = await accounts.currentUser(userId);
    if (!user) throw new AppError('unauthorized', 'Please log in to access your account.');
    return user;
  };

  routes.post('/api/timeboxsettings', { schema: { body: addTimeboxSchema } }, async (request) => {
    const userId = await request.requireUserId();
    await settings.addTimebox(userId, request.body.label, request.body.duration);
    return updated(userId);
  });
  routes.patch('/api/timeboxsettings', { schema: { body: editTimeboxSchema } }, async (request) => {
    const userId = await request.requireUserId();
    const { label, newLabel, duration } = request.body;
    await settings.editTimebox(userId, label, newLabel, duration);
    return updated(userId);
  });
  routes.delete('/api/timeboxsettings/:label', { schema: { params: labelParamSchema } }, async (request) => {
    const userId = await request.requireUserId();
    await settings.deleteTimebox(userId, request.params.label);
    return updated(userId);
  });

  routes.patch(
    '/api/taskdurationsettings/active',
    { schema: { body: taskDurationActiveSchema } },
    async (request) => {
      const userId = await request.requireUserId();
      await settings.setTaskDurationActive(userId, request.body.active);
      return updated(userId);
    },
  );
  routes.patch(
    '/api/taskdurationsettings/label',
    { schema: { body: taskDurationLabelSchema } },
    async (request) => {
      const userId = await request.requireUserId();
      await settings.setTaskDurationLabel(userId, request.body.label);
      return updated(userId);
    },
  );

  routes.patch('/api/calendar/id', { schema: { body: calendarIdSchema } }, async (request) => {
    const userId = await request.requireUserId();
    await settings.setCalendarId(userId, request.body.calendarId);
    return updated(userId);
  });
  routes.patch('/api/calendar/color', { schema: { body: calendarColorSchema } }, async (request) => {
    const userId = await request.requireUserId();
    await settings.setColor(userId, request.body.color);
    return updated(userId);
  });
  routes.patch('/api/calendar/category', { schema: { body: calendarCategorySchema } }, async (request) => {
    const userId = await request.requireUserId();
    await settings.setCategory(userId, request.body.category);
    return updated(userId);
  });
  routes.patch('/api/calendar/private', { schema: { body: calendarPrivateSchema } }, async (request) => {
    const userId = await request.requireUserId();
    await settings.setPrivate(userId, request.body.private);
    return updated(userId);
  });
  routes.patch(
    '/api/calendar/todoistlinkdescription',
    { schema: { body: todoistLinkDescriptionSchema } },
    async (request) => {
      const userId = await request.requireUserId();
      await settings.setTodoistLinkDescription(userId, request.body.todoistLinkDescription);
      return updated(userId);
    },
  );
  routes.patch('/api/calendar/reminder', { schema: { body: reminderSchema } }, async (request) => {
    const userId = await request.requireUserId();
    await settings.setReminder(userId, request.body.reminder);
    return updated(userId);
  });

  routes.patch('/api/settings/oncomplete', { schema: { body: onCompleteSchema } }, async (request) => {
    const userId = await request.requireUserId();
    await settings.setOnComplete(userId, request.body.setting);
    return updated(userId);
  });
  routes.patch('/api/settings/onprecomplete', { schema: { body: booleanSettingSchema } }, async (request) => {
    const userId = await request.requireUserId();
    await settings.setOnPreComplete(userId, request.body.setting);
    return updated(userId);
  });
  routes.patch('/api/settings/onsyncactive', { schema: { body: booleanSettingSchema } }, async (request) => {
    const userId = await request.requireUserId();
    await settings.setSyncActive(userId, request.body.setting);
    return updated(userId);
  });
  routes.patch('/api/welcome/onwizardseen', { schema: { body: wizardSeenSchema } }, async (request) => {
    const userId = await request.requireUserId();
    await settings.setWizardSeen(userId, request.body.wizardSeen);
    return updated(userId);
  });
}
