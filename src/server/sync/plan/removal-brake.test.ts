import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SyncLink } from '../sync-link.ts';
import type { LinkPlan } from './link-plan.ts';
import { syncLink } from './plan.fixture.ts';
import {
  applyBrake,
  type BrakeInput,
  DEFAULT_BRAKE,
  isRemoval,
  tasksToRestore,
  tooMany,
} from './removal-brake.ts';

const link = (n: number): SyncLink =>
  syncLink({ id: `link-${n}`, taskId: `task-${n}`, eventId: `event-${n}` });

/** A task left the scope: its event is removed, the pair is over. */
const removeEvent = (n: number): LinkPlan => ({
  link: link(n),
  events: [{ action: 'remove', eventId: `event-${n}` }],
  task: null,
  next: null,
  activity: [{ direction: 'todoist-to-calendar', action: 'deleted', detail: 'out-of-scope' }],
});
/** The event was deleted: the task made from it goes. */
const deleteTask = (n: number): LinkPlan => ({
  link: link(n),
  events: [],
  task: { action: 'delete', taskId: `task-${n}` },
  next: null,
  activity: [{ direction: 'calendar-to-todoist', action: 'deleted', detail: null }],
});
const titleChange = (n: number): LinkPlan => {
  const { id: _id, pendingKey: _key, ...values } = link(n);
  return {
    link: link(n),
    events: [{ action: 'update', eventId: `event-${n}`, write: {} as never }],
    task: null,
    next: { ...values, titleHash: 'h2' },
    activity: [],
  };
};

const input = (plans: LinkPlan[], overrides: Partial<BrakeInput> = {}): BrakeInput => ({
  plans,
  linkedPairs: 20,
  recentRemovals: 0,
  holding: false,
  choice: null,
  itemChoices: [],
  thresholds: DEFAULT_BRAKE,
  ...overrides,
});
const range = (count: number) => Array.from({ length: count }, (_, n) => n);

