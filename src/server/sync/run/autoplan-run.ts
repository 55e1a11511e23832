import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { CalendarTarget } from '../calendar-target.port.ts';
import {
  type AutoplanInput,
  autoplanWork,
  busyCalendarIds,
  otherAccountsCount,
  planAutoplan,
} from '../plan/autoplan/autoplan-step.ts';
import { instantToLocal } from '../plan/due-time.ts';
import type { AutoplanKept } from '../sync-state.ts';
import type { TaskCommand, TaskSnapshot, TaskSource } from '../task-source.port.ts';
import type { WithToken } from '../with-token.ts';

export type AutoplanRunDeps = {
  tasks: TaskSource;
  withToken: WithToken;
  log: Logger;
  /** The busy times of the accounts added beside the sync's (other-accounts-busy.ts); none without. */
  busyInOtherAccounts?: (userId: string, from: Date, to: Date) => Promise<{ start: Date; end: Date }[]>;
  /** Whether Plan my day is still on, asked right before its times are written (`autoplanOn`). */
  stillOn?: (userId: string) => Promise<boolean>;
};

/**
 * "Plan my day" in a run (docs/product-rules.md §10), before the sync plans: reads the calendar over
 * the days it plans (one call, only when there is something to place or a placed block a change could
 * have landed on), writes the due times it chose to Todoist, and answers the tasks as they are now, so
 * the same run makes their events. Undefined `kept`: nothing to remember changed.
 */
export async function runAutoplan(
  deps: AutoplanRunDeps,
  calendar: CalendarTarget,
  userId: string,
  input: AutoplanInput,
): Promise<{ tasks: TaskSnapshot[]; kept?: AutoplanKept }> {
  const { kept: before } = input;
  // Switched off: nothing it placed moves any more, and nothing waits for it.
  if (!input.settings.autoplan.active) {
    const remembers = Boolean(before?.placements.length || before?.unplaced.length);
    return remembers
      ? { tasks: [...input.tasks], kept: { placements: [], unplaced: [] } }
      : { tasks: [...input.tasks] };
  }
  const work = autoplanWork(input);
  if (!work) return { tasks: [...input.tasks] };
  const { settings } = input;
  const window = work.readWindow
    ? await deps.withToken(userId, 'calendar', (token) =>
        calendar.eventsBetween(token, settings.calendarId, work.from, work.to),
      )
    : [];
  const others = work.readWindow ? busyCalendarIds(settings) : [];
  const elsewhere =
    others.length > 0
      ? await deps.withToken(userId, 'calendar', (token) =>
          calendar.busyElsewhere(token, others, work.from, work.to),
        )
      : [];
  const inOtherAccounts =
    work.readWindow && deps.busyInOtherAccounts && otherAccountsCount(settings)
      ? await deps.busyInOtherAccounts(userId, work.from, work.to)
      : [];
  const result = planAutoplan(input, work, window, [...elsewhere, ...inOtherAccounts]);
  // Switched off while the run read and planned (the user's task added after): nothing is placed,
  // and the next run, which the switch asked for, forgets what was.
  if (result.writes.length > 0 && deps.stillOn && !(await deps.stillOn(userId))) {
    deps.log.info({ userId }, 'Plan my day was switched off during the run; nothing placed');
    return { tasks: [...input.tasks] };
  }
  const commands: TaskCommand[] = result.writes.map((write) => ({
    kind: 'update',
    uuid: randomUUID().replaceAll('-', ''),
    id: write.taskId,
    due: write.due,
  }));
  const refused = new Set<string>();
  if (commands.length > 0) {
    const answer = await deps.withToken(userId, 'todoist', (token) => deps.tasks.apply(token, commands));
    for (const command of commands) {
      if (command.kind !== 'update' || !answer.failed[command.uuid]) continue;
      deps.log.warn({ userId, tag: answer.failed[command.uuid] }, 'Todoist refused a placed time');
      refused.add(command.id);
    }
  }
  const written = new Map(
    result.writes.filter((write) => !refused.has(write.taskId)).map((write) => [write.taskId, write]),
  );
  const tasks = input.tasks.map((task) => {
    const write = written.get(task.id);
    if (!write) return task;
    const date = write.start
      ? instantToLocal(write.start, settings.timeZone)
      : write.due.kind === 'date'
        ? write.due.date
        : null;
    return date === null ? task : { ...task, due: { date, timezone: null, isRecurring: false, string: '' } };
  });
  const kept: AutoplanKept = {
    ...result.kept,
    placements: result.kept.placements.filter((block) => !refused.has(block.taskId)),
  };
  return { tasks, kept };
}
