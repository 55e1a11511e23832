import { TodoistApi } from '@doist/todoist-sdk';
import { type BenchUser, dayFromToday } from './bench-users.ts';
import {
  type EventView,
  ownRequests,
  type UserCalendarClient,
  userCalendarClient,
} from './calendar-clients.ts';
import { now } from './stats.ts';

export { ownRequests };

export type ChangeKind = 'task-move' | 'event-move' | 'task-add';

/** A change the user made: when it was sent and when the provider acknowledged it. */
export type MadeChange = {
  kind: ChangeKind;
  userId: string;
  /** Where the app has to write it. */
  side: 'todoist' | 'calendar';
  sentAt: number;
  ackAt: number;
  /** The event a task's move is written to (task-move only). */
  eventId?: string;
};

type Pair = { taskId: string; eventId: string; minutes: number; lastSlot: string };

/** One user acting through their own Todoist and calendar clients, as they would in the real apps. */
export class Actor {
  readonly user: BenchUser;
  readonly todoist: TodoistApi;
  readonly calendar: UserCalendarClient;
  pairs: Pair[] = [];
  private added = 0;

  constructor(user: BenchUser, origins: { todoist: string; calendar: string }) {
    this.user = user;
    this.todoist = new TodoistApi(user.todoistToken, { baseUrl: origins.todoist });
    this.calendar = userCalendarClient(user.calendar, origins.calendar, user.calendarToken, user.calendarId);
  }

  /** Every event in the user's calendar (one or more list calls). */
  events(): Promise<EventView[]> {
    return this.calendar.events();
  }

  async tasks() {
    const all = [];
    let cursor: string | null = null;
    do {
      ownRequests.todoist += 1;
      const page = await this.todoist.getTasks({ limit: 200, ...(cursor ? { cursor } : {}) });
      all.push(...page.results);
      cursor = page.nextCursor;
    } while (cursor);
    return all;
  }

  /** The task-event pairs the app made (events tagged with their task). */
  async loadPairs(): Promise<void> {
    this.pairs = (await this.events()).flatMap((event) => {
      const { taskId } = event;
      if (!taskId || !event.id || !event.start || !event.end || event.cancelled) return [];
      const minutes = (Date.parse(event.end) - Date.parse(event.start)) / 60_000;
      return [{ taskId, eventId: event.id, minutes, lastSlot: event.start }];
    });
  }

  /** Makes one change of the given kind on the pair at `pairIndex`, at a new time. */
  async change(kind: ChangeKind, pairIndex: number, random: () => number): Promise<MadeChange> {
    const pair = this.pairs[pairIndex % this.pairs.length];
    if (!pair) throw new Error(`${this.user.email} has no synced pair to change`);
    let day = 0;
    let hour = 0;
    let minute = 0;
    let key = pair.lastSlot;
    while (key === pair.lastSlot) {
      day = 1 + Math.floor(random() * 27);
      hour = 7 + Math.floor(random() * 12);
      minute = Math.floor(random() * 4) * 15;
      key = `${day}/${hour}/${minute}`;
    }
    pair.lastSlot = key;
    const date = dayFromToday(day);
    const dueString = `${date} at ${hour}:${String(minute).padStart(2, '0')}`;
    const sentAt = now();
    if (kind === 'task-move') {
      ownRequests.todoist += 1;
      await this.todoist.updateTask(pair.taskId, { dueString });
      return {
        kind,
        userId: this.user.userId,
        side: 'calendar',
        sentAt,
        ackAt: now(),
        eventId: pair.eventId,
      };
    }
    if (kind === 'task-add') {
      ownRequests.todoist += 1;
      this.added += 1;
      await this.todoist.addTask({ content: `Added ${this.added}`, labels: ['30min'], dueString });
      return { kind, userId: this.user.userId, side: 'calendar', sentAt, ackAt: now() };
    }
    const start = Date.parse(`${date}T00:00:00Z`) + (hour * 60 + minute) * 60_000;
    await this.calendar.move(pair.eventId, start, pair.minutes);
    return { kind, userId: this.user.userId, side: 'todoist', sentAt, ackAt: now() };
  }

  /**
   * Whether both sides agree: every event the app made starts when its task is due, and every open
   * timeboxed task the user made, due from tomorrow on, has one. Returns the mismatches.
   */
  async consistency(): Promise<{ pairs: number; mismatches: string[] }> {
    const [events, tasks] = await Promise.all([this.events(), this.tasks()]);
    const byTask = new Map(tasks.map((task) => [task.id, task]));
    const mismatches: string[] = [];
    const tagged = new Set<string>();
    for (const event of events) {
      const { taskId } = event;
      if (!taskId || event.cancelled) continue;
      tagged.add(taskId);
      const task = byTask.get(taskId);
      const due = task?.due ? (task.due.datetime ?? task.due.date) : null;
      const start = event.start ? Date.parse(event.start) : Number.NaN;
      if (!due || berlinInstant(due) !== start) {
        mismatches.push(`${this.user.email}: event ${event.id} at ${event.start}, task ${taskId} due ${due}`);
      }
    }
    const tomorrow = dayFromToday(1);
    for (const task of tasks) {
      const due = task.due?.datetime ?? task.due?.date ?? '';
      // Tasks the app made from the user's own events are linked to those (untagged) events.
      const ours = task.content.startsWith('Timeboxed ') || task.content.startsWith('Added ');
      const timeboxed = task.labels.some((label) => label === '30min' || label === '1h');
      if (ours && timeboxed && due.includes('T') && due >= tomorrow && !tagged.has(task.id)) {
        mismatches.push(`${this.user.email}: task ${task.id} due ${due} has no event`);
      }
    }
    return { pairs: tagged.size, mismatches };
  }
}

/** A Todoist due (floating local time in Europe/Berlin, or UTC with `Z`) as epoch milliseconds. */
export function berlinInstant(due: string): number {
  if (/Z$|[+-]\d\d:\d\d$/.test(due)) return Date.parse(due);
  const local = Date.parse(`${due.length === 10 ? `${due}T00:00:00` : due}Z`);
  let instant = local - berlinOffsetMs(local);
  instant = local - berlinOffsetMs(instant);
  return instant;
}

function berlinOffsetMs(at: number): number {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Berlin', timeZoneName: 'shortOffset' })
    .formatToParts(new Date(at))
    .find((part) => part.type === 'timeZoneName')?.value;
  const match = /GMT([+-])(\d+)(?::(\d+))?/.exec(name ?? '');
  if (!match) return 0;
  const sign = match[1] === '-' ? -1 : 1;
  return sign * (Number(match[2]) * 60 + Number(match[3] ?? 0)) * 60_000;
}
