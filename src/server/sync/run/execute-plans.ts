import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Clock } from '#server/domain/shared/clock.port.ts';
import type { RefusedWrite } from '#shared/sync/refused-writes.ts';
import type { CalendarEvent, CalendarTarget, EventWrite } from '../calendar-target.port.ts';
import type { EventAction, LinkPlan } from '../plan/link-plan.ts';
import type { NewActivity, SyncActivityRepository } from '../store/sync-activity.repository.ts';
import type { SyncLinkRepository } from '../store/sync-link.repository.ts';
import { NO_REFUSAL } from '../sync-link.ts';
import type { TaskCommand, TaskSource } from '../task-source.port.ts';
import type { WithToken } from '../with-token.ts';
import { commandUuidOf, createKey } from './create-key.ts';
import { calendarRefusal, type Refusal, refusalActivity, refusalValues } from './refused-writes.ts';

export type PlanExecutorDeps = {
  links: SyncLinkRepository;
  activity: SyncActivityRepository;
  tasks: TaskSource;
  withToken: WithToken;
  clock: Clock;
  log: Logger;
};

/** Where a run writes: the user's calendar, and the event versions it read (updates name them). */
export type WriteTarget = {
  userId: string;
  calendar: CalendarTarget;
  calendarId: string;
  readVersions: ReadonlyMap<string, string>;
  /** Tasks made only to be deleted (a resumed create whose event is gone); filled in as they are made. */
  discardedTasks: Set<string>;
};

type EventResult = { linkId: string; eventId: string | null; eventVersion: string | null };
/** A refused event write: the event the plan's create made before it (kept, so none is made twice). */
type EventRefused = {
  refusal: Refusal;
  eventId: string | null;
  eventVersion: string | null;
  created: boolean;
};
type EventState = {
  writes: number;
  eventId: string | null;
  eventVersion: string | null;
  createSent: boolean;
  /** The write in flight, and whether this plan's create already made the event. */
  current: RefusedWrite;
  created: boolean;
};
type PendingCommand = { plan: LinkPlan; linkId: string; command: TaskCommand };

const TODOIST_BATCH = 100;
const TASK_WRITES = { add: 'task-create', update: 'task-update', delete: 'task-delete' } as const;
/** No settings have this fingerprint: a pair keeping it has our event to write in full (see recordEventRefusal). */
const UNWRITTEN_LOOK = 'unwritten';

/**
 * Carries out plans: event writes one by one, task writes in Todoist batches, then the links. Every
 * create's intent (its key) is written to the link before the provider sees it, so a run that dies
 * anywhere repeats the same create, and the provider answers with what the first attempt made.
 */
/** Answers the number of provider writes. */
export async function executePlans(
  deps: PlanExecutorDeps,
  target: WriteTarget,
  plans: LinkPlan[],
): Promise<number> {
  let writes = 0;
  const activity: NewActivity[] = [];
  const commands: PendingCommand[] = [];
  const results = new Map<LinkPlan, EventResult>();
  for (const plan of plans) {
    const { linkId, key } = await prepare(deps, target.userId, plan);
    const written = await writeEvents(deps, target, plan, linkId, key);
    writes += written.writes;
    if ('refused' in written) {
      activity.push(...(await recordEventRefusal(deps, target.userId, plan, linkId, written.refused)));
      continue;
    }
    results.set(plan, written.result);
    if (plan.task) {
      const commandKey = key && plan.task.action === 'create' ? key : randomUUID().replaceAll('-', '');
      commands.push({ plan, linkId, command: toCommand(plan, commandKey) });
    }
  }
  const sent = await sendTaskCommands(deps, target, commands);
  writes += sent.writes;
  for (const plan of plans) {
    const result = results.get(plan);
    if (!result) continue;
    const taskId = sent.taskIds.has(plan)
      ? (sent.taskIds.get(plan) ?? null)
      : (plan.link?.taskId ?? plan.next?.taskId ?? null);
    const eventId = result.eventId ?? plan.link?.eventId ?? null;
    const refusal = sent.refused.get(plan);
    if (refusal && plan.link && plan.task?.action !== 'create') {
      activity.push(...(await recordTaskRefusal(deps, target.userId, plan, result, refusal)));
      continue;
    }
    await record(deps, target.userId, plan, result, taskId, refusal !== undefined);
    for (const entry of plan.activity) activity.push({ ...entry, taskId, eventId });
  }
  await deps.activity.add(target.userId, activity, deps.clock());
  return writes;
}

