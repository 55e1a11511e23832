import type { LinkPlan } from './link-plan.ts';

/**
 * The safety brake (docs/product-rules.md §10, decision 014): a run that would take away many of a
 * user's items at once (a label deleted in Todoist, a project archived, a calendar emptied) does not;
 * it holds those removals, carries out the rest, and asks the user. Pure: the engine asks here.
 */

export type BrakeThresholds = {
  /** Held only above this many removals … */
  minItems: number;
  /** … and above this share of the user's linked pairs. */
  share: number;
  /** Removals carried out within this window count with the run's own. */
  windowMs: number;
};

export const DEFAULT_BRAKE: BrakeThresholds = { minItems: 5, share: 0.2, windowMs: 10 * 60_000 };

/** What the user chose on the held removals: carry them out once, or unlink the pairs and keep both sides. */
export type BrakeChoice = 'remove' | 'keep';

/** A held removal's pair, by the ids the brake logs it with (its link's task and event). */
export type PairIds = { taskId: string | null; eventId: string | null };

/** The user's choice for one held removal alone. */
export type ItemChoice = PairIds & { choice: BrakeChoice };

/** One key per pair, for matching choices and logged items to plans. */
export const pairKey = ({ taskId, eventId }: PairIds) => JSON.stringify([taskId, eventId]);

/** A plan's pair, as the brake logs it. */
export const pairOf = (plan: LinkPlan): PairIds => ({
  taskId: plan.link?.taskId ?? null,
  eventId: plan.link?.eventId ?? null,
});

/**
 * Whether a plan takes something of the user's away: the pair is over and an event is removed, a task
 * deleted, or a task's timebox taken off (the event deleted). Completions follow the user's setting and
 * keep the pair; they are not removals.
 */
export function isRemoval(plan: LinkPlan): boolean {
  if (plan.next !== null || plan.link === null) return false;
  const removesEvent = plan.events.some((action) => action.action === 'remove');
  const changesTask = plan.task !== null && plan.task.action !== 'create';
  return removesEvent || changesTask;
}

/** Whether this many removals (the run's and the window's) are too many for this many linked pairs. */
export function tooMany(removals: number, linkedPairs: number, thresholds: BrakeThresholds): boolean {
  return removals > thresholds.minItems && removals > thresholds.share * linkedPairs;
}

export type BrakeInput = {
  plans: LinkPlan[];
  /** The user's linked pairs before the run. */
  linkedPairs: number;
  /** Removals carried out within the window before this run. */
  recentRemovals: number;
  /** Removals are held now (an earlier run tripped the brake and the user has not chosen yet). */
  holding: boolean;
  /** The user's choice for every held removal without a choice of its own. */
  choice: BrakeChoice | null;
  /** The user's choices for single held removals (a later one for the same pair wins). */
  itemChoices: readonly ItemChoice[];
  thresholds: BrakeThresholds;
};

export type BrakeDecision = {
  /** The plans to carry out, removals released by the user included. */
  run: LinkPlan[];
  /** Removals not carried out: they wait for the user's choice. */
  held: LinkPlan[];
  /** Removals the user chose to keep: their pairs are unlinked, both sides left as they are. */
  kept: LinkPlan[];
  /** Removals the user released (in `run` too): they do not count against the next ones. */
  released: LinkPlan[];
};

/**
 * The tasks of kept removals whose events were deleted: kept, such a task is still timeboxed, so it
 * gets a new event (in this run, not whenever a full read next brings it).
 */
export function tasksToRestore(decision: BrakeDecision): Set<string> {
  return new Set(
    decision.kept.flatMap((plan) => (plan.task !== null && plan.link?.taskId ? [plan.link.taskId] : [])),
  );
}

/**
 * Which plans run. Not holding, the removals run unless they are too many, then all are held. Holding,
 * each removal goes as the user chose: its own choice first, else the one for all; one without either
 * stays held (the brake ends when none is left).
 */
export function applyBrake(input: BrakeInput): BrakeDecision {
  const removals = input.plans.filter(isRemoval);
  const others = input.plans.filter((plan) => !isRemoval(plan));
  const none: LinkPlan[] = [];
  if (removals.length === 0) return { run: input.plans, held: none, kept: none, released: none };
  if (!input.holding) {
    const trips = tooMany(removals.length + input.recentRemovals, input.linkedPairs, input.thresholds);
    if (!trips) return { run: input.plans, held: none, kept: none, released: none };
    return { run: others, held: removals, kept: none, released: none };
  }
  const chosen = new Map(input.itemChoices.map((item) => [pairKey(item), item.choice]));
  const choiceOf = (plan: LinkPlan) => chosen.get(pairKey(pairOf(plan))) ?? input.choice;
  const release = removals.filter((plan) => choiceOf(plan) === 'remove').map(released);
  const kept = removals.filter((plan) => choiceOf(plan) === 'keep');
  const held = removals.filter((plan) => choiceOf(plan) === null);
  return { run: [...others, ...release, ...kept.map(unlink)], held, kept, released: release };
}

/** Carried out as planned, its activity saying the user released it. */
function released(plan: LinkPlan): LinkPlan {
  return { ...plan, activity: plan.activity.map((entry) => ({ ...entry, detail: 'released' })) };
}

/** The pair ends without a write on either side. */
function unlink(plan: LinkPlan): LinkPlan {
  return { link: plan.link, events: [], task: null, next: null, activity: [] };
}