describe('the safety brake', () => {
  it('counts as removals the plans that end a pair by removing or changing something of the user’s', () => {
    expect(isRemoval(removeEvent(1))).toBe(true);
    expect(isRemoval(deleteTask(1))).toBe(true);
    expect(isRemoval(titleChange(1))).toBe(false);
    // A completion keeps the pair (the event follows the on-complete setting): not a removal.
    const completed = { ...removeEvent(1), next: titleChange(1).next };
    expect(isRemoval(completed)).toBe(false);
    // An unfinished create repeated only to remove what it made is no loss of the user's.
    const discarded: LinkPlan = {
      ...removeEvent(1),
      events: [{ action: 'create', write: {} as never, discard: true }],
    };
    expect(isRemoval(discarded)).toBe(false);
  });

  it('lets five removals through, holds six of twenty pairs, and carries out the other changes', () => {
    const five = [...range(5).map(removeEvent), titleChange(9)];
    expect(applyBrake(input(five))).toEqual({ run: five, held: [], kept: [], released: [] });
    const six = [...range(6).map(removeEvent), titleChange(9)];
    const decision = applyBrake(input(six));
    expect(decision.run).toEqual([titleChange(9)]);
    expect(decision.held).toHaveLength(6);
  });

  it('lets through many removals that are a small share of the pairs', () => {
    const plans = range(19).map(deleteTask);
    expect(applyBrake(input(plans, { linkedPairs: 100 })).held).toEqual([]);
    expect(applyBrake(input(plans, { linkedPairs: 90 })).held).toHaveLength(19);
  });

  it('counts the removals of the last minutes with the run’s own', () => {
    const plans = range(3).map(removeEvent);
    expect(applyBrake(input(plans, { recentRemovals: 2 })).held).toEqual([]);
    expect(applyBrake(input(plans, { recentRemovals: 3 })).held).toHaveLength(3);
  });

  it('keeps holding until the user chooses, even fewer removals', () => {
    expect(applyBrake(input([removeEvent(1)], { holding: true })).held).toHaveLength(1);
  });

  it('carries the held removals out on “Remove them”', () => {
    const plans = range(8).map(removeEvent);
    const decision = applyBrake(input(plans, { holding: true, choice: 'remove' }));
    expect(decision.held).toEqual([]);
    expect(decision.run.map((plan) => plan.events)).toEqual(plans.map((plan) => plan.events));
    expect(decision.run.flatMap((plan) => plan.activity.map((entry) => entry.detail))).toEqual(
      range(8).map(() => 'released'),
    );
  });

  it('unlinks the pairs without a write on either side on “Keep them”', () => {
    const plans = [...range(8).map(removeEvent), titleChange(9)];
    const decision = applyBrake(input(plans, { holding: true, choice: 'keep' }));
    expect(decision.kept).toHaveLength(8);
    expect(decision.held).toEqual([]);
    const unlinks = decision.run.filter((plan) => plan.next === null);
    expect(unlinks).toHaveLength(8);
    expect(unlinks.every((plan) => plan.events.length === 0 && plan.task === null)).toBe(true);
    expect(decision.run).toContainEqual(titleChange(9));
  });

  it('names the kept tasks whose events were deleted, to be given new events, and no other', () => {
    const plans = [...range(4).map(removeEvent), ...[10, 11, 12].map(deleteTask)];
    const decision = applyBrake(input(plans, { holding: true, choice: 'keep' }));
    expect([...tasksToRestore(decision)]).toEqual(['task-10', 'task-11', 'task-12']);
    expect(tasksToRestore(applyBrake(input(plans, { holding: true, choice: 'remove' })))).toEqual(new Set());
  });

  describe('choices for single items', () => {
    const pair = (n: number) => ({ taskId: `task-${n}`, eventId: `event-${n}` });
    const plans = [...range(4).map(removeEvent), ...[10, 11].map(deleteTask), titleChange(9)];

    it('removes the items chosen Remove, unlinks those chosen Keep, and keeps holding the undecided', () => {
      const decision = applyBrake(
        input(plans, {
          holding: true,
          itemChoices: [
            { ...pair(0), choice: 'remove' },
            { ...pair(1), choice: 'keep' },
            { ...pair(10), choice: 'keep' },
          ],
        }),
      );
      expect(decision.held.map((plan) => plan.link?.id)).toEqual(['link-2', 'link-3', 'link-11']);
      expect(decision.kept.map((plan) => plan.link?.id)).toEqual(['link-1', 'link-10']);
      expect(decision.released.map((plan) => plan.link?.id)).toEqual(['link-0']);
      // The removal chosen Remove runs as planned, saying the user released it; the kept ones unlink.
      expect(decision.run).toContainEqual({
        ...removeEvent(0),
        activity: [{ ...removeEvent(0).activity[0], detail: 'released' }],
      });
      const unlinks = decision.run.filter((plan) => plan.next === null && plan.events.length === 0);
      expect(unlinks.map((plan) => plan.link?.id)).toEqual(['link-1', 'link-10']);
      expect(unlinks.every((plan) => plan.task === null && plan.activity.length === 0)).toBe(true);
      // The other changes run; nothing held runs, nothing is lost.
      expect(decision.run).toContainEqual(titleChange(9));
      expect(decision.run).toHaveLength(4);
      expect(decision.run.length + decision.held.length).toBe(plans.length);
      // A kept task whose event was deleted gets a new one; a kept event's task needs none.
      expect([...tasksToRestore(decision)]).toEqual(['task-10']);
    });

    it('holds an item no choice names, however few are left', () => {
      const decision = applyBrake(
        input([removeEvent(1), removeEvent(2)], {
          holding: true,
          itemChoices: [{ ...pair(1), choice: 'keep' }],
        }),
      );
      expect(decision.held.map((plan) => plan.link?.id)).toEqual(['link-2']);
      expect(decision.kept.map((plan) => plan.link?.id)).toEqual(['link-1']);
    });

    it('ends the brake once every held item is decided, by its own choice or the one for all', () => {
      const own = applyBrake(
        input(plans, {
          holding: true,
          itemChoices: [...range(4), 10, 11].map((n) => ({ ...pair(n), choice: n % 2 ? 'keep' : 'remove' })),
        }),
      );
      expect(own.held).toEqual([]);
      expect(own.kept).toHaveLength(3);
      expect(own.released).toHaveLength(3);
      // The choice for all decides the rest; an item's own choice wins over it.
      const rest = applyBrake(
        input(plans, { holding: true, choice: 'remove', itemChoices: [{ ...pair(2), choice: 'keep' }] }),
      );
      expect(rest.held).toEqual([]);
      expect(rest.kept.map((plan) => plan.link?.id)).toEqual(['link-2']);
      expect(rest.released).toHaveLength(5);
    });

    it('matches a choice to its pair by both ids, the later of two choices for a pair winning', () => {
      const decision = applyBrake(
        input([removeEvent(1), removeEvent(2)], {
          holding: true,
          itemChoices: [
            // Another pair of the same task (its event made anew) is not this one.
            { taskId: 'task-1', eventId: 'event-other', choice: 'remove' },
            { ...pair(2), choice: 'remove' },
            { ...pair(2), choice: 'keep' },
          ],
        }),
      );
      expect(decision.held.map((plan) => plan.link?.id)).toEqual(['link-1']);
      expect(decision.kept.map((plan) => plan.link?.id)).toEqual(['link-2']);
    });

    it('applies no choice while nothing is held: a run that trips the brake holds everything', () => {
      const decision = applyBrake(
        input(range(8).map(removeEvent), { itemChoices: [{ ...pair(1), choice: 'remove' }] }),
      );
      expect(decision.held).toHaveLength(8);
      expect(decision.released).toEqual([]);
    });
  });

  it('trips only above both thresholds, whatever the counts (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 0, max: 200 }),
        fc.integer({ min: 0, max: 20 }),
        (removals, pairs, recent) => {
          const plans = [...range(removals).map(removeEvent), titleChange(999)];
          const decision = applyBrake(input(plans, { linkedPairs: pairs, recentRemovals: recent }));
          const total = removals + recent;
          const shouldHold = removals > 0 && total > 5 && total > 0.2 * pairs;
          expect(decision.held.length).toBe(shouldHold ? removals : 0);
          // Nothing is lost or made twice: every plan is carried out or held, once.
          expect(decision.run.length + decision.held.length).toBe(plans.length);
          expect(tooMany(total, pairs, DEFAULT_BRAKE)).toBe(total > 5 && total > 0.2 * pairs);
        },
      ),
    );
  });
});
