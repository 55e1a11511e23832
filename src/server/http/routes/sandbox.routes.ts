import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { DomainError } from '#server/domain/shared/domain-errors.ts';
import type { AccountReader } from '#server/domain/users/account.reader.ts';
import { AppError } from '#server/errors.ts';
import type { SandboxConnections, SandboxSide } from '#server/sandbox/sandbox-accounts.ts';
import type { SandboxConsole } from '#server/sandbox/sandbox-console.ts';
import { INTEGRATION_KEY_OF } from '#shared/api/auth.schema.ts';
import { contract } from '#shared/api/contract.ts';
import type { CurrentUser } from '#shared/api/current-user.schema.ts';
import type { SandboxCalendarProvider } from '#shared/api/sandbox.schema.ts';
import { fromContract } from './contract-route.ts';

const { sandbox: calls } = contract;
const done = { ok: true } as const;
const serviceNames: Record<SandboxCalendarProvider, string> = {
  google: 'Google Calendar',
  microsoft: 'Microsoft 365',
};

/** Said when a call names an emulated account that is not the signed-in user's. */
export const NOT_YOUR_SANDBOX_ACCOUNT =
  'The sandbox console works only on your own emulated accounts: the ones you connected, and the one of your sign-in e-mail address.';

/** The provider ids of what the user connected, as their view of the account names them. */
function connectionsOf({ todoSettings, calendarSettings }: CurrentUser): SandboxConnections {
  const { provider, calendars, calendarId } = calendarSettings;
  return {
    todoistUserId: todoSettings.connected ? todoSettings.userId : null,
    calendar:
      calendarSettings.connected && provider
        ? {
            provider: INTEGRATION_KEY_OF[provider],
            calendarIds: [...calendars.map((calendar) => calendar.id), ...(calendarId ? [calendarId] : [])],
            chosenCalendarId: calendarId,
          }
        : null,
    others: calendarSettings.accounts
      .filter((account) => !account.sync)
      .map((account) => ({
        provider: account.provider,
        calendarIds: account.calendars.map((calendar) => calendar.id),
      })),
  };
}

