import type { SyncLink } from '../sync-link.ts';
import type { TaskSnapshot } from '../task-source.port.ts';
import { dueWriteFor } from './due-time.ts';
import { eventWriteFor } from './event-write.ts';
import type { LinkPlan, Pair, PlanInput } from './link-plan.ts';
import { newEventPlan, newTaskPlan } from './new-pair.ts';
import { taskWanted } from './sync-scope.ts';
import { linkWhen } from './timebox-when.ts';

/**
 * Creates a crashed run left unfinished (the link holds the create's key, `pendingKey`): they are
 * repeated with the same key, so the provider answers with what the first attempt made, or makes it
 * now. Undefined: the pair has no unfinished create.
 */
export function resumeCreate({ input, link, task, event }: Pair): LinkPlan | null | undefined {
  if (!link.pendingKey) return undefined;
  if (link.taskId === null) {
    if (!event || event.deleted || !event.start) return discardPendingTask(input, link);
    return newTaskPlan(input, event, link);
  }
  if (link.eventId === null && !link.completed) {
    if (!task) return null;
    if (!taskWanted(task, input.settings, input.now)) return discardPending(input, link, task);
    const plan = newEventPlan(input, task, link);
    return plan.next ? { ...plan, next: { ...plan.next, generation: link.generation } } : plan;
  }
  return undefined;
}

/**
 * A create whose answer was lost may have made its event anyway; its task is no longer wanted (deleted,
 * out of scope, done). The same create is repeated (the same key returns the event it made, or makes
 * one) only to learn the event's id, and that event is removed: no event is left without its task.
 */
function discardPending(input: PlanInput, link: SyncLink, task: TaskSnapshot): LinkPlan {
  const write = eventWriteFor(
    input.settings,
    { id: task.id, title: task.content },
    linkWhen(link),
    link.eventMinutes,
    false,
  );
  return { link, events: [{ action: 'create', write, discard: true }], task: null, next: null, activity: [] };
}

/**
 * The same for a task create from an event that the user deleted before the repeat: the create is
 * repeated with its command uuid (Todoist answers with the task it made, or makes one) only to learn
 * the task's id, and that task is deleted, so the deleted event does not come back through its task.
 */
function discardPendingTask(input: PlanInput, link: SyncLink): LinkPlan {
  return {
    link,
    events: [],
    task: {
      action: 'create',
      content: 'Timeboxer',
      due: dueWriteFor(link.startAt, null, input.settings.timeZone),
      labels: [],
      duration: null,
      discard: true,
    },
    next: null,
    activity: [],
  };
}
