import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Clock } from '#server/domain/shared/clock.port.ts';
import type { CalendarEvent, CalendarTarget, EventWrite } from '../calendar-target.port.ts';
import type { EventAction, LinkPlan } from '../plan/link-plan.ts';
import type { NewActivity, SyncActivityRepository } from '../store/sync-activity.repository.ts';
import type { SyncLinkRepository } from '../store/sync-link.repository.ts';
import type { TaskCommand, TaskSource } from '../task-source.port.ts';
import type { WithToken } from '../with-token.ts';
import { commandUuidOf, createKey } from './create-key.ts';

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
type PendingCommand = { plan: LinkPlan; linkId: string; command: TaskCommand };

const TODOIST_BATCH = 100;

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
      activity.push(written.refused);
      await recordRefusedCreate(deps, target.userId, plan, linkId);
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
    await record(deps, target.userId, plan, result, taskId, sent.refused.has(plan));
    const eventId = result.eventId ?? plan.link?.eventId ?? null;
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
): Promise<{ writes: number; result: EventResult } | { writes: number; refused: NewActivity }> {
  const state = {
    writes: 0,
    eventId: plan.link?.eventId ?? plan.next?.eventId ?? null,
    eventVersion: plan.next?.eventVersion ?? null,
    createSent: false,
  };
  try {
    for (const action of plan.events) await writeEvent(deps, target, plan, linkId, key, action, state);
  } catch (error) {
    if (!isPermanent(error)) throw error;
    // The event changed under us (deleted meanwhile, say): the next read brings that change.
    deps.log.warn(
      { userId: target.userId, linkId, err: error },
      'calendar write refused; left for the next run',
    );
    const refused: NewActivity = {
      direction: 'todoist-to-calendar',
      action: 'skipped',
      taskId: plan.next?.taskId ?? null,
      eventId: state.eventId,
      detail: 'refused',
    };
    return { writes: state.writes, refused };
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
  state: { writes: number; eventId: string | null; eventVersion: string | null; createSent: boolean },
): Promise<void> {
  const { userId, calendar, calendarId } = target;
  const call = <T>(write: (token: string) => Promise<T>) => {
    state.writes += 1;
    return deps.withToken(userId, 'calendar', write);
  };
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
    await call((token) => calendar.remove(token, calendarId, made.id));
    return;
  }
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
  const refused = new Set<LinkPlan>();
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
      if (result.failed[command.uuid]) {
        deps.log.warn({ userId, tag: result.failed[command.uuid] }, 'Todoist refused a command');
        refused.add(plan);
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
 * A create the calendar refused for good (the event is not valid there, say) is not tried again on every
 * run: the link remembers the task's version, and the event is asked for again once the task changes.
 * Other refused writes are left for the next run, which reads the change that caused them.
 */
async function recordRefusedCreate(deps: PlanExecutorDeps, userId: string, plan: LinkPlan, linkId: string) {
  if (!plan.next || !plan.events.some((action) => action.action === 'create' && !action.discard)) return;
  await deps.links.save(
    userId,
    linkId,
    {
      pendingKey: null,
      refusedTaskVersion: plan.next.taskVersion ?? 'refused',
      generation: plan.next.generation,
    },
    deps.clock(),
  );
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
  await deps.links.save(userId, result.linkId, { ...plan.next, ...ids, pendingKey: null }, deps.clock());
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

/** A write the provider refused for good (4xx other than auth and rate limits). */
function isPermanent(error: unknown): boolean {
  const status = (error as { status?: number } | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 500 && status !== 401 && status !== 429;
}

/** The event has the title and time of the write (a create's answer may be an earlier attempt's event). */
function asWritten(event: CalendarEvent, write: EventWrite): boolean {
  return (
    event.title === write.title &&
    event.start?.getTime() === write.start.getTime() &&
    event.end?.getTime() === write.end.getTime()
  );
}
