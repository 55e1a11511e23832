import { ReconnectRequiredError } from '#server/domain/integrations/token-manager.ts';
import type { Clock } from '#server/domain/shared/clock.port.ts';
import {
  type CalendarEvent,
  type CalendarTarget,
  type CreateAttempt,
  EventChangedError,
  type EventWrite,
  SyncTokenExpiredError,
} from '../calendar-target.port.ts';
import type { SyncChannels } from '../inbound/sync-channels.ts';
import { blankEvent, blankTask } from '../plan/snapshots.ts';
import type {
  DueWrite,
  LabelSnapshot,
  ProjectSnapshot,
  TaskCommand,
  TaskCommandResult,
  TaskDue,
  TaskSnapshot,
  TaskSource,
} from '../task-source.port.ts';
import type { WithToken } from '../with-token.ts';

/**
 * Fakes of the providers for the engine's unit tests: a Todoist and a calendar in memory, with the
 * promises of the ports (incremental reads by sync token, idempotent commands and keyed creates,
 * guarded updates), the user's own edits, and faults to inject.
 */

/**
 * A fault on the next call of a method. `afterApplying`: the provider did the write, and its answer is
 * lost (the run sees the error, as when its process dies waiting).
 */
type Fault<M extends string> = { method: M; error: unknown; afterApplying: boolean };

function faults<M extends string>() {
  const pending: Fault<M>[] = [];
  return {
    add(method: M, error: unknown, options: { afterApplying?: boolean } = {}) {
      pending.push({ method, error, afterApplying: options.afterApplying ?? false });
    },
    take(method: M): Fault<M> | undefined {
      const index = pending.findIndex((fault) => fault.method === method);
      return index < 0 ? undefined : pending.splice(index, 1)[0];
    },
  };
}

/** Runs `apply` unless a fault stops it before; a lost answer throws after it. */
async function withFault<M extends string, T>(
  fault: Fault<M> | undefined,
  apply: () => T,
): Promise<Awaited<T>> {
  if (fault && !fault.afterApplying) throw fault.error;
  const result = await apply();
  if (fault) throw fault.error;
  return result;
}

/** An HTTP error as the adapters let it through: a status the engine tells permanent refusals by. */
export const httpError = (status: number) => Object.assign(new Error(`HTTP ${status}`), { status });

/** A floating due at `local` (YYYY-MM-DDTHH:MM:SS), as Todoist reads it. */
export const floatingDue = (local: string): TaskDue => ({
  date: local,
  timezone: null,
  isRecurring: false,
  string: '',
});

const dueOf = (write: DueWrite): TaskDue => {
  const recurrence = { isRecurring: write.string !== undefined, string: write.string ?? '' };
  if (write.kind === 'floating') return { date: write.local, timezone: null, ...recurrence };
  if (write.kind === 'fixed') return { date: write.utc, timezone: write.timezone, ...recurrence };
  return { date: write.date, timezone: null, ...recurrence };
};

type StoredTask = TaskSnapshot & { changedAt: number };
type TodoistMethod = 'changes' | 'task' | 'openTasks' | 'apply';

export type FakeTodoist = ReturnType<typeof fakeTodoist>;

/**
 * Todoist in memory. A full read (no token) lists the open tasks; an incremental one every task changed
 * since the token, deleted and completed ones too. Commands are applied once per uuid: a repeated
 * `add` answers with the task the first made.
 */