/** The HTTP status a provider SDK's error carries (googleapis, Graph, Todoist each name it otherwise). */
function statusOf(error: unknown): number | null {
  if (typeof error !== 'object' || error === null) return null;
  const fields = error as Record<string, unknown> & { response?: { status?: unknown } };
  for (const candidate of [
    fields.status,
    fields.statusCode,
    fields.httpStatusCode,
    fields.response?.status,
  ]) {
    if (typeof candidate === 'number' && candidate >= 100 && candidate < 600) return candidate;
  }
  return null;
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
      // A refusal the console already put in the visitor's words (a label name taken) keeps its own status.
      if (error instanceof DomainError) throw error;
      const detail = error instanceof Error ? error.message : String(error);
      const message = `The emulated ${side} refused this: ${detail}`;
      // The emulator's own 4xx is about what the visitor asked for (an event that is not there); only
      // its 5xx or no answer at all is the emulator failing.
      const status = statusOf(error);
      if (status === 404 || status === 410) throw new AppError('not_found', message, { cause: error });
      if (status !== null && status >= 400 && status < 500) {
        throw new AppError('bad_request', message, { cause: error });
      }
      throw new AppError('upstream_error', message, { cause: error });
    }
  };

  /**
   * Every call that names an emulated account by e-mail acts only on the signed-in user's own: the
   * console is a way to use one's own Todoist and calendar, not to read or change anyone's.
   */
  const ownAccount = async (request: FastifyRequest, side: SandboxSide, email: string) => {
    const user = await accounts.currentUser(await request.requireUserId());
    const visitor = user && { email: user.email, connections: connectionsOf(user) };
    const owned = visitor ? await upstream('providers', () => sandbox.owns(visitor, side, email)) : false;
    if (!owned) throw new AppError('forbidden', NOT_YOUR_SANDBOX_ACCOUNT);
  };

  routes.route({
    ...fromContract(calls.inbox),
    handler: async (request) => {
      const userId = await request.requireUserId();
      const user = await accounts.currentUser(userId);
      if (!user) return { messages: [] };
      return upstream('mail server', () => sandbox.inbox(user.email));
    },
  });

  routes.route({
    ...fromContract(calls.accounts),
    handler: async (request) => {
      const userId = await request.signedInUserId();
      const user = userId ? await accounts.currentUser(userId) : null;
      if (!user) return { todoist: null, calendar: null, others: [] };
      return upstream('providers', () => sandbox.accountsOf(connectionsOf(user)));
    },
  });

  routes.route({
    ...fromContract(calls.todoist),
    handler: async (request) => {
      await ownAccount(request, 'todoist', request.query.email);
      return upstream('Todoist', () => sandbox.readTodoist(request.query.email));
    },
  });
  routes.route({
    ...fromContract(calls.addTask),
    handler: async (request) => {
      await ownAccount(request, 'todoist', request.body.email);
      await upstream('Todoist', () => sandbox.addTask(request.body));
      return done;
    },
  });
  routes.route({
    ...fromContract(calls.updateTask),
    handler: async (request) => {
      await ownAccount(request, 'todoist', request.body.email);
      await upstream('Todoist', () => sandbox.updateTask(request.params.id, request.body));
      return done;
    },
  });
  routes.route({
    ...fromContract(calls.completeTask),
    handler: async (request) => {
      await ownAccount(request, 'todoist', request.body.email);
      await upstream('Todoist', () => sandbox.completeTask(request.body.email, request.params.id));
      return done;
    },
  });
  routes.route({
    ...fromContract(calls.deleteTask),
    handler: async (request) => {
      await ownAccount(request, 'todoist', request.query.email);
      await upstream('Todoist', () => sandbox.deleteTask(request.query.email, request.params.id));
      return done;
    },
  });

  routes.route({
    ...fromContract(calls.renameLabel),
    handler: async (request) => {
      await ownAccount(request, 'todoist', request.body.email);
      await upstream('Todoist', () => sandbox.renameLabel(request.params.id, request.body));
      return done;
    },
  });
  routes.route({
    ...fromContract(calls.deleteLabel),
    handler: async (request) => {
      await ownAccount(request, 'todoist', request.query.email);
      await upstream('Todoist', () => sandbox.deleteLabel(request.query.email, request.params.id));
      return done;
    },
  });

  routes.route({
    ...fromContract(calls.addProject),
    handler: async (request) => {
      await ownAccount(request, 'todoist', request.body.email);
      await upstream('Todoist', () => sandbox.addProject(request.body));
      return done;
    },
  });
  routes.route({
    ...fromContract(calls.renameProject),
    handler: async (request) => {
      await ownAccount(request, 'todoist', request.body.email);
      await upstream('Todoist', () => sandbox.renameProject(request.params.id, request.body));
      return done;
    },
  });
  routes.route({
    ...fromContract(calls.archiveProject),
    handler: async (request) => {
      await ownAccount(request, 'todoist', request.body.email);
      await upstream('Todoist', () => sandbox.archiveProject(request.body.email, request.params.id));
      return done;
    },
  });
  routes.route({
    ...fromContract(calls.unarchiveProject),
    handler: async (request) => {
      await ownAccount(request, 'todoist', request.body.email);
      await upstream('Todoist', () => sandbox.unarchiveProject(request.body.email, request.params.id));
      return done;
    },
  });
  routes.route({
    ...fromContract(calls.deleteProject),
    handler: async (request) => {
      await ownAccount(request, 'todoist', request.query.email);
      await upstream('Todoist', () => sandbox.deleteProject(request.query.email, request.params.id));
      return done;
    },
  });

  routes.route({
    ...fromContract(calls.calendar),
    handler: async (request) => {
      await ownAccount(request, request.query.provider, request.query.email);
      return upstream(serviceNames[request.query.provider], () => sandbox.readCalendar(request.query));
    },
  });
  routes.route({
    ...fromContract(calls.addEvent),
    handler: async (request) => {
      await ownAccount(request, request.body.provider, request.body.email);
      await upstream(serviceNames[request.body.provider], () => sandbox.addEvent(request.body));
      return done;
    },
  });
  // Event ids travel as the rest of the path (`*`), see the contract.
  routes.route({
    ...fromContract(calls.updateEvent),
    handler: async (request) => {
      const { params, body } = request;
      await ownAccount(request, body.provider, body.email);
      await upstream(serviceNames[body.provider], () => sandbox.updateEvent(params['*'], body));
      return done;
    },
  });
  routes.route({
    ...fromContract(calls.deleteEvent),
    handler: async (request) => {
      const { email, calendarId, provider } = request.query;
      await ownAccount(request, provider, email);
      await upstream(serviceNames[provider], () =>
        sandbox.deleteEvent({ email, calendarId, provider, id: request.params['*'] }),
      );
      return done;
    },
  });
}
