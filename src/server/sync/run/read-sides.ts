import type { Logger } from 'pino';
import type { LabelRename } from '#server/domain/settings/label-identity.ts';
import type { LabelsKnown, SettingsRepository } from '#server/domain/settings/settings.repository.ts';
import { type CalendarEvent, type CalendarTarget, SyncTokenExpiredError } from '../calendar-target.port.ts';
import { appearanceHash } from '../plan/event-write.ts';
import { projectsAfterRead } from '../plan/project-changes.ts';
import { readPlan } from '../plan/read-plan.ts';
import { refusalDue } from '../plan/refusal-backoff.ts';
import { withFollowedLabels, withRenamedTaskLabels } from '../plan/settings-labels.ts';
import { deletedEvent, deletedTask } from '../plan/snapshots.ts';
import { projectScopeKey, scopeHash, withProjects } from '../plan/sync-scope.ts';
import type { SyncLink } from '../sync-link.ts';
import type { SyncSettings } from '../sync-settings.ts';
import { heldCount } from '../sync-sides.ts';
import type { SyncState } from '../sync-state.ts';
import type { TaskChanges, TaskSnapshot, TaskSource } from '../task-source.port.ts';
import type { WithToken } from '../with-token.ts';

export type SideReaderDeps = {
  labels: Pick<SettingsRepository, 'applyLabelChanges' | 'saveTodoistProjects'>;
  tasks: TaskSource;
  withToken: WithToken;
  log: Logger;
};

export type ReadRequest = {
  userId: string;
  state: SyncState | null;
  settings: SyncSettings;
  calendar: CalendarTarget;
  links: SyncLink[];
  /** Todoist said occurrences of recurring tasks were completed since the last run. */
  occurrencesCompleted: boolean;
  /** Another calendar was chosen and its events were moved: every task is read to restyle them. */
  readAllTasks: boolean;
  requestedSidesOnly: boolean;
  /** The stored labels and renames as the run's start read them (spares a read when none changed). */
  labelsAtStart?: LabelsKnown;
  now: Date;
};

/** What one run read, ready for the planner. */
export type SidesRead = {
  reads: { todoist: boolean; calendar: boolean };
  /** The run's settings: the user's time zone as Todoist says, labels as followed. */
  settings: SyncSettings;
  tasks: TaskSnapshot[];
  events: CalendarEvent[];
  relabelled: Map<string, string[]>;
  /** Renames of labels this run carried onto the tasks (forgotten once the run is done). */
  renames: LabelRename[];
  /** The names of the labels this run read as deleted in Todoist (a cause the safety brake names). */
  deletedLabels: ReadonlySet<string>;
  /** The version each update names: as read now, else as the link last saw it. */
  readVersions: ReadonlyMap<string, string>;
  /** Removals are held for the user's choice (the brake plans them again from full reads). */
  holding: boolean;
  nextTokens: { todoist: string | null; calendar: string | null };
  /**
   * When the events an incremental read of the calendar met were last changed by someone other than
   * the sync (their provider's time); null when the calendar was not read, or read in full
   * (`channelWentQuiet`).
   */
  calendarChangedAt: (Date | null)[] | null;
};

/**
 * The read step of a run: which sides to read (`readPlan`), reading them, and completing what a read
 * leaves out (a linked task missing from a full read; a linked event gone).
 */
