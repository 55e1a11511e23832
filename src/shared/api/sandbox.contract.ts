import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { sandboxInboxSchema } from './notices.schema.ts';
import * as sandboxSchemas from './sandbox.schema.ts';

const done = z.object({ ok: z.literal(true) });
const taskIdParams = z.object({ id: z.string().min(1).max(200) });
const labelIdParams = z.object({ id: z.string().min(1).max(200) });
/**
 * Event ids travel as the rest of the path: Graph's ids of occurrences run past the router's 100
 * characters for a `:param`, which a wildcard does not count. The URLs are the same as with `:id`.
 */
const eventParams = z.object({ '*': z.string().min(1).max(1000) });

/** The sandbox console's calls (sandbox mode only), part of the one contract (see contract.ts). */
export const sandboxContract = {
  accounts: endpoint({
    method: 'GET',
    path: '/api/sandbox/accounts',
    response: sandboxSchemas.sandboxAccountsSchema,
  }),
  /** The mails the sandbox's mail server received for the signed-in user, newest first. */
  inbox: endpoint({ method: 'GET', path: '/api/sandbox/inbox', response: sandboxInboxSchema }),
  todoist: endpoint({
    method: 'GET',
    path: '/api/sandbox/todoist',
    query: sandboxSchemas.sandboxAccountQuerySchema,
    response: sandboxSchemas.sandboxTodoistSchema,
  }),
  addTask: endpoint({
    method: 'POST',
    path: '/api/sandbox/todoist/tasks',
    body: sandboxSchemas.sandboxTaskInputSchema,
    response: done,
  }),
  updateTask: endpoint({
    method: 'PATCH',
    path: '/api/sandbox/todoist/tasks/:id',
    params: taskIdParams,
    body: sandboxSchemas.sandboxTaskInputSchema,
    response: done,
  }),
  completeTask: endpoint({
    method: 'POST',
    path: '/api/sandbox/todoist/tasks/:id/close',
    params: taskIdParams,
    body: sandboxSchemas.sandboxAccountQuerySchema,
    response: done,
  }),
  deleteTask: endpoint({
    method: 'DELETE',
    path: '/api/sandbox/todoist/tasks/:id',
    params: taskIdParams,
    query: sandboxSchemas.sandboxAccountQuerySchema,
    response: done,
  }),
  /** Todoist renames the label on every task that carries it. */
  renameLabel: endpoint({
    method: 'PATCH',
    path: '/api/sandbox/todoist/labels/:id',
    params: labelIdParams,
    body: sandboxSchemas.sandboxLabelRenameSchema,
    response: done,
  }),
  /** Todoist removes the label from every task that carries it. */
  deleteLabel: endpoint({
    method: 'DELETE',
    path: '/api/sandbox/todoist/labels/:id',
    params: labelIdParams,
    query: sandboxSchemas.sandboxAccountQuerySchema,
    response: done,
  }),
  addProject: endpoint({
    method: 'POST',
    path: '/api/sandbox/todoist/projects',
    body: sandboxSchemas.sandboxProjectInputSchema,
    response: done,
  }),
  renameProject: endpoint({
    method: 'PATCH',
    path: '/api/sandbox/todoist/projects/:id',
    params: sandboxSchemas.sandboxProjectIdParamsSchema,
    body: sandboxSchemas.sandboxProjectRenameSchema,
    response: done,
  }),
  /** Todoist archives its sub-projects too; their tasks leave the lists with them. */
  archiveProject: endpoint({
    method: 'POST',
    path: '/api/sandbox/todoist/projects/:id/archive',
    params: sandboxSchemas.sandboxProjectIdParamsSchema,
    body: sandboxSchemas.sandboxAccountQuerySchema,
    response: done,
  }),
  /** The project alone comes back (a root project if its parent is still archived). */
  unarchiveProject: endpoint({
    method: 'POST',
    path: '/api/sandbox/todoist/projects/:id/unarchive',
    params: sandboxSchemas.sandboxProjectIdParamsSchema,
    body: sandboxSchemas.sandboxAccountQuerySchema,
    response: done,
  }),
  /** Todoist deletes its sub-projects and all their tasks too. */
  deleteProject: endpoint({
    method: 'DELETE',
    path: '/api/sandbox/todoist/projects/:id',
    params: sandboxSchemas.sandboxProjectIdParamsSchema,
    query: sandboxSchemas.sandboxAccountQuerySchema,
    response: done,
  }),
  calendar: endpoint({
    method: 'GET',
    path: '/api/sandbox/calendar',
    query: sandboxSchemas.sandboxCalendarQuerySchema,
    response: sandboxSchemas.sandboxCalendarSchema,
  }),
  addEvent: endpoint({
    method: 'POST',
    path: '/api/sandbox/calendar/events',
    body: sandboxSchemas.sandboxEventInputSchema,
    response: done,
  }),
  updateEvent: endpoint({
    method: 'PATCH',
    path: '/api/sandbox/calendar/events/*',
    params: eventParams,
    body: sandboxSchemas.sandboxEventInputSchema,
    response: done,
  }),
  deleteEvent: endpoint({
    method: 'DELETE',
    path: '/api/sandbox/calendar/events/*',
    params: eventParams,
    query: sandboxSchemas.sandboxCalendarQuerySchema.required({ calendarId: true }),
    response: done,
  }),
};
