import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { authenticate, requireScope } from './todoist.auth.ts';
import type { TodoistContext } from './todoist.context.ts';
import { errors } from './todoist.errors.ts';
import { projectWire, syncLabelWire, syncUserWire, taskWire } from './todoist.mappers.ts';
import { commandsSchema, runCommands, type SyncOperations } from './todoist.sync-commands.ts';
import { parseWith } from './todoist.validation.ts';

/** Resource types the emulator fills; the others the SDK knows are answered empty. */
const SERVED = ['items', 'labels', 'projects', 'user'] as const;
const EMPTY_LISTS = [
  'notes',
  'project_notes',
  'sections',
  'filters',
  'reminders',
  'reminders_location',
  'collaborators',
  'collaborator_states',
  'live_notifications',
  'completed_info',
] as const;
const KNOWN = new Set<string>([...SERVED, ...EMPTY_LISTS, 'day_orders']);

/** Form posts carry JSON-encoded values; JSON posts may carry them either way. */
function decoded(value: unknown, argument: string): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    throw errors.invalid(argument, 'Expected a JSON value');
  }
}

function resourceTypes(value: unknown): Set<string> {
  if (value === undefined) return new Set();
  const list = parseWith(z.array(z.string()), decoded(value, 'resource_types'));
  const wanted = new Set<string>();
  for (const type of list) {
    if (type === 'all') for (const known of KNOWN) wanted.add(known);
  }
  for (const type of list) {
    if (type === 'all') continue;
    if (type.startsWith('-')) wanted.delete(type.slice(1));
    else if (KNOWN.has(type)) wanted.add(type);
  }
  return wanted;
}

export function registerSyncRoutes(app: FastifyInstance, context: TodoistContext, ops: SyncOperations): void {
  const { store } = context;

  app.post('/api/v1/sync', async (request, reply) => {
    const session = authenticate(context, request);
    const { user } = session;
    const body = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<
      string,
      unknown
    >;
    const response: Record<string, unknown> = {};
    const fullRead =
      body.resource_types !== undefined && (typeof body.sync_token !== 'string' || body.sync_token === '*');
    const retryAfter = context.syncLimits.take(
      user.id,
      fullRead ? 'full' : 'partial',
      context.clock.now().getTime(),
    );
    if (retryAfter !== null) {
      reply.header('retry-after', String(retryAfter));
      throw errors.limitsReached(retryAfter);
    }

    if (body.commands !== undefined) {
      const commands = parseWith(commandsSchema, decoded(body.commands, 'commands'));
      if (commands.length > 100) throw errors.tooManyCommands();
      const { syncStatus, tempIdMapping } = runCommands(context, session, ops, commands);
      response.sync_status = syncStatus;
      response.temp_id_mapping = tempIdMapping;
    } else {
      response.temp_id_mapping = {};
    }

    const types = resourceTypes(body.resource_types);
    const requestedToken =
      typeof body.sync_token === 'string' && body.sync_token !== '' ? body.sync_token : '*';
    const since = requestedToken === '*' ? undefined : store.syncTokenSeq(requestedToken, user.id);
    if (requestedToken !== '*' && since === undefined && user.invalidSyncTokenMode === 'error') {
      throw errors.invalid('sync_token', 'Invalid or expired sync token');
    }
    if (types.size > 0) requireScope(session, 'read');
    const full = since === undefined;
    const changed = (record: { seq: number }) => since === undefined || record.seq > (since ?? 0);

    if (types.has('items')) {
      // A full sync holds the active data only, not the tasks of archived projects (todoist.project-
      // operations.ts). Archiving does not change the tasks: an incremental sync reports the project.
      response.items = store
        .userTasks(user.id)
        .filter((task) =>
          full
            ? !task.checked && !task.isDeleted && !store.projects.get(task.projectId)?.isArchived
            : changed(task),
        )
        .sort((a, b) => a.childOrder - b.childOrder)
        .map((task) => taskWire(task, context.wire));
    }
    if (types.has('labels')) {
      response.labels = store
        .userLabels(user.id)
        .filter((label) => (full ? !label.isDeleted : changed(label)))
        .map(syncLabelWire);
    }
    if (types.has('projects')) {
      response.projects = store
        .userProjects(user.id)
        .filter((project) => (full ? !project.isDeleted && !project.isArchived : changed(project)))
        .map(projectWire);
    }
    if (types.has('user') && changed(user)) response.user = syncUserWire(user, context.clock.now());
    for (const type of EMPTY_LISTS) if (types.has(type)) response[type] = [];
    if (types.has('day_orders')) response.day_orders = {};

    response.sync_token = store.issueSyncToken(user.id);
    response.full_sync = full;
    if (full) response.full_sync_date_utc = `${new Date().toISOString().slice(0, 19)}Z`;
    return response;
  });
}