/**
 * Writes the intent of a create before the provider sees it: the link (new, or the plan's) with the
 * create's key, the same on every attempt (`createKey`: a task made from an event is generation -1).
 * Answers the link id and the key of the create in flight (null: nothing is being created).
 */
async function prepare(
  deps: PlanExecutorDeps,
  userId: string,
  plan: LinkPlan,
): Promise<{ linkId: string; key: string | null }> {
  const creates = plan.events.some((action) => action.action === 'create') || plan.task?.action === 'create';
  const keyFor = (linkId: string, generation: number) =>
    createKey(linkId, plan.task?.action === 'create' ? -1 : generation);
  if (plan.link) {
    if (!creates || plan.link.pendingKey || !plan.next)
      return { linkId: plan.link.id, key: plan.link.pendingKey };
    const key = keyFor(plan.link.id, plan.next.generation);
    await deps.links.save(
      userId,
      plan.link.id,
      { pendingKey: key, generation: plan.next.generation },
      deps.clock(),
    );
    return { linkId: plan.link.id, key };
  }
  if (!plan.next) return { linkId: randomUUID(), key: null };
  const linkId = randomUUID();
  const key = keyFor(linkId, plan.next.generation);
  await deps.links.insertPending(userId, { ...plan.next, id: linkId, pendingKey: key });
  return { linkId, key };
}

/** The plan's event actions in order; a write the provider refuses for good leaves the pair for the next run. */
async function writeEvents(
  deps: PlanExecutorDeps,
  target: WriteTarget,
  plan: LinkPlan,
  linkId: string,
  key: string | null,
): Promise<{ writes: number; result: EventResult } | { writes: number; refused: EventRefused }> {
  const state: EventState = {
    writes: 0,
    eventId: plan.link?.eventId ?? plan.next?.eventId ?? null,
    eventVersion: plan.next?.eventVersion ?? null,
    createSent: false,
    current: 'event-update',
    created: false,
  };
  try {
    for (const action of plan.events) await writeEvent(deps, target, plan, linkId, key, action, state);
  } catch (error) {
    const refusal = calendarRefusal(error, state.current);
    if (!refusal) throw error;
    // Only the provider's status and reason code: its message may quote the event.
    deps.log.warn(
      { userId: target.userId, linkId, write: refusal.write, status: refusal.status, reason: refusal.reason },
      'calendar write refused for good; tried again on the back-off',
    );
    const { eventId, eventVersion, created } = state;
    return { writes: state.writes, refused: { refusal, eventId, eventVersion, created } };
  }
  return {
    writes: state.writes,
    result: { linkId, eventId: state.eventId, eventVersion: state.eventVersion },
  };
}

