import { NO_REFUSAL, type SyncLink } from '../sync-link.ts';
import type { TaskSnapshot } from '../task-source.port.ts';
import { completionChange, isNextOccurrence, nextOccurrence } from './completion.ts';
import { resumeCreate } from './crash-recovery.ts';
import { eventGonePlan } from './event-gone.ts';
import { appearanceHash } from './event-write.ts';
import {
  keep,
  type LinkPlan,
  type Pair,
  type PlanInput,
  recordOnly,
  removeEvent,
  TODOIST,
} from './link-plan.ts';
import { mergeFields } from './merge-fields.ts';
import { movedBackEvents } from './moved-back.ts';
import { newEventPlan, newTaskPlan } from './new-pair.ts';
import { refusalWaits } from './refusal-backoff.ts';
import { eventWanted, taskMinutes, taskWanted } from './sync-scope.ts';

/**
 * The pure heart of the sync: from the changes read on both sides and the link rows, decide what to
 * write. No I/O; the engine reads, asks here, and executes the plans (see run/sync-engine.ts).
 *
 * Rules (docs/product-rules.md §10): a field changed on one side flows to the other; changed on both, the
 * later change wins; an echo of our own write differs from nothing and costs no write.
 */
export function planSync(input: PlanInput): LinkPlan[] {
  const { links, settings, now } = input;
  const byTask = new Map(links.flatMap((link) => (link.taskId ? [[link.taskId, link] as const] : [])));
  const byEvent = new Map(links.flatMap((link) => (link.eventId ? [[link.eventId, link] as const] : [])));
  const eventsById = new Map(input.events.map((event) => [event.id, event]));
  const seenEvents = new Set<string>();
  const plans: LinkPlan[] = [];
  const push = (plan: LinkPlan | null) => {
    if (plan) plans.push(plan);
  };
  // A pair whose event moved out and back (a new id in Outlook) goes on with the event that came back.
  const movedBack = movedBackEvents(links, input.events, settings);
  const goOnWithMoved = (link: SyncLink, task: Pair['task']): boolean => {
    const back = link.eventId ? movedBack.get(link.eventId) : undefined;
    if (!back || !link.eventId) return false;
    seenEvents.add(link.eventId);
    seenEvents.add(back.id);
    const moved = { ...link, eventId: back.id };
    push(resolvePair({ input, link: moved, task, event: back }) ?? relinked(moved));
    return true;
  };

  for (const task of input.tasks) {
    const link = byTask.get(task.id);
    if (!link) {
      if (taskWanted(task, settings, now)) push(newEventPlan(input, task));
      continue;
    }
    if (goOnWithMoved(link, task)) continue;
    const event = link.eventId ? eventsById.get(link.eventId) : undefined;
    if (event) seenEvents.add(event.id);
    push(resolvePair({ input, link, task, event }));
  }

  for (const event of input.events) {
    if (seenEvents.has(event.id)) continue;
    const link = byEvent.get(event.id);
    if (link) {
      if (goOnWithMoved(link, undefined)) continue;
      push(resolvePair({ input, link, task: undefined, event }));
    } else if (event.taskTag === null) {
      // A task made from this event but not yet recorded (a crash between Todoist's write and ours)
      // has a pending link keyed by the event: resolvePair resumes it with the same command uuid.
      if (eventWanted(event, settings, now)) push(newTaskPlan(input, event, null));
    }
  }
  return plans;
}

/**
 * One linked pair, the cases in the order they are decided; the first that applies plans the pair.
 * Null: nothing to write or record.
 */
function resolvePair(pair: Pair): LinkPlan | null {
  const { input, link, task, event } = pair;
  if (link.refusedWrite === null) return resolveLinked(pair);
  // A write refused for good waits its back-off, unless the user changed the item since.
  if (refusalWaits(link, task, event, input.now, appearanceHash(input.settings))) return null;
  const plan = resolveLinked(pair);
  if (plan && (plan.events.length > 0 || plan.task !== null || plan.next === null)) return plan;
  // Tried again and nothing is left to write (the user undid the change, say): the refusal is over.
  const next = { ...(plan?.next ?? keep(link)), ...NO_REFUSAL };
  return { link, events: [], task: null, next, activity: plan?.activity ?? [] };
}

function resolveLinked(pair: Pair): LinkPlan | null {
  const { input, link, task, event } = pair;
  const resumed = resumeCreate(pair);
  if (resumed !== undefined) return resumed;
  if (task?.isDeleted) return removeEvent(link, { direction: TODOIST, action: 'deleted', detail: null });
  const gone = eventGonePlan(pair);
  if (gone) return gone;
  if (task && task.checked !== link.completed) return completionChange(input, link, task, event);
  // A done task's event is left as the setting made it; only versions move on.
  if (link.completed) return versionsOnly(pair);
  if (task && taskMinutes(task, input.settings) === null) {
    return removeEvent(link, { direction: TODOIST, action: 'deleted', detail: 'out-of-scope' });
  }
  if (task && link.eventId && isNextOccurrence(input, link, task, event))
    return nextOccurrence(input, link, task);
  // The event went with a completion (or was refused); the task is open and in scope: make a new one.
  if (!link.eventId) return task ? reopenedInScope(pair, task) : null;
  if (!link.taskId) return null;
  return mergeFields(pair, { taskId: link.taskId, eventId: link.eventId });
}

/** Only the pair's event id moved on (the event came back unchanged): the link records it. */
function relinked(link: SyncLink): LinkPlan {
  return { link, events: [], task: null, next: keep(link), activity: [] };
}

function versionsOnly({ link, task, event }: Pair): LinkPlan | null {
  return recordOnly(link, {
    taskVersion: task?.updatedAt ?? link.taskVersion,
    eventVersion: event?.version ?? link.eventVersion,
  });
}

function reopenedInScope({ input, link }: Pair, task: TaskSnapshot): LinkPlan {
  return {
    ...newEventPlan(input, task, link),
    activity: [{ direction: TODOIST, action: 'created', detail: null }],
  };
}