export async function readSides(deps: SideReaderDeps, request: ReadRequest): Promise<SidesRead> {
  const { userId, state, links, calendar } = request;
  let settings = { ...request.settings };
  const { reads, readAll, needsAllTasks, sameCalendar, holding, refusedDue } = whatToRead(request);

  const readTasks = (since: string | null) =>
    deps.withToken(userId, 'todoist', (token) => deps.tasks.changes(token, since));
  let taskRead = reads.todoist
    ? await readTasks(needsAllTasks ? null : (state?.todoistToken ?? null))
    : unread(state?.todoistToken);
  if (taskRead.timeZone) settings.timeZone = taskRead.timeZone;
  if (reads.todoist) {
    const projects = await followProjects(deps, userId, settings, taskRead, request.now);
    // A project archived, unarchived or deleted takes its tasks out of (or back into) Todoist's
    // active lists without naming them in an incremental read: read every task to judge them again.
    if (!taskRead.full && projectScopeKey(projects) !== projectScopeKey(settings))
      taskRead = await readTasks(null);
    settings = projects;
  }
  // Renames the settings followed (now, by the dashboard, or in a run that failed later) and no run
  // has carried onto the tasks yet: a task with a label's old name is matched by its new one.
  let renames: LabelRename[] = [];
  if (reads.todoist) {
    const applied = await deps.labels.applyLabelChanges(
      userId,
      taskRead.labels.map(({ order, isDeleted, ...label }) => ({
        ...label,
        item_order: order,
        deleted: isDeleted,
      })),
      taskRead.full,
      request.now,
      request.labelsAtStart,
    );
    settings = withFollowedLabels(settings, applied);
    renames = applied.renames;
  }
  // A refused task write due again needs its event as it is now: one full read of the calendar.
  const since = sameCalendar && !readAll && !refusedDue.calendar ? (state?.calendarToken ?? null) : null;
  const calendarRead = reads.calendar
    ? await readCalendar(deps, userId, calendar, settings.calendarId, since)
    : unread(state?.calendarToken);

  const { tasks, relabelled } = withRenamedTaskLabels(
    await completeTaskRead(deps, userId, links, taskRead.tasks, taskRead.full, refusedDue.tasks),
    renames,
  );
  return {
    reads,
    settings,
    tasks,
    events: completeEventRead(links, calendarRead.events, calendarRead.full, settings.calendarId),
    relabelled,
    renames,
    deletedLabels: new Set(taskRead.labels.filter((label) => label.isDeleted).map((label) => label.name)),
    readVersions: new Map(calendarRead.events.map((event) => [event.id, event.version])),
    holding,
    nextTokens: { todoist: taskRead.nextToken, calendar: calendarRead.nextToken },
    calendarChangedAt:
      reads.calendar && !calendarRead.full ? changedByOthers(links, calendarRead.events) : null,
  };
}

/**
 * When the events of an incremental read were changed, leaving out those at the version their pair
 * recorded: the sync's own writes (their notices are echoes, which the intake records nowhere).
 */
function changedByOthers(links: readonly SyncLink[], events: readonly CalendarEvent[]): (Date | null)[] {
  const known = new Map(links.map((link) => [link.eventId, link.eventVersion]));
  return events.filter((event) => known.get(event.id) !== event.version).map((event) => event.updatedAt);
}

function readCalendar(
  deps: SideReaderDeps,
  userId: string,
  calendar: CalendarTarget,
  calendarId: string,
  since: string | null,
) {
  return deps.withToken(userId, 'calendar', async (token) => {
    try {
      return await calendar.changes(token, calendarId, since);
    } catch (error) {
      if (!(error instanceof SyncTokenExpiredError) || since === null) throw error;
      deps.log.info({ userId }, 'calendar sync token expired; reading the calendar in full');
      return calendar.changes(token, calendarId, null);
    }
  });
}

/**
 * A full Todoist read lists only open tasks: a linked task missing from it was completed or deleted,
 * and only reading it tells which. A pending create also needs its task.
 */
async function completeTaskRead(
  deps: SideReaderDeps,
  userId: string,
  links: SyncLink[],
  read: TaskSnapshot[],
  full: boolean,
  refusedDue: ReadonlySet<string>,
): Promise<TaskSnapshot[]> {
  const seen = new Set(read.map((task) => task.id));
  const missing = links.flatMap((link) =>
    link.taskId &&
    !seen.has(link.taskId) &&
    ((full && !link.completed) || (link.pendingKey && !link.eventId) || refusedDue.has(link.taskId))
      ? [link.taskId]
      : [],
  );
  if (missing.length === 0) return read;
  const extra = await deps.withToken(userId, 'todoist', (token) =>
    Promise.all(missing.map(async (id) => (await deps.tasks.task(token, id)) ?? deletedTask(id))),
  );
  return [...read, ...extra];
}