async function writeEvent(
  deps: PlanExecutorDeps,
  target: WriteTarget,
  plan: LinkPlan,
  linkId: string,
  key: string | null,
  action: EventAction,
  state: EventState,
): Promise<void> {
  const { userId, calendar, calendarId } = target;
  const call = <T>(write: (token: string) => Promise<T>) => {
    state.writes += 1;
    return deps.withToken(userId, 'calendar', write);
  };
  state.current = `event-${action.action}`;
  if (action.action === 'remove') {
    await call((token) => calendar.remove(token, calendarId, action.eventId));
    if (action.eventId === state.eventId) state.eventId = null;
    return;
  }
  if (action.action === 'update') {
    const ifVersion = target.readVersions.get(action.eventId) ?? plan.link?.eventVersion ?? undefined;
    const updated = await call((token) =>
      calendar.update(token, calendarId, action.eventId, action.write, ifVersion),
    );
    if (updated.id === state.eventId) state.eventVersion = updated.version;
    return;
  }
  const createKeyOf = key ?? createKey(linkId, plan.next?.generation ?? 0);
  // A key made in this run (not one an earlier run left pending) has never reached the provider.
  const attempt = key !== null && !plan.link?.pendingKey && !state.createSent ? 'first' : 'repeat';
  state.createSent = true;
  let created = await call((token) => calendar.create(token, calendarId, createKeyOf, action.write, attempt));
  if (action.discard) {
    const made = created;
    state.current = 'event-remove';
    await call((token) => calendar.remove(token, calendarId, made.id));
    return;
  }
  // The event exists from here on: a refused follow-up keeps it on the pair, so none is made twice.
  state.eventId = created.id;
  state.eventVersion = created.version;
  state.created = true;
  state.current = 'event-update';
  // A repeated create answers with the event the first attempt made, as it was then; the task (a new
  // title, time or length) or the settings (colour, reminder, link to the task) may have changed
  // since: the event follows them now. A create a failed run left unfinished was first sent with the
  // look the settings had then.
  const firstLook = plan.link?.pendingKey ? plan.link.appearanceHash : null;
  const lookChanged = firstLook !== null && firstLook !== plan.next?.appearanceHash;
  if (lookChanged || !asWritten(created, action.write)) {
    const made = created;
    created = await call((token) => calendar.update(token, calendarId, made.id, action.write));
  }
  state.eventId = created.id;
  state.eventVersion = created.version;
}

/** Todoist commands in batches; then the tasks made only to be deleted are deleted. */
async function sendTaskCommands(deps: PlanExecutorDeps, target: WriteTarget, commands: PendingCommand[]) {
  const { userId, discardedTasks } = target;
  let writes = 0;
  const taskIds = new Map<LinkPlan, string | null>();
  const refused = new Map<LinkPlan, Refusal>();
  for (let index = 0; index < commands.length; index += TODOIST_BATCH) {
    const batch = commands.slice(index, index + TODOIST_BATCH);
    const result = await deps.withToken(userId, 'todoist', (token) =>
      deps.tasks.apply(
        token,
        batch.map((entry) => entry.command),
      ),
    );
    writes += 1;
    for (const { plan, command } of batch) {
      const tag = result.failed[command.uuid];
      if (tag) {
        const status = result.failedStatus?.[command.uuid] ?? null;
        const write = TASK_WRITES[command.kind];
        deps.log.warn({ userId, write, status, reason: tag }, 'Todoist refused a command');
        refused.set(plan, { write, status, reason: tag });
      }
      if (command.kind === 'add') taskIds.set(plan, result.idsByTempId[command.tempId] ?? null);
      const made = taskIds.get(plan);
      if (plan.task?.action === 'create' && plan.task.discard && made) discardedTasks.add(made);
    }
  }
  const toDelete = [...discardedTasks].filter((id) =>
    commands.some((entry) => taskIds.get(entry.plan) === id),
  );
  if (toDelete.length > 0) {
    await deps.withToken(userId, 'todoist', (token) =>
      deps.tasks.apply(
        token,
        toDelete.map((id) => ({ kind: 'delete', uuid: randomUUID(), id })),
      ),
    );
    writes += 1;
  }
  return { writes, taskIds, refused };
}

/**
 * A calendar write refused for good is kept on the pair (docs/product-rules.md §10) and tried again on
 * the back-off of `plan/refusal-backoff.ts`, at once when the user changes the item. The pair keeps its
 * values as they were, so the write is planned again; an event this plan's create made before a refused
 * follow-up is kept on it, with a fingerprint no settings have, so the retry writes the task's look and
 * values onto it instead of making another. Answers the activity line (the first refusal only).
 */