export function fakeTodoist(clock: Clock, options: { timeZone?: string | null } = {}) {
  const tasks = new Map<string, StoredTask>();
  const labels: LabelSnapshot[] = [];
  const projects = new Map<string, ProjectSnapshot & { changedAt: number }>([
    [
      'inbox',
      {
        id: 'inbox',
        name: 'Inbox',
        color: 'grey',
        parentId: null,
        inbox: true,
        order: 0,
        isArchived: false,
        isDeleted: false,
        changedAt: 0,
      },
    ],
  ]);
  // Todoist's full read leaves out archived projects and their tasks; an incremental one names the
  // projects that changed, not their tasks.
  const inArchivedProject = (task: TaskSnapshot) =>
    task.projectId !== null && projects.get(task.projectId)?.isArchived === true;
  const applied = new Map<string, TaskCommandResult>();
  /** Every command received, repeats included. */
  const commands: TaskCommand[] = [];
  const calls: { method: TodoistMethod; syncToken?: string | null }[] = [];
  const injected = faults<TodoistMethod>();
  let seq = 0;
  let ids = 0;
  const touch = (task: StoredTask) => {
    seq += 1;
    task.changedAt = seq;
    task.updatedAt = clock().toISOString();
  };
  const snapshot = ({ changedAt: _changed, ...task }: StoredTask): TaskSnapshot => structuredClone(task);

  function applyOne(command: TaskCommand, result: TaskCommandResult) {
    if (command.kind === 'add') {
      ids += 1;
      const task: StoredTask = {
        id: `task-${ids}`,
        content: command.content,
        description: '',
        labels: [...command.labels],
        projectId: command.projectId ?? null,
        priority: 1,
        order: ids,
        due: dueOf(command.due),
        duration: command.duration,
        checked: false,
        completedAt: null,
        isDeleted: false,
        updatedAt: null,
        changedAt: 0,
      };
      touch(task);
      tasks.set(task.id, task);
      result.idsByTempId[command.tempId] = task.id;
      return;
    }
    const task = tasks.get(command.id);
    if (!task || task.isDeleted) {
      result.failed[command.uuid] = 'ITEM_NOT_FOUND';
      return;
    }
    if (command.kind === 'delete') task.isDeleted = true;
    else {
      if (command.content !== undefined) task.content = command.content;
      if (command.due !== undefined) task.due = command.due === null ? null : dueOf(command.due);
      if (command.labels !== undefined) task.labels = [...command.labels];
      if (command.duration !== undefined) task.duration = command.duration;
    }
    touch(task);
  }

  const source: TaskSource = {
    async changes(_token, syncToken) {
      calls.push({ method: 'changes', syncToken });
      return withFault(injected.take('changes'), () => {
        const full = syncToken === null;
        const since = full ? 0 : Number(syncToken);
        const read = [...tasks.values()].filter((task) =>
          full ? !task.isDeleted && !task.checked && !inArchivedProject(task) : task.changedAt > since,
        );
        const projectsRead = [...projects.values()].filter((project) =>
          full ? !project.isArchived && !project.isDeleted : project.changedAt > since,
        );
        return {
          tasks: read.map(snapshot),
          labels: full ? labels.map((label) => ({ ...label })) : [],
          projects: projectsRead.map(({ changedAt: _changed, ...project }) => ({ ...project })),
          full,
          nextToken: String(seq),
          timeZone: options.timeZone ?? null,
        };
      });
    },
    async task(_token, id) {
      calls.push({ method: 'task' });
      return withFault(injected.take('task'), () => {
        const task = tasks.get(id);
        return task && !task.isDeleted ? snapshot(task) : null;
      });
    },
    async openTasks(_token, wanted) {
      calls.push({ method: 'openTasks' });
      return withFault(injected.take('openTasks'), () =>
        wanted.flatMap((id) => {
          const task = tasks.get(id);
          return task && !task.isDeleted && !task.checked ? [snapshot(task)] : [];
        }),
      );
    },
    async apply(_token, batch) {
      calls.push({ method: 'apply' });
      commands.push(...structuredClone(batch));
      return withFault(injected.take('apply'), () => {
        const result: TaskCommandResult = { idsByTempId: {}, failed: {} };
        for (const command of batch) {
          const earlier = applied.get(command.uuid);
          if (earlier) {
            Object.assign(result.idsByTempId, earlier.idsByTempId);
            Object.assign(result.failed, earlier.failed);
            continue;
          }
          const own: TaskCommandResult = { idsByTempId: {}, failed: {} };
          applyOne(command, own);
          applied.set(command.uuid, own);
          Object.assign(result.idsByTempId, own.idsByTempId);
          Object.assign(result.failed, own.failed);
        }
        return result;
      });
    },
  };

  return {
    ...source,
    tasks,
    labels,
    commands,
    calls,
    fail: injected.add,
    /** The user adds a task. */
    add(task: Pick<TaskSnapshot, 'content'> & Partial<TaskSnapshot>): TaskSnapshot {
      ids += 1;
      const stored: StoredTask = { ...blankTask(`task-${ids}`, task), changedAt: 0 };
      touch(stored);
      tasks.set(stored.id, stored);
      return snapshot(stored);
    },
    /** The user edits a task. */
    edit(id: string, patch: Partial<Omit<TaskSnapshot, 'id'>>) {
      const task = tasks.get(id);
      if (!task) throw new Error(`no task ${id}`);
      Object.assign(task, patch);
      touch(task);
    },
    /** The user deletes a task. */
    remove(id: string) {
      const task = tasks.get(id);
      if (!task) throw new Error(`no task ${id}`);
      task.isDeleted = true;
      touch(task);
    },
    projects,
    /** The user adds a project (under `parentId`), or changes one (archives it, say). */
    project(id: string, fields: Partial<Omit<ProjectSnapshot, 'id'>> = {}) {
      seq += 1;
      const known = projects.get(id);
      const base = known ?? {
        id,
        name: id,
        color: 'grey',
        parentId: null,
        inbox: false,
        order: projects.size,
      };
      projects.set(id, { isArchived: false, isDeleted: false, ...base, ...fields, changedAt: seq });
    },
    /** The tasks that exist (not deleted). */
    live: () => [...tasks.values()].filter((task) => !task.isDeleted).map(snapshot),
  };
}