/** The settings with the projects as the read left them; a changed list is kept for the settings screen. */
async function followProjects(
  deps: SideReaderDeps,
  userId: string,
  settings: SyncSettings,
  read: Pick<TaskChanges, 'projects' | 'full'>,
  now: Date,
): Promise<SyncSettings> {
  const projects = projectsAfterRead(settings.projects, read.projects, read.full);
  if (!projects) return settings;
  await deps.labels.saveTodoistProjects(userId, projects, now);
  return withProjects(settings, { projects });
}

/** Which sides the run reads, and how much of them (see `readPlan`). */
function whatToRead(request: ReadRequest) {
  const { state, links, settings } = request;
  const appearance = appearanceHash(settings);
  // Held removals are planned again from full reads until the user chooses: what is held is always
  // what both sides say now (a label restored meanwhile leaves nothing to hold).
  const holding = state !== null && heldCount(state) > 0;
  // Settings of what is in scope changed (a timebox added or removed, task durations, the colour or
  // category filter): everything already there is judged again, so both sides are read in full. A
  // state from before fingerprints were kept has none: it is recorded, not taken for a change.
  const scopeChanged = !!state?.scopeHash && state.scopeHash !== scopeHash(settings);
  const readAll = holding || scopeChanged;
  // New settings restyle our open events; their titles come from the tasks, so read every task once.
  const needsAllTasks =
    request.readAllTasks ||
    readAll ||
    // No project list yet (an account connected before projects were kept): a full read brings it.
    settings.projects.length === 0 ||
    links.some(
      (link) =>
        link.origin === 'task' &&
        !link.completed &&
        link.eventId &&
        link.appearanceHash !== appearance &&
        refusalDue(link, request.now),
    );
  const refusedDue = refusedWritesDue(links, request.now);
  const sameCalendar =
    state?.calendarId === settings.calendarId && state.calendarProvider === settings.calendarProvider;
  const planned = readPlan({
    state,
    sameCalendar,
    readAll,
    needsAllTasks,
    unfinishedCreates: links.some((link) => link.pendingKey !== null),
    completedOccurrences: request.occurrencesCompleted,
    requestedSidesOnly: request.requestedSidesOnly,
  });
  const reads = { ...planned, calendar: planned.calendar || refusedDue.calendar };
  return { reads, readAll, needsAllTasks, sameCalendar, holding, refusedDue };
}

/**
 * The refused writes whose back-off is over (plan/refusal-backoff.ts): an event write needs its task
 * read again (by id), a task write its event (the calendar read in full, there being no read by id).
 */
function refusedWritesDue(links: SyncLink[], now: Date) {
  const due = links.filter((link) => link.refusedWrite !== null && refusalDue(link, now));
  return {
    tasks: new Set(
      due.flatMap((link) => (link.refusedWrite?.startsWith('event') && link.taskId ? [link.taskId] : [])),
    ),
    calendar: due.some((link) => link.refusedWrite?.startsWith('task')),
  };
}

/** A full calendar read lists every live event: a linked event missing from it is gone. */
function completeEventRead(
  links: SyncLink[],
  read: CalendarEvent[],
  full: boolean,
  calendarId: string,
): CalendarEvent[] {
  if (!full) return read;
  const seen = new Set(read.map((event) => event.id));
  const gone = links.flatMap((link) =>
    link.calendarId === calendarId && link.eventId && !seen.has(link.eventId)
      ? [deletedEvent(link.eventId)]
      : [],
  );
  return [...read, ...gone];
}

/** A side this run does not read: no changes, and its read position stays where it is. */
function unread(token: string | null | undefined) {
  return {
    tasks: [],
    labels: [],
    projects: [],
    events: [],
    full: false,
    nextToken: token ?? null,
    timeZone: null,
  };
}
