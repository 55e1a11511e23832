import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '#server/errors.ts';
import type { SandboxConsole } from '#server/sandbox/sandbox-console.ts';
import {
  sandboxAccountQuerySchema,
  sandboxCalendarSchema,
  sandboxEventInputSchema,
  sandboxTaskInputSchema,
  sandboxTodoistSchema,
} from '#shared/api/sandbox.schema.ts';

const idParams = z.object({ id: z.string().min(1).max(200) });
const done = { ok: true } as const;

/** The sandbox console's API; registered only in sandbox mode, so it does not exist with real providers. */
export async function sandboxRoutes(app: FastifyInstance, { sandbox }: { sandbox: SandboxConsole }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const upstream = async <T>(side: 'Todoist' | 'calendar', action: () => Promise<T>): Promise<T> => {
    try {
      return await action();
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      throw new AppError('upstream_error', `The emulated ${side} refused this: ${detail}`, { cause: error });
    }
  };

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
    { schema: { querystring: sandboxAccountQuerySchema, response: { 200: sandboxCalendarSchema } } },
    (request) =>
      upstream('calendar', () => sandbox.readCalendar(request.query.email, request.query.calendarId)),
  );
  routes.post(
    '/api/sandbox/calendar/events',
    { schema: { body: sandboxEventInputSchema } },
    async (request) => {
      await upstream('calendar', () => sandbox.addEvent(request.body));
      return done;
    },
  );
  routes.patch(
    '/api/sandbox/calendar/events/:id',
    { schema: { params: idParams, body: sandboxEventInputSchema } },
    async (request) => {
      await upstream('calendar', () => sandbox.updateEvent(request.params.id, request.body));
      return done;
    },
  );
  routes.delete(
    '/api/sandbox/calendar/events/:id',
    { schema: { params: idParams, querystring: sandboxAccountQuerySchema.required({ calendarId: true }) } },
    async (request) => {
      const { email, calendarId } = request.query;
      await upstream('calendar', () => sandbox.deleteEvent(email, calendarId, request.params.id));
      return done;
    },
  );
}
