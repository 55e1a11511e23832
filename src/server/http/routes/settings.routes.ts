import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { SettingsService } from '#server/domain/settings/settings.service.ts';
import type { AccountReader } from '#server/domain/users/account.reader.ts';
import { contract } from '#shared/api/contract.ts';
import { fromContract, userViewReader } from './contract-route.ts';

type Options = { settings: SettingsService; accounts: AccountReader };

const { timeboxes, taskDuration, calendar, settings: switches, user } = contract;

/**
 * The settings calls of docs/product-rules.md §7; each validates its payload, applies the rules, and returns
 * the updated user.
 */
export async function settingsRoutes(app: FastifyInstance, { settings, accounts }: Options) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const updated = userViewReader(accounts);

  routes.route({
    ...fromContract(timeboxes.add),
    handler: async (request) => {
      const userId = await request.requireUserId();
      await settings.addTimebox(userId, request.body.label, request.body.duration);
      return updated(userId);
    },
  });
  routes.route({
    ...fromContract(timeboxes.edit),
    handler: async (request) => {
      const userId = await request.requireUserId();
      const { label, newLabel, duration } = request.body;
      await settings.editTimebox(userId, label, newLabel, duration);
      return updated(userId);
    },
  });
  routes.route({
    ...fromContract(timeboxes.delete),
    handler: async (request) => {
      const userId = await request.requireUserId();
      await settings.deleteTimebox(userId, request.params.label);
      return updated(userId);
    },
  });

  routes.route({
    ...fromContract(taskDuration.setActive),
    handler: async (request) => {
      const userId = await request.requireUserId();
      await settings.setTaskDurationActive(userId, request.body.active);
      return updated(userId);
    },
  });
  routes.route({
    ...fromContract(taskDuration.setLabel),
    handler: async (request) => {
      const userId = await request.requireUserId();
      await settings.setTaskDurationLabel(userId, request.body.label);
      return updated(userId);
    },
  });

  routes.route({
    ...fromContract(calendar.setCalendar),
    handler: async (request) => {
      const userId = await request.requireUserId();
      await settings.setCalendarId(userId, request.body.calendarId);
      return updated(userId);
    },
  });
  routes.route({
    ...fromContract(calendar.setColor),
    handler: async (request) => {
      const userId = await request.requireUserId();
      await settings.setColor(userId, request.body.color);
      return updated(userId);
    },
  });
  routes.route({
    ...fromContract(calendar.setCategory),
    handler: async (request) => {
      const userId = await request.requireUserId();
      await settings.setCategory(userId, request.body.category);
      return updated(userId);
    },
  });
  routes.route({
    ...fromContract(calendar.setPrivate),
    handler: async (request) => {
      const userId = await request.requireUserId();
      await settings.setPrivate(userId, request.body.private);
      return updated(userId);
    },
  });
  routes.route({
    ...fromContract(calendar.setTodoistLink),
    handler: async (request) => {
      const userId = await request.requireUserId();
      await settings.setTodoistLinkDescription(userId, request.body.todoistLinkDescription);
      return updated(userId);
    },
  });
  routes.route({
    ...fromContract(calendar.setReminder),
    handler: async (request) => {
      const userId = await request.requireUserId();
      await settings.setReminder(userId, request.body.reminder);
      return updated(userId);
    },
  });
  routes.route({
    ...fromContract(switches.setAutoplan),
    handler: async (request) => {
      const userId = await request.requireUserId();
      await settings.setAutoplan(userId, request.body);
      return updated(userId);
    },
  });

  routes.route({
    ...fromContract(switches.setProjectScope),
    handler: async (request) => {
      const userId = await request.requireUserId();
      await settings.setProjectScope(userId, request.body);
      return updated(userId);
    },
  });
  routes.route({
    ...fromContract(switches.setEventProject),
    handler: async (request) => {
      const userId = await request.requireUserId();
      await settings.setEventProject(userId, request.body.projectId);
      return updated(userId);
    },
  });
  routes.route({
    ...fromContract(switches.setDatedTasks),
    handler: async (request) => {
      const userId = await request.requireUserId();
      await settings.setDatedTasks(userId, request.body.setting);
      return updated(userId);
    },
  });

  routes.route({
    ...fromContract(switches.setOnComplete),
    handler: async (request) => {
      const userId = await request.requireUserId();
      await settings.setOnComplete(userId, request.body.setting);
      return updated(userId);
    },
  });
  routes.route({
    ...fromContract(switches.setOnPreComplete),
    handler: async (request) => {
      const userId = await request.requireUserId();
      await settings.setOnPreComplete(userId, request.body.setting);
      return updated(userId);
    },
  });
  routes.route({
    ...fromContract(switches.setSyncActive),
    handler: async (request) => {
      const userId = await request.requireUserId();
      await settings.setSyncActive(userId, request.body.setting);
      return updated(userId);
    },
  });
  routes.route({
    ...fromContract(user.setWizardSeen),
    handler: async (request) => {
      const userId = await request.requireUserId();
      await settings.setWizardSeen(userId, request.body.wizardSeen);
      return updated(userId);
    },
  });
  routes.route({
    ...fromContract(user.setNotices),
    handler: async (request) => {
      const userId = await request.requireUserId();
      await settings.setNotices(userId, request.body);
      return updated(userId);
    },
  });
}
