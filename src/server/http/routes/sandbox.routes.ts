import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AccountReader } from '#server/domain/users/account.repository.ts';
import { AppError } from '#server/errors.ts';
import type { SandboxConnections } from '#server/sandbox/sandbox-accounts.ts';
import type { SandboxConsole } from '#server/sandbox/sandbox-console.ts';
import type { CurrentUser } from '#shared/api/current-user.schema.ts';
import {
  type SandboxCalendarProvider,
  sandboxAccountQuerySchema,
  sandboxAccountsSchema,
  sandboxCalendarQuerySchema,
  sandboxCalendarSchema,
  sandboxEventInputSchema,
  sandboxTaskInputSchema,
  sandboxTodoistSchema,
} from '#shared/api/sandbox.schema.ts';

const idParams = z.object({ id: z.string().min(1).max(200) });
/**
 * Event ids travel as the rest of the path: Graph's ids of occurrences run past the router's 100
 * characters for a `:param`, which a wildcard does not count. The URLs are the same as with `:id`.
 */
const eventPath = '/api/sandbox/calendar/events/*';
const eventParams = z
  .object({ '*': z.string().min(1).max(1000) })
  .transform((params) => ({ id: params['*'] }));
const done = { ok: true } as const;
const serviceNames: Record<SandboxCalendarProvider, string> = {
  google: 'Google Calendar',
  microsoft: 'Microsoft 365',
};

const calendarProviders: Record<
  NonNullable<CurrentUser['calendarSettings']['provider']>,
  SandboxCalendarProvider
> = {
  'Google Calendar': 'google',
  Microsoft: 'microsoft',
};

/** The provider ids of what the user connected, as their view of the account names them. */
function connectionsOf({ todoSettings, calendarSettings }: CurrentUser): SandboxConnections {
  const { provider, calendars, calendarId } = calendarSettings;
  return {
    todoistUserId: todoSettings.connected ? todoSettings.userId : null,
    calendar:
      calendarSettings.connected && provider
        ? {
            provider: calendarProviders[provider],
            calendarIds: [...calendars.map((calendar) => calendar.id), ...(calendarId ? [calendarId] : [])],
            chosenCalendarId: calendarId,
          }
        : null,
  };
}

/** The sandbox console's API; registered only in sandbox mode, so it does not exist with real providers. */
export async function sandboxRoutes(
  app: FastifyInstance,
  { sandbox, accounts }: { sandbox: SandboxConsole; accounts: AccountReader },
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const upstream = async <T>(side: string, action: () => Promise<T>): Promise<T> => {
    try {
      return await action();
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      throw new AppError('upstream_error', `The emulated ${side} refused this: ${detail}`, { cause: error });
    }
  };

  routes.get(
    '/api/sandbox/accounts',
    { schema: { response: { 200: sandboxAccountsSchema } } },
    async (request) => {
      const userId = await request.signedInUserId();
      const user = userId ? await accounts.currentUser(userId) : null;
      if (!user) return { todoist: null, calendar: null };
      return upstream('providers', () => sandbox.accountsOf(connectionsOf(user)));
    },
  );

  routes.get(
    '/api/sandbox/todoist',
    { schema: { querystring: sandboxAccountQuerySchema, response: { 200: sandboxTodoistSchema } } },
    (request) => upstream('Todoist', () => sandbox.readTodoist(request.query.email)),
  );
  routes.post('/api/sandbox/todoist/tasks', { schema: { body: sandboxTaskInputSchema } }, async (request) => {
    await upstream('Todoist', () => sandbox.addTask(request.body));
    return done;
  });
  routes.patch(
    '/api/sandbox/todoist/tasks/:id',
    { schema: { params: idParams, body: sandboxTaskInputSchema } },
    async (request) => {
      await upstream('Todoist', () => sandbox.updateTask(request.params.id, request.body));
      return done;
    },
  );
  routes.post(
    '/api/sandbox/todoist/tasks/:id/close',
    { schema: { params: idParams, body: sandboxAccountQuerySchema } },
    async (request) => {
      await upstream('Todoist', () => sandbox.completeTask(request.body.email, request.params.id));
      return done;
    },
  );
  routes.delete(
    '/api/sandbox/todoist/tasks/:id',
    { schema: { params: idParams, querystring: sandboxAccountQuerySchema } },
    async (request) => {
      await upstream('Todoist', () => sandbox.deleteTask(request.query.email, request.params.id));
      return done;
    },
  );

  routes.get(
    '/api/sandbox/calendar',
    { schema: { querystring: sandboxCalendarQuerySchema, response: { 200: sandboxCalendarSchema } } },
    (request) => upstream(serviceNames[request.query.provider], () => sandbox.readCalendar(request.query)),
  );
  routes.post(
    '/api/sandbox/calendar/events',
    { schema: { body: sandboxEventInputSchema } },
    async (request) => {
      await upstream(serviceNames[request.body.provider], () => sandbox.addEvent(request.body));
      return done;
    },
  );
  routes.patch(
    eventPath,
    { schema: { params: eventParams, body: sandboxEventInputSchema } },
    async (request) => {
      const { params, body } = request;
      await upstream(serviceNames[body.provider], () => sandbox.updateEvent(params.id, body));
      return done;
    },
  );
  routes.delete(
    eventPath,
    {
      schema: { params: eventParams, querystring: sandboxCalendarQuerySchema.required({ calendarId: true }) },
    },
    async (request) => {
      const { email, calendarId, provider } = request.query;
      await upstream(serviceNames[provider], () =>
        sandbox.deleteEvent({ email, calendarId, provider, id: request.params.id }),
      );
      return done;
    },
  );
}