type StoredEvent = CalendarEvent & { calendarId: string; changedAt: number };
type CalendarMethod = 'changes' | 'create' | 'update' | 'remove' | 'eventsBetween';

export type FakeCalendar = ReturnType<typeof fakeCalendar>;

/**
 * A calendar account in memory. A full read lists the calendar's live events; an incremental one every
 * event changed since the token, deleted ones too. A keyed create made once answers with its event
 * again; an update naming a version the event no longer has is refused (EventChangedError); an update
 * of an event gone is a 404.
 */
export function fakeCalendar(clock: Clock) {
  const events = new Map<string, StoredEvent>();
  const byKey = new Map<string, string>();
  const calls: {
    method: CalendarMethod;
    syncToken?: string | null;
    key?: string;
    attempt?: CreateAttempt;
    eventId?: string;
    ifVersion?: string;
  }[] = [];
  const injected = faults<CalendarMethod>();
  let seq = 0;
  let ids = 0;
  let versions = 0;
  let tokensExpired = false;
  const touch = (event: StoredEvent) => {
    seq += 1;
    versions += 1;
    event.changedAt = seq;
    event.version = `v${versions}`;
    event.updatedAt = clock();
  };
  const snapshot = ({ calendarId: _calendar, changedAt: _changed, ...event }: StoredEvent): CalendarEvent =>
    structuredClone(event);
  const writeFields = (write: EventWrite) => ({
    title: write.title,
    // An all-day event is read back without a start, by its date (as both calendars answer).
    start: write.date === null ? new Date(write.start) : null,
    end: write.date === null ? new Date(write.end) : null,
    allDay: write.date !== null,
    date: write.date,
    ...(write.appearance && {
      color: write.color === '' ? null : write.color,
      categories: write.category ? [write.category] : [],
    }),
  });
  const newEvent = (calendarId: string, fields: Partial<CalendarEvent>): StoredEvent => {
    ids += 1;
    const event: StoredEvent = { ...blankEvent(`event-${ids}`, fields), calendarId, changedAt: 0 };
    touch(event);
    events.set(event.id, event);
    return event;
  };
  const liveIn = (calendarId: string, id: string) => {
    const event = events.get(id);
    return event && !event.deleted && event.calendarId === calendarId ? event : undefined;
  };

  const target: CalendarTarget = {
    async busyElsewhere() {
      return [];
    },
    async eventsBetween(_token, calendarId, from, to) {
      calls.push({ method: 'eventsBetween', syncToken: null });
      return [...events.values()]
        .filter((event) => event.calendarId === calendarId && !event.deleted)
        .filter((event) => event.start !== null && event.end !== null && event.start < to && event.end > from)
        .map(snapshot);
    },
    async changes(_token, calendarId, syncToken) {
      calls.push({ method: 'changes', syncToken });
      return withFault(injected.take('changes'), () => {
        if (syncToken !== null && tokensExpired) throw new SyncTokenExpiredError('sync token expired');
        const full = syncToken === null;
        const since = full ? 0 : Number(syncToken);
        const read = [...events.values()].filter(
          (event) => event.calendarId === calendarId && (full ? !event.deleted : event.changedAt > since),
        );
        return { events: read.map(snapshot), full, nextToken: String(seq) };
      });
    },
    async create(_token, calendarId, clientKey, write, attempt = 'repeat') {
      calls.push({ method: 'create', key: clientKey, attempt });
      return withFault(injected.take('create'), () => {
        const made = byKey.get(clientKey);
        const existing = made ? events.get(made) : undefined;
        if (existing && existing.calendarId === calendarId) return snapshot(existing);
        const event = newEvent(calendarId, { ...writeFields(write), taskTag: write.taskId });
        byKey.set(clientKey, event.id);
        return snapshot(event);
      });
    },
    async update(_token, calendarId, eventId, write, ifVersion) {
      calls.push({ method: 'update', eventId, ...(ifVersion !== undefined && { ifVersion }) });
      return withFault(injected.take('update'), () => {
        const event = liveIn(calendarId, eventId);
        if (!event) throw httpError(404);
        if (ifVersion !== undefined && ifVersion !== event.version)
          throw new EventChangedError(`event ${eventId} is at ${event.version}, not ${ifVersion}`);
        Object.assign(event, writeFields(write));
        touch(event);
        return snapshot(event);
      });
    },
    async remove(_token, calendarId, eventId) {
      calls.push({ method: 'remove', eventId });
      await withFault(injected.take('remove'), () => {
        const event = liveIn(calendarId, eventId);
        if (!event) return;
        event.deleted = true;
        touch(event);
      });
    },
    async move(_token, move) {
      const event = liveIn(move.fromCalendarId, move.eventId) ?? liveIn(move.toCalendarId, move.eventId);
      if (!event) return null;
      event.calendarId = move.toCalendarId;
      touch(event);
      return snapshot(event);
    },
    async findCreated(_token, calendarId, clientKey, taskId) {
      const made = byKey.get(clientKey);
      const event = made ? liveIn(calendarId, made) : undefined;
      return event && event.taskTag === taskId ? snapshot(event) : null;
    },
    async watch(_token, _calendarId, channel) {
      return {
        id: channel.id,
        resourceId: null,
        expiresAt: new Date(clock().getTime() + channel.ttlSeconds * 1000),
      };
    },
    async stopWatch() {},
  };

  return {
    ...target,
    events,
    calls,
    fail: injected.add,
    /** The provider forgets every sync token (Google 410): the next incremental read is refused. */
    expireSyncTokens() {
      tokensExpired = true;
    },
    /** The user adds an event, `minutes` long (Google: no colour). */
    addEvent(calendarId: string, title: string, start: Date, minutes: number): CalendarEvent {
      return snapshot(
        newEvent(calendarId, { title, start, end: new Date(start.getTime() + minutes * 60_000) }),
      );
    },
    /** The user moves an event. */
    moveEvent(id: string, start: Date, minutes: number) {
      const event = events.get(id);
      if (!event) throw new Error(`no event ${id}`);
      Object.assign(event, { start, end: new Date(start.getTime() + minutes * 60_000) });
      touch(event);
    },
    /** The live events of a calendar. */
    live: (calendarId: string) =>
      [...events.values()].filter((event) => event.calendarId === calendarId && !event.deleted).map(snapshot),
    /** The writes (create, update, remove) the calendar was asked for. */
    writes: () => calls.filter((call) => call.method !== 'changes'),
  };
}

/** The push channels: what the engine asked for, and a fault for `ensure`. */
export function fakeChannels() {
  const ensured: string[] = [];
  const stopped: string[] = [];
  let ensureError: unknown = null;
  const channels: SyncChannels = {
    async ensure(userId) {
      ensured.push(userId);
      if (ensureError) throw ensureError;
    },
    async stop(userId) {
      stopped.push(userId);
    },
    async verify(pushes) {
      return pushes.map(() => null);
    },
  };
  return {
    channels,
    ensured,
    stopped,
    failEnsure(error: unknown) {
      ensureError = error;
    },
  };
}

/** Access tokens: every call gets one, unless the user must connect that account again. */
export function fakeTokens() {
  const revoked = new Set<'todoist' | 'calendar'>();
  const withToken: WithToken = async (_userId, kind, call) => {
    if (revoked.has(kind)) throw new ReconnectRequiredError(kind);
    return call(`${kind}-token`);
  };
  return {
    withToken,
    revoke(kind: 'todoist' | 'calendar') {
      revoked.add(kind);
    },
  };
}