async function recordEventRefusal(
  deps: PlanExecutorDeps,
  userId: string,
  plan: LinkPlan,
  linkId: string,
  refused: EventRefused,
): Promise<NewActivity[]> {
  if (!plan.link && !plan.next) return [];
  const { refusal } = refused;
  const values = refusalValues(plan, refusal, deps.clock(), refused.created ? refused.eventVersion : null);
  const creates = plan.next !== null && plan.events.some((action) => action.action === 'create');
  await deps.links.save(
    userId,
    linkId,
    {
      ...values,
      ...(creates && plan.next ? { generation: plan.next.generation } : {}),
      ...(refused.created
        ? { eventId: refused.eventId, eventVersion: refused.eventVersion, appearanceHash: UNWRITTEN_LOOK }
        : {}),
    },
    deps.clock(),
  );
  const taskId = plan.link?.taskId ?? plan.next?.taskId ?? null;
  return refusalActivity(plan, refusal, { taskId, eventId: refused.eventId });
}

/**
 * Todoist refused a task update or delete: the pair keeps the values it had (the update was not
 * written), and the event's new version when this plan wrote it; tried again on the back-off.
 */
async function recordTaskRefusal(
  deps: PlanExecutorDeps,
  userId: string,
  plan: LinkPlan,
  result: EventResult,
  refusal: Refusal,
): Promise<NewActivity[]> {
  const link = plan.link;
  if (!link) return [];
  const wroteEvent = plan.events.length > 0;
  const eventVersion = wroteEvent ? result.eventVersion : link.eventVersion;
  await deps.links.save(
    userId,
    link.id,
    {
      ...refusalValues(plan, refusal, deps.clock(), wroteEvent ? result.eventVersion : null),
      eventId: wroteEvent ? result.eventId : link.eventId,
      eventVersion,
    },
    deps.clock(),
  );
  return refusalActivity(plan, refusal, { taskId: link.taskId, eventId: result.eventId ?? link.eventId });
}

async function record(
  deps: PlanExecutorDeps,
  userId: string,
  plan: LinkPlan,
  result: EventResult,
  taskId: string | null,
  refused: boolean,
): Promise<void> {
  // The pair is over, or its task never came to be (Todoist refused the add).
  const over = !plan.next || !taskId || (refused && plan.task?.action === 'create');
  if (over || !plan.next) {
    await deps.links.remove(userId, result.linkId);
    return;
  }
  const ids = { taskId, eventId: result.eventId, eventVersion: result.eventVersion };
  // A write that went through clears a refusal the pair had; a plan that only records keeps it.
  const wrote = plan.events.length > 0 || plan.task !== null;
  await deps.links.save(
    userId,
    result.linkId,
    { ...plan.next, ...ids, pendingKey: null, ...(wrote ? NO_REFUSAL : {}) },
    deps.clock(),
  );
}

function toCommand(plan: LinkPlan, key: string): TaskCommand {
  const task = plan.task;
  if (!task) throw new Error('no task action');
  const uuid = commandUuidOf(key);
  if (task.action === 'create') {
    return {
      kind: 'add',
      uuid,
      tempId: `tmp-${key}`,
      content: task.content,
      due: task.due,
      labels: task.labels,
      duration: task.duration,
      ...(task.projectId === undefined ? {} : { projectId: task.projectId }),
    };
  }
  if (task.action === 'delete') return { kind: 'delete', uuid, id: task.taskId };
  const { action: _action, taskId, ...fields } = task;
  return { kind: 'update', uuid, id: taskId, ...fields };
}

/** The event has the title and time of the write (a create's answer may be an earlier attempt's event). */
function asWritten(event: CalendarEvent, write: EventWrite): boolean {
  return (
    event.title === write.title &&
    event.start?.getTime() === write.start.getTime() &&
    event.end?.getTime() === write.end.getTime()
  );
}
