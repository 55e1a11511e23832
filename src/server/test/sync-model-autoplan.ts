import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { App } from '#server/app.ts';
import { syncStates } from '#server/db/schema/sync.tables.ts';
import {
  eventExpected,
  expectedEvents,
  type Model,
  type ModelItem,
  taskExists,
  WORKING_HOURS,
  waitingForTime,
} from './sync-model.ts';
import type { Real } from './sync-model-actions.ts';

/**
 * "Plan my day" in the model-based test. Where it puts a task is not predicted: at a settle the model
 * reads which blocks the app still holds as its own (the sync state) and their times (Todoist), checks
 * that ownership against what the user did (a time the user set or moved is never the app's again),
 * and then checks the rules every block it placed follows: inside working hours, overlapping no other
 * timed event of the chosen calendar (ours, the user's, another colour's) and no other block.
 */

const BERLIN = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/Berlin',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** The local time of a Todoist due in hours (10.5 is 10:30), or null for a date without a time. */
export function dueHours(due: { date: string; datetime?: string | null } | null | undefined): number | null {
  const value = due?.datetime ?? due?.date ?? '';
  if (!value.includes('T')) return null;
  const clock = /(Z|[+-]\d\d:\d\d)$/.test(value) ? BERLIN.format(new Date(value)) : value.slice(11, 16);
  const [hours, minutes] = clock.split(':').map(Number);
  return (hours ?? 0) + (minutes ?? 0) / 60;
}

async function appBlocks(app: App, userId: string): Promise<Set<string>> {
  const [state] = await app.database.db
    .select({ autoplan: syncStates.autoplan })
    .from(syncStates)
    .where(eq(syncStates.userId, userId));
  return new Set(state?.autoplan?.placements.map((block) => block.taskId) ?? []);
}

/** Learns, after the sync settled and before the comparison, what the app placed and where. */
export async function learnPlacements(app: App, model: Model, real: Real): Promise<void> {
  const held = await appBlocks(app, real.user.userId);
  for (const item of model.items) {
    const taskId = real.taskIds.get(item.id);
    const label = `“${item.title}”`;
    if (!taskId || !taskExists(item)) {
      item.placement = null;
      continue;
    }
    const listed = held.has(taskId);
    if (item.placement === 'app') expect(listed, `${label}: still placed by the app`).toBe(true);
    if (item.placement === null && !waitingForTime(model, item)) {
      expect(listed, `${label}: the user's time, never the app's`).toBe(false);
    }
    if (!listed && !waitingForTime(model, item)) {
      if (item.placement === 'either') item.placement = null;
      continue;
    }
    const hours = dueHours((await real.user.todoist.getTask(taskId)).due);
    item.dated = hours === null;
    item.placement = listed && hours !== null ? 'app' : null;
    if (hours !== null) item.hour = hours;
  }
}

const overlap = (a: { hour: number; minutes: number }, b: { hour: number; minutes: number }) =>
  a.hour < b.hour + b.minutes / 60 && b.hour < a.hour + a.minutes / 60;

/** Every open block the app placed is inside working hours and overlaps no other timed event. */
export function checkPlacements(model: Model): void {
  const timed = expectedEvents(model).flatMap((event) =>
    event.hour === null ? [] : [{ item: event.item, hour: event.hour, minutes: event.minutes }],
  );
  for (const item of model.items) {
    if (item.placement !== 'app' || item.completed || !eventExpected(model, item)) continue;
    const block = { hour: item.hour, minutes: item.length };
    const label = `block “${item.title}” at ${item.hour}`;
    expect(block.hour, `${label}: after the start of working hours`).toBeGreaterThanOrEqual(
      WORKING_HOURS.start,
    );
    expect(block.hour + block.minutes / 60, `${label}: before their end`).toBeLessThanOrEqual(
      WORKING_HOURS.end,
    );
    const clash = timed.find((other) => other.item !== item && overlap(block, other));
    expect(clash?.item.title, `${label}: overlaps nothing`).toBeUndefined();
  }
}

/** What a user's own change of an item's time does to it: never the app's to move again. */
export function userTimed(item: ModelItem): void {
  item.placement = null;
}
